import Foundation
import Testing

@testable import MemeShell

/// The start-up file (`$XDG_CONFIG_HOME/memesh/memeshrc`) sets a person's defaults in a terminal,
/// reports a bad line with its number and goes on; `--no-rc` skips it; scripts never read it.
@Suite(.serialized) struct StartupFileTests {
  let config = FileManager.default.temporaryDirectory.appendingPathComponent(
    "memesh-rc-\(UUID().uuidString)")
  let session = MemeshTerminalTests()

  func writeStartupFile(_ text: String) throws {
    let folder = config.appendingPathComponent("memesh")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try Data(text.utf8).write(to: folder.appendingPathComponent("memeshrc"))
  }

  @Test func defaultsComeFromTheStartupFileInATerminal() throws {
    defer {
      try? FileManager.default.removeItem(at: config)
      try? FileManager.default.removeItem(at: session.home)
    }
    try writeStartupFile("set font Oswald\nset format webp\nset colour red\n")
    let terminal = try session.start(
      width: 100, height: 30,
      environment: "XDG_CONFIG_HOME=\(LineEditorTerminal.shellQuote(config.path))")
    try terminal.waitFor("that was line 3 of")
    try terminal.type("set")
    try terminal.press("Enter")
    try terminal.waitFor("font: Oswald — new drafts")
    try terminal.waitFor("format: WebP — share without --format")
    // The new draft is in Oswald, with nothing to undo and nothing unsaved.
    try terminal.type("info")
    try terminal.press("Enter")
    try terminal.waitFor("font: Oswald")
    try terminal.waitFor("unsaved changes: no")
  }

  @Test func noRCSkipsItAndScriptsNeverReadIt() throws {
    defer {
      try? FileManager.default.removeItem(at: config)
      try? FileManager.default.removeItem(at: session.home)
    }
    try writeStartupFile("set font Oswald\n")
    let quoted = LineEditorTerminal.shellQuote(config.path)
    let terminal = try session.start(
      width: 100, height: 30, environment: "XDG_CONFIG_HOME=\(quoted)", arguments: "--no-rc")
    try terminal.type("set")
    try terminal.press("Enter")
    try terminal.waitFor("font: Anton (default) — new drafts")
    let script = try EndToEndTests.run(
      ["-c", "set"], input: Data(), home: session.home,
      environment: ["XDG_CONFIG_HOME": config.path])
    #expect(script.output.hasPrefix("font: Anton (default) — new drafts\n"))
  }
}

/// A missing start-up file is the usual case and says nothing; one that cannot be read says why.
@Suite struct StartupFileReadingTests {
  func run(startupFile path: String) -> [String] {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent(
      "memesh-rc-home-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: home) }
    let capture = Console.Capture()
    let shell = Shell(
      home: home, console: Console(capture: capture), settings: Shell.Settings(),
      environment: [:])
    shell.runStartupFile(path)
    return capture.drain().map(\.text)
  }

  @Test func aMissingStartupFileSaysNothing() {
    #expect(run(startupFile: "/nonexistent/memeshrc").isEmpty)
  }

  @Test func aStartupFileThatIsAFolderIsReported() {
    let folder = FileManager.default.temporaryDirectory.path
    #expect(
      run(startupFile: folder).joined()
        .contains("cannot run the start-up file '\(folder)': is a directory"))
  }
}
