import Testing

@testable import MemeShell

@Suite struct TranscriptTests {
  @Test func parsesInputsCommentsAndOutputWithBOMAndCRLF() {
    let transcript = Transcript(
      text: "\u{FEFF}# comment\r\n> load a.png\r\na.png: 1×1 PNG\r\n\r\n> info\n")
    #expect(
      transcript.lines == [
        .comment("# comment"), .input("load a.png"), .output("a.png: 1×1 PNG"), .blank,
        .input("info"),
      ])
  }

  @Test(arguments: [
    ("created: [date]", "created: 2026-11-25T06:49:09Z", true),
    ("created: [date]", "created: 2026-11-25 06:49", true),
    ("created: [date]", "created: yesterday", false),
    ("file: [path]", "file: /tmp/x/memes/1/meme.png", true),
    ("sha: [sha256]", "sha: " + String(repeating: "a1", count: 32), true),
    ("sha: [sha256]", "sha: abc", false),
    ("wrote ... (160×120)", "wrote /tmp/a b.png (160×120)", true),
    ("id [number]", "id 12", true),
    ("literal (parens) + dots.", "literal (parens) + dots.", true),
    ("literal (parens) + dots.", "literal (parens) + dotsX", false),
  ])
  func patternsMatchLines(expected: String, actual: String, matches: Bool) {
    #expect(TranscriptPattern.matches(line: expected, actual: actual) == matches)
  }

  @Test func anEllipsisLineMatchesAnyNumberOfLines() {
    #expect(TranscriptPattern.matches(expected: ["a", "...", "z"], actual: ["a", "z"]))
    #expect(TranscriptPattern.matches(expected: ["a", "...", "z"], actual: ["a", "b", "c", "z"]))
    #expect(!TranscriptPattern.matches(expected: ["a", "...", "z"], actual: ["a", "b"]))
  }

  @Test func diffShowsExpectedThenActual() {
    let diff = UnifiedDiff.make(
      expected: ["> crop 16:9", "crop: 160×91"], actual: ["> crop 16:9", "crop: 160×90"],
      expectedName: "e", actualName: "a")
    #expect(
      diff == [
        "--- e", "+++ a", "@@ -1,2 +1,2 @@", " > crop 16:9", "-crop: 160×91", "+crop: 160×90",
      ])
  }
}
