import Testing

@testable import MemeShell

@Suite struct SuggestionTests {
  @Test(
    arguments: [
      ("captoin", "caption"), ("lod", "load"), ("shrae", "share"), ("brwose", "browse"),
      ("histroy", "history"), ("frobnicate", nil),
    ] as [(String, String?)])
  func nearMissesSuggestACommand(typed: String, suggestion: String?) {
    let names = CommandRegistry.commands.flatMap(\.allNames)
    #expect(Suggestions.nearest(to: typed, among: names) == suggestion)
  }

  @Test func everyNameAndAliasIsUnique() {
    let names = CommandRegistry.commands.flatMap(\.allNames)
    #expect(Set(names).count == names.count)
  }

  @Test func everyCommandAndAliasIsRegistered() {
    let expected = [
      "new", "add", "load", "album", "camera", "top", "bottom", "caption", "font", "fonts", "crop",
      "preview", "share", "cancel", "undo", "redo", "history", "info", "browse", "list", "ls",
      "show", "edit", "delete", "rm", "export", "help", "source", "quit", "exit",
    ]
    for name in expected { #expect(CommandRegistry.command(named: name) != nil, "\(name)") }
  }
}
