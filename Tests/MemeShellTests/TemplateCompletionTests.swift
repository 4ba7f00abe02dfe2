import Foundation
import Testing

@testable import MemeShell

extension CompletionTests {
  /// `template` completes its words and the templates' names (with title and boxes), a style
  /// after a template's name, a folder after `import`.
  @Test func templateNamesStylesAndFolders() throws {
    let (shell, scratch) = try makeShell()
    let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("transcripts/templates").path
    #expect(shell.run(line: "template import '\(fixtures)/drake'"))
    #expect(shell.run(line: "template import '\(fixtures)/two-buttons'"))
    #expect(
      shell.complete("template ").candidates.map(\.display) == [
        "save", "import", "rm", "drake  Drake-like, 2 boxes", "two-buttons  Two Buttons, 3 boxes",
      ])
    #expect(shell.complete("template t").candidates.map(\.insertion) == ["two-buttons"])
    #expect(shell.complete("template rm d").candidates.map(\.insertion) == ["drake"])
    #expect(
      shell.complete("template two-buttons ").candidates.map(\.insertion) == ["blue", "green"])
    #expect(shell.complete("template drake ").candidates.isEmpty)
    #expect(shell.complete("template save ").candidates.isEmpty)
    #expect(
      shell.complete("template import " + scratch.path + "/p").candidates.map(\.insertion)
        == [scratch.path + "/pics/"])
    #expect(shell.complete("templates g").candidates.map(\.insertion) == ["grid"])
  }
}
