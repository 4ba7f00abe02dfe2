import Foundation
import Testing

/// LineEditor in a real terminal (tmux): what a person typing sees and gets back.
@Suite(.serialized) struct LineEditorTerminalTests {
  let folder: URL

  init() throws {
    folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("memesh-lineedit-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  var historyFile: URL { folder.appendingPathComponent("state/memesh/history") }

  /// A first session that types three lines (the last two the same) and ends with Ctrl-D.
  func typeThreeLinesAndEnd() throws -> LineEditorTerminal {
    let first = try LineEditorTerminal(history: historyFile)
    try first.type("hello wörld")
    try first.press("Enter")
    try first.waitFor("line: hello wörld")
    try first.type("caption x 猫")
    try first.press("Enter")
    try first.type("caption x 猫")
    try first.press("Enter")
    try first.waitFor("line: caption x 猫", count: 2)
    try first.press("C-d")
    return first
  }

  @Test func ctrlDEndsTheSessionAndTypedLinesAreKeptOnceInAPrivateFile() throws {
    let first = try typeThreeLinesAndEnd()
    #expect(try first.waitForExit())
    #expect(try first.events().last == "end")

    let folderMode =
      try FileManager.default.attributesOfItem(
        atPath: historyFile.deletingLastPathComponent().path)[.posixPermissions] as? Int
    let fileMode =
      try FileManager.default.attributesOfItem(atPath: historyFile.path)[
        .posixPermissions] as? Int
    #expect(folderMode == 0o700)
    #expect(fileMode == 0o600)
    // The repeated line is stored once.
    let stored = try String(contentsOf: historyFile, encoding: .utf8)
    #expect(stored == "_HiStOrY_V2_\nhello\\040w\u{F6}rld\ncaption\\040x\\040猫\n")
  }

  @Test func typedLinesComeBackWithUpAndDownAfterARestart() throws {
    let first = try typeThreeLinesAndEnd()
    #expect(try first.waitForExit())
    let second = try LineEditorTerminal(history: historyFile)
    try second.press("Up")
    try second.waitFor("demo> caption x 猫")
    try second.press("Up")
    try second.waitFor("demo> hello wörld")
    try second.press("Down")
    try second.press("Enter")
    try second.waitFor("line: caption x 猫")
  }

  @Test func aDamagedHistoryIsReportedOnceAndLeftAlone() throws {
    let damaged = Data("my notes\n\u{1B}[2J not history\n".utf8)
    try FileManager.default.createDirectory(
      at: historyFile.deletingLastPathComponent(), withIntermediateDirectories: true)
    try damaged.write(to: historyFile)
    let terminal = try LineEditorTerminal(history: historyFile, width: 200)
    #expect(
      try terminal.screen().prefix(2) == [
        "warning: history: '\(historyFile.path)' is not a memesh history file (no _HiStOrY_V2_"
          + " header); leaving it alone, history is not saved",
        "demo>",
      ])
    try terminal.type("first")
    try terminal.press("Enter")
    try terminal.waitFor("line: first")
    try terminal.type("second")
    try terminal.press("Enter")
    try terminal.waitFor("line: second")
    try terminal.press("Up", "Up")
    try terminal.waitFor("demo> first")
    try terminal.press("C-c")
    try terminal.waitFor("interrupt")
    try terminal.press("C-d")
    #expect(try terminal.waitForExit())
    #expect(try terminal.events() == ["line: first", "line: second", "interrupt", "end"])
    #expect(try Data(contentsOf: historyFile) == damaged)
  }

  @Test func tabCompletesAUniqueWordAndAddsASpace() throws {
    let terminal = try LineEditorTerminal(history: nil)
    try terminal.type("capt")
    try terminal.press("Tab")
    try terminal.waitFor("demo> caption")
    try terminal.type("x")
    try terminal.press("Enter")
    try terminal.waitFor("line: caption x")
  }

  @Test func tabCompletesTheCommonPrefixThenListsAndKeepsTheLine() throws {
    let terminal = try LineEditorTerminal(history: nil)
    try terminal.type("show font")
    try terminal.press("Tab")
    try terminal.waitFor("demo> show font-")
    try terminal.press("Tab")
    try terminal.waitFor("font-12")
    try terminal.waitFor("demo> show font-", count: 2)
    let screen = try terminal.screen()
    let listRows = screen.filter { $0.hasPrefix("font-01") || $0.hasPrefix("font-02") }
    #expect(listRows.count == 2, "the 12 fonts fill rows across the 60 columns")
    #expect(screen.last { !$0.isEmpty } == "demo> show font-")
    #expect(try terminal.waitForCursor(16, screen.lastIndex { !$0.isEmpty } ?? -1))
    try terminal.type("1")
    try terminal.press("Tab")
    try terminal.waitFor("demo> show font-1")
    try terminal.type("1")
    try terminal.press("Tab", "Enter")
    try terminal.waitFor("line: show font-11")
  }

  @Test func tabGivesAFolderNoSpace() throws {
    let terminal = try LineEditorTerminal(history: nil)
    try terminal.type("load fol")
    try terminal.press("Tab")
    try terminal.type("x")
    try terminal.press("Enter")
    try terminal.waitFor("line: load folder/x")
  }

  @Test func tabListsDisplaysWithEscapeSequencesMadeVisible() throws {
    let terminal = try LineEditorTerminal(history: nil)
    try terminal.type("show 3")
    try terminal.press("Tab")
    try terminal.waitFor("3  I SEE | WHAT YOU DID")
    #expect(try terminal.text().contains("30  猫 | ^[[31mCAT"))
  }

  @Test func tabWithNoCandidatesChangesNothing() throws {
    let terminal = try LineEditorTerminal(history: nil)
    try terminal.type("show 3zz")
    try terminal.press("Tab", "Enter")
    try terminal.waitFor("line: show 3zz")
  }

  /// More than 100 candidates: Tab asks first, as bash does. Returns a terminal showing the
  /// question for `show many-` (250 candidates).
  func askedToListHundreds() throws -> LineEditorTerminal {
    let terminal = try LineEditorTerminal(history: nil)
    try terminal.type("show many-")
    try terminal.press("Tab")
    try terminal.waitFor("Display all 250 possibilities? (y or n)")
    return terminal
  }

  @Test func tabAsksBeforeListingHundredsAndNKeepsTheLine() throws {
    let terminal = try askedToListHundreds()
    try terminal.press("n")
    try terminal.waitFor("demo> show many-", count: 2)
    #expect(try !terminal.text().contains("many-000"))
    #expect(try terminal.screen().last { !$0.isEmpty } == "demo> show many-")
  }

  @Test func otherKeysKeepAskingAndYListsAScreenfulAtATime() throws {
    let terminal = try askedToListHundreds()
    try terminal.press("n")
    try terminal.waitFor("demo> show many-", count: 2)
    try terminal.press("Tab")
    try terminal.waitFor("Display all 250 possibilities? (y or n)", count: 2)
    // Other keys ring the bell and keep asking; y lists.
    try terminal.press("x", "y")
    try terminal.waitFor("--More--")
    #expect(try terminal.text().contains("many-000"))
    #expect(try !terminal.text().contains("many-249"))
  }

  @Test func qStopsTheListAndTheLineComesBackWhole() throws {
    let terminal = try askedToListHundreds()
    try terminal.press("y")
    try terminal.waitFor("--More--")
    try terminal.press("q")
    try terminal.waitFor { $0.split(separator: "\n").last == "demo> show many-" }
    #expect(try !terminal.text().contains("--More--"))
  }

  /// A list taller than the screen pauses at `--More--`: Space shows the next screenful, Enter
  /// one more line, until the end.
  @Test func spaceShowsTheNextScreenfulAndEnterOneMoreLine() throws {
    let terminal = try askedToListHundreds()
    try terminal.press("n")
    try terminal.waitFor("demo> show many-", count: 2)
    try terminal.press("Tab")
    try terminal.waitFor { $0.split(separator: "\n").last?.hasSuffix("(y or n)") == true }
    try terminal.press("y")
    try terminal.waitFor("--More--")
    // 250 names fill 42 rows of 6 at 60 columns; the screen holds 19 and the marker.
    func paused(after last: String) -> (String) -> Bool {
      { $0.contains(last) && $0.split(separator: "\n").last == "--More--" }
    }
    try terminal.waitFor(paused(after: "many-018"))
    #expect(try !terminal.text().contains("many-019"))
    try terminal.press("Enter")
    try terminal.waitFor(paused(after: "many-019"))
    #expect(try !terminal.text().contains("many-020"))
    try terminal.press("Space")
    try terminal.waitFor(paused(after: "many-038"))
    try terminal.press("Space")
    try terminal.waitFor("many-041")
    try terminal.waitFor { $0.split(separator: "\n").last == "demo> show many-" }
    try terminal.type("007")
    try terminal.press("Enter")
    try terminal.waitFor("line: show many-007")
  }

  @Test func ctrlCDropsTheLineAndCtrlDEndsOnAnEmptyLine() throws {
    let terminal = try LineEditorTerminal(history: historyFile)
    try terminal.type("drop me")
    try terminal.press("C-c")
    try terminal.waitFor("interrupt")
    #expect(try terminal.text().contains("demo> drop me^C\ninterrupt\ndemo>"))
    try terminal.waitForPrompt()
    try terminal.type("abc")
    try terminal.press("Left", "C-d", "Enter")
    try terminal.waitFor("line: ab")
    try terminal.waitForPrompt()
    try terminal.press("C-d")
    #expect(try terminal.waitForExit())
    #expect(try terminal.events() == ["interrupt", "line: ab", "end"])
    // The dropped line is not history.
    let stored = try String(contentsOf: historyFile, encoding: .utf8)
    #expect(stored == "_HiStOrY_V2_\nab\n")
  }

  @Test func ctrlCWhileACommandRunsOnlyInterruptsIt() throws {
    let terminal = try LineEditorTerminal(history: nil)
    try terminal.type("work")
    try terminal.press("Enter")
    try terminal.waitFor("line: work")
    try terminal.press("C-c")
    try terminal.waitFor("work: interrupted")
    try terminal.type("still here")
    try terminal.press("Enter")
    try terminal.waitFor("line: still here")
  }

  /// A terminal whose session has run four lines, two of them starting `lo`.
  func terminalAfterFourLines() throws -> LineEditorTerminal {
    let terminal = try LineEditorTerminal(history: nil)
    for line in ["load cat.jpg", "top hello", "load dog.png", "bottom world"] {
      try terminal.type(line)
      try terminal.press("Enter")
      try terminal.waitFor("line: \(line)")
      try terminal.waitForPrompt()
    }
    return terminal
  }

  @Test func ctrlRFindsOlderMatchesAndSaysWhenNoneIsLeft() throws {
    let terminal = try terminalAfterFourLines()
    try terminal.press("C-r")
    try terminal.type("lo")
    try terminal.waitFor("(reverse-i-search)`lo': load dog.png")
    #expect(try terminal.waitForCursor(24, 8))
    try terminal.press("C-r")
    try terminal.waitFor("(reverse-i-search)`lo': top hello")
    try terminal.press("C-r")
    try terminal.waitFor("(reverse-i-search)`lo': load cat.jpg")
    try terminal.type("x")
    try terminal.waitFor("(failed reverse-i-search)`lox': load cat.jpg")
  }

  @Test func ctrlGEndsTheSearchAndGivesTheTypedLineBack() throws {
    let terminal = try terminalAfterFourLines()
    try terminal.press("C-r")
    try terminal.type("lox")
    try terminal.waitFor("(failed reverse-i-search)`lox'")
    try terminal.press("C-g")
    try terminal.waitForPrompt()
  }

  @Test func enterRunsTheSearchMatch() throws {
    let terminal = try terminalAfterFourLines()
    try terminal.press("C-r")
    try terminal.type("cat")
    try terminal.press("Enter")
    try terminal.waitFor("line: load cat.jpg", count: 2)
    try terminal.waitForPrompt()
  }

  @Test func escapeKeepsTheMatchForEditingWithTheShellsPrompt() throws {
    let terminal = try terminalAfterFourLines()
    try terminal.press("C-r")
    try terminal.type("wor")
    try terminal.waitFor("(reverse-i-search)`wor': bottom world")
    try terminal.press("Escape")
    try terminal.waitFor("demo> bottom world")
    try terminal.type("X")
    try terminal.press("Enter")
    try terminal.waitFor("line: bottom Xworld")
    try terminal.waitForPrompt()
  }

  @Test func anotherKeyEndsTheSearchAndDoesItsOwnWork() throws {
    let terminal = try terminalAfterFourLines()
    // Ctrl-E: to the end.
    try terminal.press("C-r")
    try terminal.type("dog")
    try terminal.press("C-e")
    try terminal.type("!")
    try terminal.press("Enter")
    try terminal.waitFor("line: load dog.png!")
    #expect(try !terminal.text().contains("reverse-i-search)`dog': load dog.png!"))
  }

  @Test func upAndDownKeepTheTypedLineAndGoOnFromACtrlRMatch() throws {
    let terminal = try LineEditorTerminal(history: nil)
    for line in ["one", "two", "three"] {
      try terminal.type(line)
      try terminal.press("Enter")
      try terminal.waitFor("line: \(line)")
      try terminal.waitForPrompt()
    }
    try terminal.type("typed")
    try terminal.press("Up")
    try terminal.waitForPrompt("demo> three")
    try terminal.press("Up", "Up")
    try terminal.waitForPrompt("demo> one")
    try terminal.press("Down", "Down", "Down")
    try terminal.waitForPrompt("demo> typed")
    try terminal.press("C-u", "C-r")
    try terminal.type("tw")
    try terminal.waitFor("(reverse-i-search)`tw': two")
    try terminal.press("Up")
    try terminal.waitForPrompt("demo> one")
    try terminal.press("Down", "Down", "Enter")
    try terminal.waitFor("line: three", count: 2)
  }

  @Test func wideAndCombiningCharactersKeepTheCursorRight() throws {
    // The prompt has a virama (प्र) and a combining accent too: 4 + 2 + 1 + 1 + 1 = 9 columns.
    let terminal = try LineEditorTerminal(history: nil, prompt: "प्र 猫 e\u{301}> ")
    try terminal.waitFor("प्र 猫 é>")
    // 日本語 is 6 columns, a space 1, e + U+0301 one.
    try terminal.type("日本語 e\u{301}")
    try terminal.waitFor("प्र 猫 é> 日本語 é")
    #expect(try terminal.waitForCursor(17, 0))
    try terminal.press("C-a")
    #expect(try terminal.waitForCursor(9, 0))
    try terminal.press("Right")
    #expect(try terminal.waitForCursor(11, 0))
    try terminal.type("ü")
    try terminal.waitFor("प्र 猫 é> 日ü本語 é")
    #expect(try terminal.waitForCursor(12, 0))
    try terminal.press("Enter")
    try terminal.waitFor("line: 日ü本語 e\u{301}")
  }

  @Test func aLongLineWrapsAndAListLeavesItWhole() throws {
    let terminal = try LineEditorTerminal(history: nil, width: 30, height: 20)
    let words = "one two three four five six seven eight nine ca"
    try terminal.type(words)
    try terminal.waitFor("nine ca")
    // 6 + 47 characters: the cursor is on the second row, 23 columns in.
    #expect(try terminal.waitForCursor(23, 1))
    try terminal.press("Tab")
    try terminal.waitFor("caption")
    try terminal.waitFor("six seven eight nine ca", count: 2)
    let screen = try terminal.screen()
    #expect(
      Array(screen[0...4]) == [
        "demo> one two three four five", "six seven eight nine ca",
        "caption  cancel   camera", "demo> one two three four five", "six seven eight nine ca",
      ])
    try terminal.press("C-a")
    #expect(try terminal.waitForCursor(6, 3))
    try terminal.press("Enter")
    try terminal.waitFor("line: one two three four five\nsix seven eight nine ca")
  }
}
