import Foundation
import Testing

/// `-` as a file name: a picture on standard output with every message on stderr, a picture or
/// a script from standard input, each refused with one line where the stream is taken.
@Suite struct StandardStreamTests {
  let home = FileManager.default.temporaryDirectory
    .appendingPathComponent("memesh-streams-\(UUID().uuidString)")
  static let pngSignature = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])

  func memesh(_ commands: String, input: Data = Data()) throws -> EndToEndTests.Result {
    try EndToEndTests.run(["-c", commands], input: input, home: home)
  }

  @Test func shareFileDashWritesOnlyThePictureToStandardOutput() throws {
    defer { try? FileManager.default.removeItem(at: home) }
    let result = try memesh("load images/cat.png; top to stdout; share file -")
    #expect(result.status == 0)
    #expect(result.outputData.starts(with: Self.pngSignature))
    // The whole file and nothing after it: it ends with the IEND chunk.
    #expect(result.outputData.suffix(8) == Data([0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]))
    #expect(result.errors == "cat.png: 160×120 PNG\nsaved meme 1\nwrote the meme to standard output\n")
    // The same bytes the store kept.
    let stored = try Data(contentsOf: home.appendingPathComponent("memes/1/meme.png"))
    #expect(stored == result.outputData)
  }

  @Test func exportAndPreviewWriteToStandardOutputToo() throws {
    defer { try? FileManager.default.removeItem(at: home) }
    _ = try memesh("load images/cat.png; top exported; share")
    let exported = try memesh("export 1 -")
    #expect(exported.status == 0)
    #expect(exported.outputData.starts(with: Self.pngSignature))
    #expect(exported.errors == "wrote meme 1 to standard output\n")
    let preview = try memesh("load images/cat.png; preview --out -")
    #expect(preview.outputData.starts(with: Self.pngSignature))
    #expect(preview.errors.hasSuffix("wrote the preview to standard output (160×120)\n"))
  }

  @Test func loadDashReadsThePictureFromStandardInput() throws {
    defer { try? FileManager.default.removeItem(at: home) }
    let picture = try Data(
      contentsOf: EndToEndTests.packageRoot.appendingPathComponent("transcripts/images/cat.png"))
    let result = try memesh("load -; info", input: picture)
    #expect(result.status == 0)
    #expect(result.output.hasPrefix("standard input: 160×120 PNG\nimage: standard input\n"))
    let twice = try memesh("load -; load -", input: picture)
    #expect(twice.status == 1)
    #expect(twice.errors == "error: load: cannot read standard input: it was already read by an earlier command\n")
    let empty = try memesh("load -")
    #expect(empty.errors == "error: load: cannot read standard input: it is empty\n")
  }

  @Test func sourceDashRunsCommandsFromStandardInput() throws {
    defer { try? FileManager.default.removeItem(at: home) }
    let result = try memesh("source -", input: Data("load images/cat.png\ntop from a pipe\ninfo\n".utf8))
    #expect(result.status == 0)
    #expect(result.output.contains("top: from a pipe\n"))
  }

  @Test func aPipedScriptCannotPutAPictureAfterItsText() throws {
    defer { try? FileManager.default.removeItem(at: home) }
    let result = try EndToEndTests.run(
      [], input: Data("load images/cat.png\nshare file -\n".utf8), home: home)
    #expect(result.status == 1)
    #expect(result.output == "cat.png: 160×120 PNG\n")
    #expect(result.errors.hasPrefix("error: share: cannot write the picture to standard output: it already carries text"))
    let script = try EndToEndTests.run([], input: Data("load -\n".utf8), home: home)
    #expect(script.errors == "error: load: cannot read standard input: it carries the commands\n")
  }
}

/// A symlink where a picture would be written is a file already there: without --force it is
/// refused, and neither the link nor what it points at changes.
@Suite struct OverwriteSymlinkTests {
  @Test func aSymlinkIsNotReplacedWithoutForce() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("memesh-link-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let target = folder.appendingPathComponent("theirs.png")
    try Data("not memesh's".utf8).write(to: target)
    let link = folder.appendingPathComponent("link.png")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
    let result = try EndToEndTests.run(
      ["-c", "load images/cat.png; share file '\(link.path)'"], input: Data(),
      home: folder.appendingPathComponent("home"))
    #expect(result.status == 1)
    #expect(result.errors.hasSuffix("already exists (add --force to replace it)\n"))
    #expect(
      try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == target.path)
    #expect(try Data(contentsOf: target) == Data("not memesh's".utf8))
  }
}
