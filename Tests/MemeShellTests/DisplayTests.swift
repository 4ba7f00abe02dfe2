import Testing

@testable import MemeShell

@Suite struct DisplayTests {
  @Test(arguments: [
    ("plain text", "plain text"),
    ("\u{1B}[31mred", "\\e[31mred"),
    ("bell\u{07}", "bell\\a"),
    ("nul\u{00}byte", "nul\\x00byte"),
    ("tab\there", "tab\\there"),
    ("line\nbreak", "line\\nbreak"),
    ("\u{202E}override", "\\u{202E}override"),
    ("c1\u{9B}31m", "c1\\u{9B}31m"),
    ("emoji 👍🏽 and é", "emoji 👍🏽 and é"),
  ])
  func escapesWhatCouldControlTheTerminal(raw: String, shown: String) {
    #expect(Display.escaped(raw) == shown)
  }

  @Test func capturedConsoleLinesNeverHoldControlCharacters() {
    let capture = Console.Capture()
    let console = Console(capture: capture)
    console.line("caption \u{1B}]0;title\u{07}")
    console.error("cannot load 'x\u{1B}[2J'\nsecond line")
    let lines = capture.drain().map(\.text)
    #expect(lines == ["caption \\e]0;title\\a", "error: cannot load 'x\\e[2J'\\nsecond line"])
  }
}

extension DisplayTests {
  @Test(arguments: [
    ("plain", 5), ("日本語", 6), ("👍🏽", 2), ("e\u{301}", 1), ("한국", 4), ("\\e[31m", 6),
  ])
  func columnsCountWideCharactersTwice(text: String, columns: Int) {
    #expect(Display.columns(text) == columns)
  }
}
