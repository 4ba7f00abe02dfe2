import Foundation
import Testing

@testable import MemeMedia

/// `load` opens the text libraries beside reading a picture only when that costs the load
/// nothing: a large JPEG or PNG, never a small picture nor a format whose own library is opened
/// on demand (the loader would open them one after the other).
@Suite struct TextLibrariesBesideLoadTests {
  /// `fixture` (under Fixtures/) written to a scratch file, padded with zeros to `size` bytes.
  func file(_ fixture: String, size: Int) throws -> (path: String, scratch: ScratchDirectory) {
    let scratch = try ScratchDirectory()
    var bytes = try Data(contentsOf: ImageFixtures.root.appendingPathComponent(fixture))
    if bytes.count < size { bytes += Data(count: size - bytes.count) }
    let path = scratch.url.appendingPathComponent("picture").path
    try bytes.write(to: URL(fileURLWithPath: path))
    return (path, scratch)
  }

  @Test(arguments: [
    ("images/exif-6.jpg", 2 << 20, true), ("images/exif-6.jpg", 100_000, false),
    ("images/icc-rgb.png", 2 << 20, true), ("heif/alpha.heic", 2 << 20, false),
  ])
  func onlyLargePicturesDecodedWithoutALibrary(fixture: String, size: Int, beside: Bool) throws {
    let (path, scratch) = try file(fixture, size: size)
    defer { scratch.remove() }
    #expect(ImageFile.outlastsTextLibraries(path: path) == beside)
  }

  @Test func nothingThatCannotBeReadOpensThem() throws {
    let scratch = try ScratchDirectory()
    defer { scratch.remove() }
    #expect(!ImageFile.outlastsTextLibraries(path: scratch.url.path))
    #expect(!ImageFile.outlastsTextLibraries(path: scratch.url.path + "/missing.jpg"))
    #expect(!ImageFile.outlastsTextLibraries(path: "/dev/zero"))
  }
}
