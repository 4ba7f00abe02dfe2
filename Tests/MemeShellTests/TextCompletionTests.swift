import Foundation
import Testing

@testable import MemeShell

extension CompletionTests {
  /// `text` completes each of its words: `add`, `rm` and the box numbers listed with their
  /// text, then a box's settings, then a setting's values.
  @Test func textCompletesEachWord() throws {
    let (shell, _) = try makeShell()
    #expect(shell.run(line: "top one does not simply"))
    #expect(shell.run(line: "text add label at right"))
    #expect(
      shell.complete("text ").candidates.map(\.display) == [
        "add", "rm", "1  one does not simply", "2  (empty)", "3  label",
      ])
    #expect(shell.complete("text 3").candidates.map(\.insertion) == ["3"])
    #expect(shell.complete("text rm ").candidates.map(\.insertion) == ["1", "2", "3"])
    #expect(
      shell.complete("text 2 ").candidates.map(\.insertion)
        == ["at", "align", "color", "outline", "font", "angle", "during", "case"])
    #expect(shell.complete("text 2 a").candidates.map(\.insertion) == ["at", "align", "angle"])
    #expect(
      shell.complete("text 2 align ").candidates.map(\.insertion) == ["left", "center", "right"])
    #expect(shell.complete("text 2 case a").candidates.map(\.insertion) == ["as-typed"])
    #expect(shell.complete("text 2 color ye").candidates.map(\.insertion) == ["yellow"])
    #expect(shell.complete("text 2 outline n").candidates.map(\.insertion) == ["none"])
    #expect(shell.complete("text 2 at m").candidates.map(\.insertion) == ["middle"])
    #expect(shell.complete("text 2 font os").candidates.map(\.insertion) == ["Oswald"])
    #expect(shell.complete("text add hello at l").candidates.map(\.insertion) == ["left"])
    #expect(shell.complete("text add hello a").candidates.map(\.insertion) == ["at"])
  }
}
