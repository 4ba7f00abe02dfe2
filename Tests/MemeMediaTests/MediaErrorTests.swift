import Foundation
import MemeCore
import Testing

@testable import MemeMedia

/// `MediaError` words every case in one place: the lines a user reads for each.
@Suite struct MediaErrorTests {
  static let missingGIF = SharedLibrary.Missing(
    soname: "libgif.so.7", reason: "not found", package: "libgif7")

  @Test(arguments: [
    (MediaError.cannotLoad(name: "x.png", .emptyFile), "cannot load 'x.png': the file is empty"),
    (
      .cannotLoad(name: "a.txt", .notA(expected: "PNG", start: "<!DO")),
      "cannot load 'a.txt': not a PNG file (starts with \"<!DO\")"
    ),
    (
      .cannotLoad(name: "big.png", .undecodable(reason: "too big", hint: "set X to allow more")),
      "cannot load 'big.png': too big (set X to allow more)"
    ),
    (
      .cannotLoad(name: "a.gif", .damagedFrame(number: 3, reason: "data ends early")),
      "cannot load 'a.gif': frame 3: data ends early"
    ),
    (
      .cannotLoad(name: "a.gif", .libraryMissing(missingGIF)),
      "cannot load 'a.gif': libgif.so.7 cannot be loaded (not found); install libgif7, or run "
        + "'make deps'"
    ),
    (
      .tooLarge(
        format: .jpeg, size: PixelSize(width: 1, height: 70000), limit: 65500, animated: false),
      "cannot write a JPEG of 1×70000 pixels: a JPEG is at most 65500 pixels on a side; PNG has "
        + "no such limit"
    ),
    // A moving meme cannot become a PNG: no way out is offered that does not exist.
    (
      .tooLarge(
        format: .webp, size: PixelSize(width: 20000, height: 10), limit: 16383, animated: true),
      "cannot write a WebP of 20000×10 pixels: a WebP is at most 16383 pixels on a side"
    ),
    (.cannotEncode(format: .gif, .outOfMemory), "cannot encode GIF: out of memory"),
    (
      .cannotEncode(format: .webp, .versionMismatch(library: "libwebp")),
      "cannot encode WebP: libwebp is not the version memesh was built with"
    ),
    (.cannotEncode(format: .heic, .notWritten), "cannot encode HEIC: memesh does not write HEIC"),
    (.notAnimatable(format: .png), "cannot encode an animation as PNG: only GIF and WebP move"),
  ])
  func eachCaseIsOneLine(error: MediaError, message: String) {
    #expect(error.message == message)
    #expect("\(error)" == message)
  }

  /// The template importer keeps only the reason (`StoreError.badTemplate` names the path).
  @Test func aLoadProblemIsTheReasonAlone() {
    let error = #expect(throws: MediaError.self) {
      try ImageCodec.decode(Data("<!DOCTYPE".utf8), name: "t.png")
    }
    guard case .cannotLoad(let name, let problem)? = error else {
      Issue.record("not a load error: \(String(describing: error))")
      return
    }
    #expect(name == "t.png")
    #expect(problem.reason.hasPrefix("not a PNG, JPEG"))
  }
}
