import Testing

@testable import MemeShell

@Suite struct CommandTokenizerTests {
  @Test(arguments: [
    ("top hello world", ["top", "hello", "world"]),
    ("top \"I SEE\" what you did", ["top", "I SEE", "what", "you", "did"]),
    ("load 'my photo.jpg'", ["load", "my photo.jpg"]),
    ("load my\\ photo.jpg", ["load", "my photo.jpg"]),
    ("top \"say \\\"hi\\\"\"", ["top", "say \"hi\""]),
    ("top 'it''s'", ["top", "its"]),
    ("  spaced\t\tout  ", ["spaced", "out"]),
    ("top ''", ["top", ""]),
    ("top trailing\\", ["top", "trailing\\"]),
  ])
  func splitsWords(line: String, words: [String]) throws {
    #expect(try CommandTokenizer.tokenize(line).map(\.text) == words)
  }

  @Test func unbalancedQuoteIsAnErrorNamingTheQuote() {
    #expect(throws: CommandTokenizer.Failure.unterminatedQuote("\"")) {
      try CommandTokenizer.tokenize("top \"open")
    }
    #expect(throws: CommandTokenizer.Failure.unterminatedQuote("'")) {
      try CommandTokenizer.tokenize("load 'open")
    }
  }

  @Test func quotedBarIsTextButBareBarSeparates() throws {
    let tokens = try CommandTokenizer.tokenize("caption 'a | b' | c")
    #expect(tokens[1] == .init("a | b", isLiteral: true))
    #expect(tokens[2] == .init("|", isLiteral: false))
  }

  @Test(arguments: ["my photo.jpg", "it's \"quoted\"", "back\\slash", "a|b;c", "#tag", "plain"])
  func quotedRoundTrips(word: String) throws {
    let line = "load " + CommandTokenizer.quoted(word)
    #expect(try CommandTokenizer.tokenize(line).map(\.text) == ["load", word])
  }

  @Test func scriptsSplitAtUnquotedSemicolons() {
    #expect(
      CommandTokenizer.splitCommands("load a.png; top 'x; y'\nshare")
        == ["load a.png", " top 'x; y'", "share"])
  }

  // MARK: - Captions typed as text

  static let captions: Set<String> = ["top", "bottom", "caption"]
  static func isCaption(_ word: String) -> Bool { captions.contains(word) }

  @Test(arguments: [
    ("top don't do it", ["top", "don't do it"]),
    ("bottom it's over 9000!", ["bottom", "it's over 9000!"]),
    ("caption when you \"finally\" ship | it's friday",
     ["caption", "when you \"finally\" ship", "|", "it's friday"]),
    ("caption a|b|c", ["caption", "a", "|", "b|c"]),
    ("caption pipes \\| stay | here", ["caption", "pipes | stay", "|", "here"]),
    ("top two  spaces  ", ["top", "two  spaces"]),
    ("top 'quoted' words", ["top", "quoted", "words"]),
    ("top \"\"", ["top", ""]),
    ("load it's.png", ["load", "it's.png"]),
  ])
  func captionsAreTextNotWords(line: String, words: [String]) throws {
    // `load it's.png` is not a caption: the quote opens as in any shell.
    if words.first == "load" {
      #expect(throws: CommandTokenizer.Failure.unterminatedQuote("'")) {
        try CommandTokenizer.tokenize(line, isTextCommand: Self.isCaption)
      }
      return
    }
    #expect(try CommandTokenizer.tokenize(line, isTextCommand: Self.isCaption).map(\.text) == words)
  }

  @Test func anApostropheInACaptionLeavesNoQuoteOpen() {
    #expect(CommandTokenizer.openQuote("top don't", isTextCommand: Self.isCaption) == nil)
    #expect(CommandTokenizer.openQuote("top 'don", isTextCommand: Self.isCaption) == "'")
    #expect(CommandTokenizer.openQuote("font 'Deja", isTextCommand: Self.isCaption) == "'")
  }

  @Test func scriptsSplitCaptionsAtSemicolonsWhateverTheirApostrophes() {
    #expect(
      CommandTokenizer.splitCommands(
        "top don't; bottom it's \\; fine; top 'a; b'", isTextCommand: Self.isCaption)
        == ["top don't", " bottom it's \\; fine", " top 'a; b'"])
  }
}
