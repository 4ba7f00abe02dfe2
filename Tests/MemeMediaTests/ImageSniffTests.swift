import Foundation
import MemeCore
import MemeMedia
import Testing

/// The format comes from the content, never the file name; other formats are named.
@Suite struct ImageSniffTests {
  static let others: [(bytes: [UInt8], name: String)] = [
    (Array("BM".utf8) + [0x3A, 0, 0, 0, 0, 0, 0, 0, 0x36, 0, 0, 0], "BMP"),
    ([0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0], "TIFF"),
    ([0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8], "TIFF"),
    (Array("%PDF-1.7\n".utf8), "PDF"),
  ]

  @Test(arguments: others)
  func otherFormatsAreNamed(_ test: (bytes: [UInt8], name: String)) {
    // The name says .png: the content decides.
    let error = #expect(throws: MediaError.self) {
      try ImageCodec.decode(Data(test.bytes), name: "photo.png")
    }
    #expect(error?.message == "cannot load 'photo.png': unsupported format '\(test.name)'")
  }

  @Test func textFileShowsItsFirstBytesEscaped() {
    let error = #expect(throws: MediaError.self) {
      try ImageCodec.decode(Data("<!DOCTYPE html>".utf8), name: "cat.jpg")
    }
    #expect(
      error?.message
        == #"cannot load 'cat.jpg': not a PNG, JPEG, WebP, GIF, HEIC or AVIF file (starts with "<!DO")"#)
    let control = #expect(throws: MediaError.self) {
      try ImageCodec.decode(Data([0x1B, 0x5B, 0x22, 0x5C, 0x41]), name: "x")
    }
    #expect(
      control?.message
        == #"cannot load 'x': not a PNG, JPEG, WebP, GIF, HEIC or AVIF file (starts with "\x1B[\x22\x5C")"#)
  }

  @Test func emptyFileSaysSo() {
    let error = #expect(throws: MediaError.self) { try ImageCodec.decode(Data(), name: "e.png") }
    #expect(error?.message == "cannot load 'e.png': the file is empty")
  }

  @Test func contentWinsOverExtension() throws {
    let jpeg = try ImageFixtures.data("baseline.jpg")
    #expect(try ImageCodec.decode(jpeg, name: "really-a-jpeg.png").format == .jpeg)
    let png = try ImageFixtures.data("rgba-5x3.png")
    #expect(try ImageCodec.decode(png, name: "really-a-png.jpg").format == .png)
    #expect(ImageCodec.sniff(jpeg) == .jpeg)
    #expect(ImageCodec.sniff(png) == .png)
    #expect(ImageCodec.sniff(Data("GIF89a".utf8)) == .gif)
    #expect(ImageCodec.sniff(Data("BM".utf8)) == nil)
  }
}
