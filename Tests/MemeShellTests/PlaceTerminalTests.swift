import Foundation
import Testing

@testable import MemeShell

/// `place N` in a real terminal (tmux): keys move, resize and turn the box while the preview is
/// redrawn, Enter keeps it as one undo step, Esc puts it back.
@Suite(.serialized) struct PlaceTerminalTests {
  /// memesh in tmux, block symbols, with a home of its own.
  let session = MemeshTerminalTests()

  /// The milliseconds the status line says the last frame took.
  static func frameTimes(_ screen: [String]) -> [Int] {
    screen.compactMap { line -> Int? in
      guard line.hasPrefix("place "), let end = line.range(of: " ms ·") else { return nil }
      let before = line[..<end.lowerBound]
      guard let dot = before.range(of: "· ", options: .backwards) else { return nil }
      return Int(before[dot.upperBound...])
    }
  }

  /// memesh in tmux with cat.png loaded, a top caption, and `place 1` showing its box.
  func placingTheTopBox() throws -> LineEditorTerminal {
    let terminal = try session.start(width: 80, height: 24)
    try terminal.type("load images/cat.png")
    try terminal.press("Enter")
    try terminal.waitForPrompt("memesh:edit cat.png>")
    try terminal.type("top place me")
    try terminal.press("Enter")
    try terminal.type("place 1")
    try terminal.press("Enter")
    try terminal.waitFor("place 1 at 3.8% 3.3% 92.5% 27.5% · ")
    return terminal
  }

  /// Moves, resizes and turns the box being placed, until the status line says it turned.
  func moveResizeAndTurn(_ terminal: LineEditorTerminal) throws {
    for key in ["Right", "Right", "Down", "S-Right", "S-Down", "r", "r", "]"] {
      try terminal.press(key)
    }
    try terminal.waitFor("turned 10°")
  }

  @Test func keysMoveResizeAndTurnTheBoxWithAQuickPreview() throws {
    defer { try? FileManager.default.removeItem(at: session.home) }
    let terminal = try placingTheTopBox()
    try moveResizeAndTurn(terminal)
    let times = Self.frameTimes(try terminal.screen())
    #expect(!times.isEmpty)
    // The preview is block symbols from the screen's picture: a frame is far under 50 ms.
    #expect(times.allSatisfy { $0 < 200 }, "\(times)")
  }

  @Test func enterKeepsTheBoxWhereTheKeysPutIt() throws {
    defer { try? FileManager.default.removeItem(at: session.home) }
    let terminal = try placingTheTopBox()
    try moveResizeAndTurn(terminal)
    try terminal.press("Enter")
    try terminal.waitForPrompt("memesh:edit cat.png>")
    let kept = try terminal.text()
    #expect(kept.contains("place: box 1 at "), "\(kept)")
    #expect(kept.contains(", turned 10°"), "\(kept)")
  }

  @Test func undoPutsAKeptBoxBackInOneStep() throws {
    defer { try? FileManager.default.removeItem(at: session.home) }
    let terminal = try placingTheTopBox()
    try moveResizeAndTurn(terminal)
    try terminal.press("Enter")
    try terminal.waitForPrompt("memesh:edit cat.png>")
    try terminal.type("undo")
    try terminal.press("Enter")
    try terminal.waitFor("undid place 1")
  }

  @Test func escapePutsTheBoxBack() throws {
    defer { try? FileManager.default.removeItem(at: session.home) }
    let terminal = try placingTheTopBox()
    // Esc puts it back: nothing to undo from it.
    try terminal.press("Left")
    try terminal.press("Escape")
    try terminal.waitFor("place: box 1 put back")
  }
}
