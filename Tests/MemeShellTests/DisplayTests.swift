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
    ("plain", 5), ("日本語", 6), ("한국", 4), ("Ａ", 2), ("\\e[31m", 6),
    // Combining marks and Hangul jamo join the letter before them.
    ("e\u{301}", 1), ("Ame\u{301}lie\u{308}", 6), ("\u{1100}\u{1161}\u{11A8}", 2),
    // Arabic letters take a column each; their vowel marks none.
    ("مرحبا", 5), ("مَرْحَبًا", 5), ("नमस्ते", 4),
    // Emoji, and emoji sequences drawn as one picture.
    ("🚀", 2), ("⚡", 2), ("👍🏽", 2), ("👨\u{200D}👩\u{200D}👧", 2), ("🇯🇵", 2), ("🇯", 1),
    ("❤", 1), ("❤\u{FE0F}", 2), ("1\u{FE0F}\u{20E3}", 2), ("🏳\u{FE0F}\u{200D}🌈", 2),
    ("a\u{AD}b", 3), ("ok 👍🏽 日本", 10),
  ])
  func columnsCountWhatTheTerminalDraws(text: String, columns: Int) {
    #expect(Display.columns(text) == columns)
  }

  @Test(arguments: [
    ("short", 10, "short"),
    ("exactly10!", 10, "exactly10!"),
    ("one too long", 11, "one too lo…"),
    ("日本語のキャプション", 8, "日本語…"),
    ("日本語のキャプション", 9, "日本語の…"),
    ("👨\u{200D}👩\u{200D}👧👨\u{200D}👩\u{200D}👧x", 4, "👨\u{200D}👩\u{200D}👧…"),
    ("🇯🇵🇫🇷🇩🇪", 5, "🇯🇵🇫🇷…"),
    ("e\u{301}e\u{301}e\u{301}", 2, "e\u{301}…"),
    ("ab\u{1B}[2J", 5, "ab\\e…"),
    ("مَرْحَبًا بالعالم", 6, "مَرْحَبًا…"),
  ])
  func cellsAreCutToColumnsWithAnEllipsis(text: String, limit: Int, cell: String) {
    #expect(Display.cell(text, limit: limit) == cell)
  }

  /// Every cut of every sample fits its columns and ends on a grapheme cluster boundary.
  @Test func cutsNeverExceedTheWidthNorSplitAGraphemeCluster() {
    let samples = [
      "日本語のキャプション", "👍🏽👍🏿 ok", "👨\u{200D}👩\u{200D}👧 family", "🇯🇵🇫🇷🇩🇪🇬🇧",
      "e\u{301}a\u{308}o\u{302}\u{323}", "مَرْحَبًا بالعالم", "ok ❤\u{FE0F} 1\u{FE0F}\u{20E3}",
      "한국어 텍스트", "mixed 日本 and 🚀 rockets",
    ]
    for sample in samples {
      let full = Array(Display.escaped(sample))
      for limit in 0...Display.columns(sample) + 1 {
        let cell = Display.cell(sample, limit: limit)
        #expect(Display.columns(cell) <= limit, "\(sample) at \(limit)")
        let kept = cell.hasSuffix("…") && cell != sample ? Array(cell.dropLast()) : Array(cell)
        #expect(full.starts(with: kept), "\(sample) at \(limit): \(cell)")
        if Display.columns(sample) > limit, limit > 0 {
          #expect(cell.hasSuffix("…"))
          #expect(Display.columns(cell) >= limit - 1, "\(sample) at \(limit) wastes room")
        }
      }
    }
  }

  @Test func paddingLinesUpWideText() {
    #expect(Display.padded("日本", toColumns: 6) == "日本  ")
    #expect(Display.padded("7", toColumns: 3, alignRight: true) == "  7")
    #expect(Display.padded("too wide", toColumns: 3) == "too wide")
  }
}
