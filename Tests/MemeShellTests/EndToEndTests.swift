import Foundation
import Testing

/// Runs the built `memesh` binary with piped input, as a script or CI would.
@Suite struct EndToEndTests {
  static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  static func binary() -> URL? {
    let folders = [
      URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
      Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent(),
      packageRoot.appendingPathComponent(".build/debug"),
    ]
    return folders.map { $0.appendingPathComponent("memesh") }
      .first { FileManager.default.isExecutableFile(atPath: $0.path) }
  }

  struct Result {
    var status: Int32
    /// Standard output's bytes (empty when it went to a file handle given to `run`).
    var outputData: Data
    var errors: String
    var output: String { String(decoding: outputData, as: UTF8.self) }
  }

  func run(_ arguments: [String], input: String, home: URL) throws -> Result {
    try Self.run(arguments, input: Data(input.utf8), home: home)
  }

  /// Runs memesh with `input` on a pipe as standard input, and standard output on a pipe (or
  /// `stdout` when given: a file, /dev/full…), from the transcripts folder.
  static func run(
    _ arguments: [String], input: Data, home: URL, stdout: FileHandle? = nil,
    environment extra: [String: String] = [:]
  ) throws -> Result {
    let binary = try #require(Self.binary(), "the memesh binary is not built")
    let process = Process()
    process.executableURL = binary
    process.arguments = arguments
    process.currentDirectoryURL = Self.packageRoot.appendingPathComponent("transcripts")
    var environment = ProcessInfo.processInfo.environment
    environment["MEMESH_HOME"] = home.path
    environment["MEMESH_CAMERA"] = "/nonexistent"
    environment["NO_COLOR"] = "1"
    environment.merge(extra) { _, new in new }
    process.environment = environment
    let stdin = Pipe()
    let outputPipe = Pipe()
    let stderr = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout ?? outputPipe
    process.standardError = stderr
    try process.run()
    // Written and read on threads of their own: a full pipe must not stall the other.
    let writer = Thread {
      try? stdin.fileHandleForWriting.write(contentsOf: input)
      try? stdin.fileHandleForWriting.close()
    }
    writer.start()
    let errorsRead = Pipe.Collected(stderr.fileHandleForReading)
    let output = stdout == nil ? (try outputPipe.fileHandleForReading.readToEnd() ?? Data()) : Data()
    let errors = errorsRead.wait()
    process.waitUntilExit()
    return Result(
      status: process.terminationStatus, outputData: output,
      errors: String(decoding: errors, as: UTF8.self))
  }

