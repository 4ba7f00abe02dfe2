import Foundation
import Testing

/// memesh reads the user's libedit settings like libedit's own programs: `bind -v` in
/// `$EDITRC` gives vi keys, and memesh's own keys still work.
@Suite(.serialized) struct EditrcTests {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
    "memesh-editrc-\(UUID().uuidString)")

  func start(editrc: String) throws -> LineEditorTerminal {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let file = folder.appendingPathComponent("editrc")
    try Data(editrc.utf8).write(to: file)
    let binary = try #require(EndToEndTests.binary(), "the memesh binary is not built")
    let transcripts = EndToEndTests.packageRoot.appendingPathComponent("transcripts").path
    let command =
      "cd \(LineEditorTerminal.shellQuote(transcripts)) && exec env LANG=C.UTF-8 "
      + "TERM=xterm-256color MEMESH_HOME=\(LineEditorTerminal.shellQuote(folder.path + "/home")) "
      + "MEMESH_PREVIEW=none MEMESH_CAMERA=/nonexistent "
      + "EDITRC=\(LineEditorTerminal.shellQuote(file.path)) "
      + LineEditorTerminal.shellQuote(binary.path)
    return try LineEditorTerminal(command: command, width: 80, height: 24) {
      $0.contains("memesh:edit>")
    }
  }

  @Test func bindDashVGivesViKeysAndTabStillCompletes() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let terminal = try start(editrc: "memesh:bind -v\n")
    try terminal.type("bottom abc")
    try terminal.press("Escape")
    // vi's command mode: 0 goes to the start of the line, x deletes the 'b'.
    try terminal.type("0")
    try terminal.type("x")
    try terminal.press("Enter")
    try terminal.waitFor("unknown command 'ottom'; did you mean 'bottom'?")
    try terminal.type("hel")
    try terminal.press("Tab")
    try terminal.waitFor { $0.contains("memesh:edit> help") }
  }

  @Test func linesForOtherProgramsAreLeftToThem() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
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
