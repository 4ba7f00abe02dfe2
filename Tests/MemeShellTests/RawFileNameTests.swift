import Foundation
import MemeSystem
import Testing

@testable import MemeShell

/// File names that are not UTF-8 (an old Latin-1 archive's `caf\xE9.png`): typed with `\xE9`,
/// offered by Tab in that form, loaded, shared to and shown escaped in messages.
@Suite struct RawFileNameTests {
  static let latin1Name: [UInt8] = Array("caf".utf8) + [0xE9] + Array(".png".utf8)

  @Test func namesRoundTripThroughStrings() {
    let names: [[UInt8]] = [
      Self.latin1Name, [0xFF, 0xFE], Array("plain.png".utf8), Array("é".utf8), [0xC3],
      [0xED, 0xA0, 0x80],  // a UTF-16 surrogate in UTF-8 form: not valid UTF-8
      [0xF4, 0x8F, 0xBC, 0x80],  // valid UTF-8 for U+10FF00, the stand-in for byte 0
    ]
    for bytes in names {
      #expect(FileSystemName.bytes(FileSystemName.string(bytes)) == bytes)
    }
    #expect(FileSystemName.string(Array("é".utf8)) == "é")
  }

  @Test func theTokenizerTakesBytesAsBackslashX() throws {
    let words = try CommandTokenizer.tokenize(#"load caf\xE9.png "d\xc3\xa9j\xe0" 'no\xE9'"#)
    #expect(FileSystemName.bytes(words[1].text) == Self.latin1Name)
    #expect(words[2].text == "déj" + String(String.UnicodeScalarView([FileSystemName.scalar(forRawByte: 0xE0)])))
    #expect(words[3].text == #"no\xE9"#)
    // Quoting for completion gives the same word back.
    let quoted = CommandTokenizer.quoted(words[1].text)
    #expect(quoted == #"caf\xE9.png"#)
    #expect(try CommandTokenizer.tokenize(quoted).map(\.text) == [words[1].text])
  }

  @Test func aLatin1NameLoadsSharesAndCompletes() throws {
    let scratch = FileManager.default.temporaryDirectory
      .appendingPathComponent("memesh-raw-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let picture = try Data(
      contentsOf: EndToEndTests.packageRoot.appendingPathComponent("transcripts/images/square.png"))
    let path = Array(scratch.path.utf8) + [UInt8(ascii: "/")] + Self.latin1Name
    let descriptor = open(path.map { CChar(bitPattern: $0) } + [0], O_CREAT | O_WRONLY, 0o644)
    #expect(descriptor >= 0)
    _ = picture.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    close(descriptor)

    let capture = Console.Capture()
    let shell = Shell(
      home: scratch.appendingPathComponent("home"), console: Console(capture: capture),
      settings: Shell.Settings(), environment: ["MEMESH_CAMERA": "/nonexistent"])
    let completed = shell.complete("load " + scratch.path + "/caf").candidates
    #expect(completed.map(\.insertion) == [scratch.path + #"/caf\xE9.png"#])
    #expect(completed.first?.display == #"caf\xE9.png"#)

    #expect(shell.run(line: "load " + scratch.path + #"/caf\xE9.png"#))
    #expect(shell.run(line: "share file " + scratch.path + #"/meme-caf\xE9.png"#))
    let lines = capture.drain().map(\.text)
    #expect(lines.first == #"caf\xE9.png: 64×64 PNG"#)
    #expect(lines.last == "wrote " + scratch.path + #"/meme-caf\xE9.png"#)
    let written = Array(scratch.path.utf8) + Array("/meme-".utf8) + Self.latin1Name
    var status = stat()
    #expect(stat(written.map { CChar(bitPattern: $0) } + [0], &status) == 0)
  }
}