  func scratchHome() -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("memesh-e2e-\(UUID().uuidString)")
  }

  @Test func pipedSessionSharesAMemeAndListsIt() throws {
    let home = scratchHome()
    defer { try? FileManager.default.removeItem(at: home) }
    let result = try run(
      [],
      input: "\u{FEFF}load images/cat.png\r\ncaption hello | world\nshare\nbrowse --tsv\nquit\n",
      home: home)
    #expect(result.status == 0)
    #expect(result.errors == "")
    let lines = result.output.split(separator: "\n").map(String.init)
    #expect(lines.first == "cat.png: 160×120 PNG")
    #expect(lines.contains("saved meme 1"))
    let row = try #require(lines.last).split(separator: "\t").map(String.init)
    #expect(row.count == 8)
    #expect(Array(row.prefix(6)) == ["1", "hello", "world", "Anton", "160", "120"])
    #expect(FileManager.default.fileExists(atPath: row[7]))
    // No prompt, no banner, no escape codes on a pipe.
    #expect(!result.output.contains("memesh:"))
    #expect(!result.output.contains("\u{1B}"))
  }

  @Test func aSplicedShareWritesTheSameMemeToTheFileAndTheStore() throws {
    let home = scratchHome()
    defer { try? FileManager.default.removeItem(at: home) }
    let out = home.appendingPathComponent("out.jpg")
    let result = try run(
      [],
      input: "load images/photo.jpg\ncaption spliced | twice\nshare file \(out.path) --format jpeg\n"
        + "load images/photo.jpg\ncaption second | share\nshare\nbrowse --tsv\n",
      home: home)
    #expect(result.errors == "")
    #expect(result.status == 0)
    let lines = result.output.split(separator: "\n").map(String.init)
    #expect(lines.contains("saved meme 1") && lines.contains("saved meme 2"))
    #expect(lines.contains("wrote \(out.path)"))
    let rows = lines.suffix(2).map { $0.split(separator: "\t").map(String.init) }
    #expect(rows.map { Array($0.prefix(3)) } == [["1", "spliced", "twice"], ["2", "second", "share"]])
    // The store's meme is the file the share wrote, whole, beside its PNG thumbnail.
    let stored = try Data(contentsOf: URL(fileURLWithPath: try #require(rows.first?.last)))
    #expect(try Data(contentsOf: out) == stored)
    #expect(Array(stored.prefix(2)) == [0xFF, 0xD8] && Array(stored.suffix(2)) == [0xFF, 0xD9])
    let folder = home.appendingPathComponent("memes/1")
    let thumbnail = try Data(contentsOf: folder.appendingPathComponent("thumb.png"))
    #expect(Array(thumbnail.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
    #expect(
      try Set(FileManager.default.contentsOfDirectory(atPath: folder.path))
        == ["meme.jpg", "thumb.png", "original.jpg", "record.plist"])
  }

  @Test func aFailedCommandStopsAScriptWithStatusOneUnlessKeepGoing() throws {
    let home = scratchHome()
    defer { try? FileManager.default.removeItem(at: home) }
    let stopped = try run([], input: "captoin a | b\ninfo\n", home: home)
    #expect(stopped.status == 1)
    #expect(stopped.errors == "error: unknown command 'captoin'; did you mean 'caption'?\n")
    #expect(stopped.output == "")
    let goingOn = try run(["--keep-going"], input: "captoin a | b\ninfo\n", home: home)
    #expect(goingOn.status == 1)
    #expect(goingOn.output.hasPrefix("image:\n"))
    let quit = try run(["--keep-going"], input: "captoin a | b\nquit\n", home: home)
    #expect(quit.status == 0)
  }

  @Test func commandOptionRunsCommandsAndRestoresTheDraftNextTime() throws {
    let home = scratchHome()
    defer { try? FileManager.default.removeItem(at: home) }
    let first = try run(
      ["-c", "load images/cat.png; top 'saved; for later'"], input: "", home: home)
    #expect(first.status == 0)
    let second = try run(["-c", "info"], input: "", home: home)
    #expect(second.status == 0)
    // Restored silently: a script sees only what its commands print.
    #expect(second.errors == "")
    #expect(second.output.contains("top: saved; for later\n"))
  }

  @Test func hostileBytesNeverReachTheOutputRaw() throws {
    let home = scratchHome()
    defer { try? FileManager.default.removeItem(at: home) }
    let input =
      "top \u{1B}[2J\u{07}\u{202E}x\nbottom nul\u{00}byte\nload images/\u{1B}]0;t\u{07}.png\ninfo\n"
      + "load images/cat.png\nshare\nbrowse\nbrowse --tsv\nshow 1\nedit 1\nhistory\nquit\n"
    let result = try run(["--keep-going"], input: input, home: home)
    #expect(result.status == 0)
    #expect(!result.output.contains("\u{1B}") && !result.errors.contains("\u{1B}"))
    #expect(!result.output.contains("\u{202E}"))
    #expect(result.output.contains("top: \\e[2J\\a\\u{202E}x\n"))
    #expect(result.output.contains("bottom: nul\\x00byte\n"))
    // The caption went into the store and came back out through the table, TSV, detail and
    // history, escaped each time.
    #expect(result.output.contains("saved meme 1\n"))
    #expect(result.output.contains("1\t\\e[2J\\a\\u{202E}x\tnul\\x00byte\t"))
    #expect(!result.output.contains("\u{00}") && !result.output.contains("\u{07}"))
  }
}

extension EndToEndTests {
  /// The sanitizer settings of `make test-sanitize` (suppressions included), passed on to a
  /// memesh started with an environment of its own; empty in an ordinary run.
  static var sanitizerOptions: [String: String] {
    ProcessInfo.processInfo.environment.filter {
      ["ASAN_OPTIONS", "LSAN_OPTIONS", "UBSAN_OPTIONS"].contains($0.key)
    }
  }

  @Test func aClosedPipeEndsMemeshQuietlyWithStatusOne() throws {
    let binary = try #require(Self.binary(), "the memesh binary is not built")
    let home = scratchHome()
    defer { try? FileManager.default.removeItem(at: home) }
    let process = Process()
    process.executableURL = binary
    process.arguments = ["-c", Array(repeating: "help", count: 200).joined(separator: ";")]
    process.environment = Self.sanitizerOptions.merging([
      "MEMESH_HOME": home.path, "PATH": "/usr/bin:/bin",
    ]) { $1 }
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardOutput = stdout
    process.standardError = stderr
    // Nobody reads stdout: close the read end before memesh writes.
    try stdout.fileHandleForReading.close()
    try process.run()
    let errors = try stderr.fileHandleForReading.readToEnd() ?? Data()
    process.waitUntilExit()
    #expect(process.terminationReason == .exit)
    #expect(process.terminationStatus == 1)
    #expect(errors.isEmpty)
  }
}

extension EndToEndTests {
  /// Writes an executable shell script named `name` into `folder`.
  func fakeTool(_ name: String, in folder: URL, script: String) throws {
    let url = folder.appendingPathComponent(name)
    try Data(("#!/bin/sh\n" + script + "\n").utf8).write(to: url)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
  }

  @Test func shareHandsTheSavedMemeToTheClipboardAndTheOpener() throws {
    let binary = try #require(Self.binary(), "the memesh binary is not built")
    let home = scratchHome()
    let tools = home.appendingPathComponent("tools")
    try FileManager.default.createDirectory(at: tools, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: home) }
    let copied = home.appendingPathComponent("clipboard.bin")
    let opened = home.appendingPathComponent("opened.txt")
    try fakeTool(
      "wl-copy", in: tools, script: "echo \"$@\" > '\(copied.path).args'; cat > '\(copied.path)'")
    try fakeTool("xdg-open", in: tools, script: "echo \"$1\" > '\(opened.path)'")

