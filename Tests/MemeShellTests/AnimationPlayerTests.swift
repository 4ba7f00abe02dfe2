import Foundation
import Testing

@testable import MemeShell

/// Playing an animation in the terminal: frames replace each other without the picture going
/// blank, a key stops it, and the prompt comes back clean.
@Suite struct AnimationPlayerTests {
  @Test func aKittyFrameIsOnTheScreenBeforeTheLastOneIsDeleted() throws {
    let frame = "\u{1B}_Ga=T,f=100,q=2,c=10,r=5,m=1;AAAA\u{1B}\\\u{1B}_Gm=0;BBBB\u{1B}\\"
    let text = AnimationPlayer.kittyFrame(frame, id: 11, replacing: 10)
    let sent = try #require(text.range(of: "\u{1B}_Ga=T,i=11,f=100"))
    let deleted = try #require(text.range(of: "\u{1B}_Ga=d,d=I,i=10,q=2\u{1B}\\"))
    #expect(sent.upperBound <= deleted.lowerBound)
    // The chunks that follow keep their own headers.
    #expect(text.contains("\u{1B}_Gm=0;BBBB"))
  }

  @Test func eachPlayTakesImageIDsNoEarlierPlayUsed() {
    let first = AnimationPlayer.kittyIDs()
    let second = AnimationPlayer.kittyIDs()
    #expect(Set(first).count == 2)
    #expect(Set(first).isDisjoint(with: second))
  }
}

extension MemeshTerminalTests {
  @Test func aKeyStopsPlayingAndThePromptComesBackClean() throws {
    defer { try? FileManager.default.removeItem(at: home) }
    let terminal = try start(width: 80, height: 24)
    try terminal.type("load images/pan.gif")
    try terminal.press("Enter")
    try terminal.waitForPrompt("memesh:edit pan.gif>")
    try terminal.type("caption moving | picture")
    try terminal.press("Enter")
    try terminal.type("preview")
    try terminal.press("Enter")
    try terminal.waitFor("any key stops")
    // Long enough to loop (one play is 1.27 s).
    Thread.sleep(forTimeInterval: 1.5)
    try terminal.type("q")
    try terminal.waitFor { $0.split(separator: "\n").last == "memesh:edit pan.gif>" }
    // The key was taken by the player, not left on the line, and the line reads and echoes.
    try terminal.type("info")
    try terminal.press("Enter")
    try terminal.waitFor {
      $0.contains("frames: 8") && $0.split(separator: "\n").last == "memesh:edit pan.gif>"
    }
    let screen = try terminal.screen().filter { !$0.isEmpty }
    #expect(screen.last == "memesh:edit pan.gif>", "\(screen.joined(separator: "\n"))")
    #expect(screen.contains("memesh:edit pan.gif> info"), "\(screen.joined(separator: "\n"))")
  }
}
