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
}
