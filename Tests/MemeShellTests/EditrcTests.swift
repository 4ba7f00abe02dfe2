import Foundation
import Testing

/// memesh reads the user's libedit settings like libedit's own programs: `bind -v` in
/// `$EDITRC` gives vi keys, and memesh's own keys still work.
@Suite(.serialized) struct EditrcTests {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
    "memesh-editrc-\(UUID().uuidString)")
  let session = MemeshTerminalTests()

  /// memesh in a terminal, reading `editrc` as its `$EDITRC`.
  func start(editrc: String) throws -> LineEditorTerminal {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let file = folder.appendingPathComponent("editrc")
    try Data(editrc.utf8).write(to: file)
    return try session.start(
      width: 80, height: 24, environment: "EDITRC=\(LineEditorTerminal.shellQuote(file.path))")
  }

  @Test func bindDashVGivesViKeysAndTabStillCompletes() throws {
    defer {
      try? FileManager.default.removeItem(at: folder)
      try? FileManager.default.removeItem(at: session.home)
    }
    let terminal = try start(editrc: "memesh:bind -v\n")
    try terminal.type("bottom abc")
    try terminal.press("Escape")
    // vi's command mode: 0 goes to the start of the line, x deletes the 'b'.
    try terminal.type("0")
    try terminal.type("x")
    try terminal.press("Enter")
    try terminal.waitFor("unknown command 'ottom'; did you mean 'bottom'?")
    // Typed only once the prompt is back: keys sent while the error prints land before it.
    try terminal.waitFor { $0.split(separator: "\n").last == "memesh:edit>" }
    try terminal.type("hel")
    try terminal.press("Tab")
    try terminal.waitFor { $0.contains("memesh:edit> help") }
  }

  @Test func linesForOtherProgramsAreLeftToThem() throws {
    defer {
      try? FileManager.default.removeItem(at: folder)
      try? FileManager.default.removeItem(at: session.home)
    }
    let terminal = try start(editrc: "sftp:bind -v\n")
    try terminal.type("bottom abc")
    try terminal.press("Escape")
    try terminal.type("0")
    try terminal.type("x")
    try terminal.press("Enter")
    // Emacs keys: Esc 0 is a count of none, so the x is not typed and the line runs whole.
    try terminal.type("bottom")
    try terminal.press("Enter")
    try terminal.waitFor("bottom: abc")
  }
}
