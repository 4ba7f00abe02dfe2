/// Tab completion from the command registry: command names first, then each command's own
/// argument completer (words, paths, fonts, meme ids).
extension Shell {
  /// The candidates for the text before the cursor.
  public func complete(_ textBeforeCursor: String) -> CompletionResult {
    let scan = CommandTokenizer.scan(textBeforeCursor)
    let partial = scan.current?.text ?? ""
    let replaced = scan.currentRawScalars
    if scan.tokens.isEmpty {
      let lowered = partial.lowercased()
      var candidates: [CompletionCandidate] = []
      for command in CommandRegistry.commands {
        let unavailable = command.unavailableReason(self) != nil
        for name in command.allNames where name.hasPrefix(lowered) {
          let display = unavailable ? "\(name) (unavailable)" : name
          candidates.append(CompletionCandidate(insertion: name, display: display))
        }
      }
      return CompletionResult(replacedScalars: replaced, candidates: candidates)
    }
    guard let command = CommandRegistry.command(named: scan.tokens[0].text) else {
      return CompletionResult(replacedScalars: replaced, candidates: [])
    }
    let previous = scan.tokens.dropFirst().map(\.text)
    let raw = command.arguments.complete(self, previous, partial)
    let candidates = raw.map { candidate in
      CompletionCandidate(
        insertion: CommandTokenizer.quoted(candidate.insertion), display: candidate.display,
        appendSpace: candidate.appendSpace)
    }
    return CompletionResult(replacedScalars: replaced, candidates: candidates)
  }
}