    let process = Process()
    process.executableURL = binary
    process.arguments = [
      "-c",
      "load images/cat.png; top clip; share clipboard; load images/square.png; share open --format jpeg",
    ]
    process.currentDirectoryURL = Self.packageRoot.appendingPathComponent("transcripts")
    process.environment = Self.sanitizerOptions.merging([
      "MEMESH_HOME": home.path, "PATH": tools.path + ":/usr/bin:/bin",
      "WAYLAND_DISPLAY": "wayland-0",
    ]) { $1 }
    let stdout = Pipe()
    process.standardOutput = stdout
    process.standardError = FileHandle.nullDevice
    try process.run()
    let output = String(
      decoding: try stdout.fileHandleForReading.readToEnd() ?? Data(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    #expect(output.contains("copied meme 1 to the clipboard\n"))
    #expect(output.contains("opened meme 2\n"))
    let clipboard = try Data(contentsOf: copied)
    #expect(clipboard.starts(with: [0x89, 0x50, 0x4E, 0x47]))  // a PNG
    let arguments = try String(
      contentsOf: URL(fileURLWithPath: copied.path + ".args"), encoding: .utf8)
    #expect(arguments == "--type image/png\n")
    let openedPath = try String(contentsOf: opened, encoding: .utf8)
    #expect(openedPath.hasSuffix("/memes/2/meme.jpg\n"))
  }
}

extension EndToEndTests {
  @Test func cameraCapturesWithTheToolItFindsAndLoadsTheStill() throws {
    let binary = try #require(Self.binary(), "the memesh binary is not built")
    let home = scratchHome()
    let tools = home.appendingPathComponent("tools")
    try FileManager.default.createDirectory(at: tools, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: home) }
    let device = home.appendingPathComponent("video0")
    FileManager.default.createFile(atPath: device.path, contents: Data())
    let still = Self.packageRoot.appendingPathComponent("transcripts/images/square.png").path
    // A stand-in ffmpeg: the last argument is where the still goes.
    try fakeTool("ffmpeg", in: tools, script: "for last; do :; done; cp '\(still)' \"$last\"")

    let process = Process()
    process.executableURL = binary
    process.arguments = ["-c", "help camera; camera; info"]
    process.environment = Self.sanitizerOptions.merging([
      "MEMESH_HOME": home.path, "PATH": tools.path + ":/usr/bin:/bin", "MEMESH_CAMERA": device.path,
    ]) { $1 }
    let stdout = Pipe()
    process.standardOutput = stdout
    process.standardError = FileHandle.nullDevice
    try process.run()
    let output = String(
      decoding: try stdout.fileHandleForReading.readToEnd() ?? Data(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    #expect(!output.contains("unavailable"))
    #expect(output.contains("width: 64\nheight: 64\n"))
    #expect(output.contains("image: " + home.path + "/captures/camera-"))
  }
}

extension EndToEndTests {
  /// `clear` on a pipe writes nothing at all: no escape sequence lands in a log or a file.
  @Test func clearWritesNothingWhenStdoutIsNotATerminal() throws {
    let home = scratchHome()
    defer { try? FileManager.default.removeItem(at: home) }
    let result = try run(["-c", "clear; cls; help clear"], input: "", home: home)
    #expect(result.status == 0)
    #expect(result.errors == "")
    #expect(result.output.hasPrefix("usage: clear\naliases: cls\n"))
    #expect(!result.output.contains("\u{1B}"))
  }
}

extension EndToEndTests {
  /// `--check` on a passing transcript prints nothing at all: the draft saves still running in
  /// the background finish before its scratch home is removed (they warned "the draft is not
  /// saved: cannot rename into place '/tmp/memesh-transcript…'" at exit).
  @Test func checkingAPassingTranscriptPrintsNothing() throws {
    let home = scratchHome()
    defer { try? FileManager.default.removeItem(at: home) }
    // A copy: the transcripts write files (preview-out.png, shared.png) beside themselves.
    let folder = home.appendingPathComponent("transcripts")
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      at: Self.packageRoot.appendingPathComponent("transcripts"), to: folder)
    for name in ["back.t", "font.t", "preview.t", "quit.t", "recipe.t", "undo-redo.t"] {
      for _ in 0..<3 {
        let path = folder.appendingPathComponent(name).path
        let result = try run(["--check", path], input: "", home: home)
        #expect(result.status == 0, "\(name): \(result.output)")
        #expect(result.errors == "", "\(name)")
        #expect(result.output == "", "\(name)")
      }
    }
  }
}

extension Pipe {
  /// Everything read from a file handle on a thread of its own, until its end.
  final class Collected: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var data = Data()

    init(_ handle: FileHandle) {
      Thread { [self] in
        data = (try? handle.readToEnd()) ?? Data()
        done.signal()
      }.start()
    }

    func wait() -> Data {
      done.wait()
      return data
    }
  }
}
