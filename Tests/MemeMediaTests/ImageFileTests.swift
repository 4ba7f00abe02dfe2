import Foundation
import MemeCore
import MemeMedia
import MemeSystem
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Loading files from disk: odd names, directories, devices, FIFOs, and nothing on stderr.
@Suite struct ImageFileTests {
  static let oddNames: [[UInt8]] = [
    Array("with space.jpg".utf8), Array("it's \"quoted\".jpg".utf8), Array("ünïcödé 🐱.jpg".utf8),
    Array("-leading-dash.jpg".utf8), [0x6C, 0x61, 0x74, 0x69, 0x6E, 0xE9, 0xFF, 0x2E, 0x6A],
    Array("$(touch pwned) `x` *.jpg".utf8),
  ]

  @Test(arguments: oddNames)
  func oddFileNamesLoad(_ name: [UInt8]) throws {
    let scratch = try ScratchDirectory()
    defer { scratch.remove() }
    try scratch.copy("exif-6.jpg", to: name)
    let path = Array(scratch.url.path.utf8) + [UInt8(ascii: "/")] + name
    let (bytes, decoded) = try ImageFile.load(path: FileSystemName.string(path))
    #expect(decoded.image.size == PixelSize(width: 24, height: 16))
    #expect(bytes == (try ImageFixtures.data("exif-6.jpg")))
    // The same names given on a command line, relative to the current directory.
    let probe = try ImageProbe.run([name], in: scratch.url)
    #expect(probe.lines == ["ok 24x16 jpeg orientation 6"])
    #expect(
      !FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("pwned").path))
  }

  @Test func originalBytesAreKeptUnchanged() throws {
    let scratch = try ScratchDirectory()
    defer { scratch.remove() }
    try scratch.copy("exif-8.jpg", to: Array("photo.jpg".utf8))
    let path = scratch.url.appendingPathComponent("photo.jpg").path
    let (picture, warnings) = try ImageFile.sourcePicture(path: path)
    let original = try ImageFixtures.data("exif-8.jpg")
    #expect(warnings.isEmpty)
    #expect(try picture.originalBytes == original)
    #expect(picture.sha256 == Checksum.sha256(original))
    #expect(try picture.image.size == PixelSize(width: 24, height: 16))
    #expect(try picture.proxy.size == PixelSize(width: 24, height: 16))
    #expect(picture.format == .jpeg)
    // The file on disk is untouched too.
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == original)
  }

  @Test func directoryIsADirectory() throws {
    let scratch = try ScratchDirectory()
    defer { scratch.remove() }
    let error = #expect(throws: MediaError.self) { try ImageFile.load(path: scratch.url.path) }
    #expect(error?.message == "cannot load '\(scratch.url.path)': is a directory")
  }

  @Test func missingFileSaysNoSuchFile() {
    let error = #expect(throws: MediaError.self) { try ImageFile.load(path: "/nonexistent/x.png") }
    #expect(error?.message == "cannot load '/nonexistent/x.png': no such file")
  }

  @Test func nulInAPathIsRefused() throws {
    let scratch = try ScratchDirectory()
    defer { scratch.remove() }
    try scratch.copy("baseline.jpg", to: Array("a.jpg".utf8))
    // Without the check the C string would end at the NUL and load a.jpg.
    let path = scratch.url.appendingPathComponent("a.jpg").path + "\0.png"
    let error = #expect(throws: MediaError.self) { try ImageFile.load(path: path) }
    #expect(error?.message.hasSuffix("the file name contains a NUL byte") == true)
    #expect(error?.message.contains("\0") == false)
  }

  @Test(arguments: ["/dev/zero", "/dev/null", "/dev/urandom"])
  func devicesAreNotRead(_ path: String) {
    let error = #expect(throws: MediaError.self) { try ImageFile.load(path: path) }
    #expect(error?.message == "cannot load '\(path)': not a regular file")
  }

  @Test func fifoIsRefusedWithoutWaitingForAWriter() throws {
    let scratch = try ScratchDirectory()
    defer { scratch.remove() }
    let path = scratch.url.appendingPathComponent("pipe").path
    #expect(mkfifo(path, 0o600) == 0)
    let error = #expect(throws: MediaError.self) { try ImageFile.load(path: path) }
    #expect(error?.message == "cannot load '\(path)': not a regular file")
  }

  /// A name typed with bytes that are not UTF-8 arrives with U+FFFD in it: the error says why
  /// no file has that name.
  @Test func aNamePastedWithAReplacementCharacterSaysHowToTypeTheByte() throws {
    let error = #expect(throws: MediaError.self) {
      try ImageFile.load(path: "/nonexistent/bad\u{FFFD}name.png")
    }
    #expect(
      error?.message
        == "cannot load '/nonexistent/bad\u{FFFD}name.png': no such file (a byte that is not "
        + "UTF-8 is typed as \\xE9, as Tab completes it)")
  }

  @Test func controlCharactersInNamesAreEscaped() throws {
    let error = #expect(throws: MediaError.self) {
      try ImageFile.load(path: "/nonexistent/\u{1B}[31mred\u{7}.png")
    }
    let message = error?.message ?? ""
    #expect(!message.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
    #expect(message == #"cannot load '/nonexistent/\e[31mred\a.png': no such file"#)
  }

  /// Every broken and hostile fixture through a separate process: one line each, and libpng
  /// and libjpeg never write to stderr themselves.
  @Test func librariesNeverWriteToStderr() throws {
    let broken = try FileManager.default.contentsOfDirectory(atPath: ImageFixtures.pngSuite.path)
      .filter { $0.hasPrefix("x") || $0.hasPrefix("cs") || $0.hasPrefix("ct") }
      .map { ImageFixtures.pngSuite.appendingPathComponent($0).path }.sorted()
    let hostile = [
      "truncated.jpg", "bomb-3000-scans.jpg", "bomb-2112-scans.jpg", "bomb-100000x100000.png",
      "bomb-itxt.png",
      "bomb-ztxt.png", "exif-bad-offset.jpg", "cmyk-plain.jpg", "bomb-webp-header.webp",
      "bomb-gif-frame.gif", "webp-alpha.webp", "webp-animated.webp", "gif-local-palette.gif",
    ].map { ImageFixtures.images.appendingPathComponent($0).path }
    let probe = try ImageProbe.run(broken + hostile, in: ImageFixtures.root)
    #expect(probe.standardError == "")
    let results = probe.lines.filter { !$0.hasPrefix("warning: ") }
    #expect(results.count == broken.count + hostile.count)
    #expect(results.filter { $0.hasPrefix("error: cannot load '") }.count == 14 + 3 + 2)
  }
}
