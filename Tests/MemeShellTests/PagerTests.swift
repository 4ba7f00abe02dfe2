import Foundation
import Testing

@testable import MemeShell

/// Long output a screenful at a time in a real terminal (tmux): `help` through less, a big
/// `browse grid` with a `--More--` pause between screenfuls.
@Suite(.serialized) struct PagerTests {
  let terminalTests = MemeshTerminalTests()

  @Test func longHelpGoesThroughTheDefaultPager() throws {
    defer { try? FileManager.default.removeItem(at: terminalTests.home) }
    let terminal = try terminalTests.start(width: 80, height: 24)
    try terminal.type("help")
    try terminal.press("Enter")
    // less -FRX waits at its ':' prompt with the first screenful shown.
    try terminal.waitFor { $0.split(separator: "\n").last == ":" }
    var screen = try terminal.screen()
    #expect(screen.contains { $0.hasPrefix("memesh ") && $0.contains("a meme studio") })
    try terminal.press("q")
    try terminal.waitFor { $0.split(separator: "\n").last == "memesh:edit>" }
    screen = try terminal.screen()
    // -X: what was read stays on screen after quitting.
    #expect(screen.contains { $0.contains("a meme studio") }, "\(screen.joined(separator: "\n"))")
  }

  @Test func anEmptyPagerMeansNone() throws {
    defer { try? FileManager.default.removeItem(at: terminalTests.home) }
    let terminal = try terminalTests.start(width: 80, height: 24, environment: "PAGER=")
    let screen = try terminalTests.run("help", in: terminal, before: "memesh:edit>")
    // Written whole: the end of the help is on screen, then the prompt; no pager's ':' line.
    #expect(
      screen.last { !$0.isEmpty } == "memesh:edit>", "\(screen.joined(separator: "\n"))")
    #expect(screen.contains { $0.hasSuffix("'quit').") })
    #expect(!screen.contains(":"))
  }

  @Test func aBigGridStopsAfterEachScreenful() throws {
    defer { try? FileManager.default.removeItem(at: terminalTests.home) }
    let shares = (1...10).map { "load images/square.png\ntop meme \($0)\nshare" }
    let result = try EndToEndTests().run(
      [], input: shares.joined(separator: "\n"), home: terminalTests.home)
    #expect(result.status == 0, "\(result.errors)")
    // 80 columns hold 3 tiles a row; a row is 12 lines: one row fills half of 24 lines.
    let terminal = try terminalTests.start(width: 80, height: 24)
    func labels(_ screen: [String]) -> [[Substring]] {
      screen.map { $0.split(separator: " ") }.filter { !$0.isEmpty && $0.allSatisfy { Int($0) != nil } }
    }
    try terminal.type("clear")
    try terminal.press("Enter")
    try terminal.waitFor { $0.split(separator: "\n") == ["memesh:sent>"] }
    try terminal.type("browse grid")
    try terminal.press("Enter")
    try terminal.waitFor { $0.contains("--More--") }
    var screen = try terminal.screen()
    #expect(labels(screen) == [["1", "2", "3"]], "\(screen.joined(separator: "\n"))")
    try terminal.press("Space")
    try terminal.waitFor { $0.contains("--More--") && $0.contains(" 6\n") }
    screen = try terminal.screen()
    #expect(labels(screen) == [["1", "2", "3"], ["4", "5", "6"]])
    try terminal.press("q")
    try terminal.waitFor { $0.split(separator: "\n").last == "memesh:sent>" }
    screen = try terminal.screen()
    // Stopped: the prompt is back, the --More-- line erased, the last rows never drawn.
    #expect(!screen.contains { $0.contains("--More--") })
    #expect(!labels(screen).joined().contains("10"))
  }
}
