import Testing

@testable import MemeMedia

/// What terminals answer to memesh's questions (kitty graphics query, XTVERSION, DA1), and the
/// picture mode that follows. The replies are the ones xterm and kitty sent under Xvfb.
@Suite struct TerminalPreviewQueryTests {
  static let xtermSixel = Array(
    "\u{1B}P>|XTerm(379)\u{1B}\\\u{1B}[?63;1;2;4;6;9;15;16;22;28c".utf8)
  static let xtermPlain = Array("\u{1B}P>|XTerm(379)\u{1B}\\\u{1B}[?64;1;2;6;9;15;16;17;18;21;22;28c".utf8)
  static let kitty = Array(
    "\u{1B}_Gi=31;OK\u{1B}\\\u{1B}P>|kitty(0.26.5)\u{1B}\\\u{1B}[?62;c".utf8)

  @Test func xtermStartedAsAVT340AnswersSixels() {
    let answers = TerminalAnswers.parse(Self.xtermSixel)
    #expect(answers == TerminalAnswers(sixels: true, version: "XTerm(379)", answered: true))
  }

  @Test func kittyAnswersItsGraphicsQuery() {
    let answers = TerminalAnswers.parse(Self.kitty)
    #expect(answers == TerminalAnswers(kittyGraphics: true, version: "kitty(0.26.5)", answered: true))
  }

  @Test func aRefusedGraphicsQueryIsNoKitty() {
    let reply = Array("\u{1B}_Gi=31;ENOTSUPPORTED:no\u{1B}\\\u{1B}[?62;4c".utf8)
    let answers = TerminalAnswers.parse(reply)
    #expect(!answers.kittyGraphics)
    #expect(answers.sixels)
  }

  @Test func aTerminalThatSaysNothingIsNotAnAnswer() {
    #expect(!TerminalAnswers.parse([]).answered)
    // The first DA1 attribute is the terminal class, never a capability: 4 there is no sixel.
    #expect(!TerminalAnswers.parse(Array("\u{1B}[?4;6c".utf8)).sixels)
  }

  @Test func xtermWithSixelsDrawsSixelsNotSixteenColorBlocks() {
    let environment = ["TERM": "xterm"]
    #expect(
      TerminalCapabilities.detect(environment: environment, answers: nil)
        == TerminalCapabilities(mode: .symbols, colorDepth: .indexed16))
    #expect(TerminalCapabilities.worthAsking(environment: environment))
    #expect(
      TerminalCapabilities.detect(
        environment: environment, answers: TerminalAnswers.parse(Self.xtermSixel))
        == TerminalCapabilities(mode: .sixel, colorDepth: .indexed256))
    // Without sixels xterm still shows 256 colors in symbol pictures.
    #expect(
      TerminalCapabilities.detect(
        environment: environment, answers: TerminalAnswers.parse(Self.xtermPlain))
        == TerminalCapabilities(mode: .symbols, colorDepth: .indexed256))
  }

  @Test func kittyFoundByAskingWhenNoVariableSaysSo() {
    // kitty over ssh, where TERM was reset and KITTY_WINDOW_ID is not passed.
    let detected = TerminalCapabilities.detect(
      environment: ["TERM": "xterm-256color"], answers: TerminalAnswers.parse(Self.kitty))
    #expect(detected == TerminalCapabilities(mode: .kitty, colorDepth: .truecolor))
  }

  @Test(arguments: [
    ["TERM": "xterm-kitty"], ["TERM": "screen-256color", "TMUX": "/tmp/tmux"],
    ["TERM": "xterm", "MEMESH_PREVIEW": "symbols"], ["TERM": "dumb"], [:],
  ])
  func notAskedWhenTheEnvironmentAlreadyDecides(environment: [String: String]) {
    #expect(!TerminalCapabilities.worthAsking(environment: environment))
  }

  @Test func insideTmuxTheAnswersOfTmuxAreNotTrusted() {
    let detected = TerminalCapabilities.detect(
      environment: ["TERM": "screen", "TMUX": "/tmp/tmux-0/default"],
      answers: TerminalAnswers.parse(Self.xtermSixel))
    #expect(detected.mode == .symbols)
  }
}
