import Foundation
import MemeShell

extension FuzzTarget {
  /// A typed line (any bytes, read as UTF-8 the way the shell reads a line): split into commands
  /// and words; every word `quoted(_:)` for completion must come back as that one word.
  /// The caption and shell targets, in the order `make fuzz` runs them.
  static let shellTargets: [FuzzTarget] = [caption, tokenizer, transcript]

  static let tokenizer = FuzzTarget(name: "tokenizer", summary: "a typed command line") {
    data in
    let line = String(decoding: data, as: UTF8.self)
    _ = CommandTokenizer.splitCommands(line)
    guard let words = try? CommandTokenizer.tokenize(line) else { return }
    for word in words {
      let again = try? CommandTokenizer.tokenize(CommandTokenizer.quoted(word.text))
      precondition(again?.map(\.text) == [word.text], "quoted() does not round-trip")
    }
  }

  /// A transcript file: parsed, rendered back, and its expected lines matched against its own
  /// output lines (patterns such as `...` must never take exponential time).
  static let transcript = FuzzTarget(name: "transcript", summary: "a transcript file") { data in
    let text = String(decoding: data, as: UTF8.self)
    let parsed = Transcript(text: text)
    _ = parsed.inputs
    let outputs = parsed.lines.compactMap { line -> String? in
      if case .output(let output) = line { return output }
      return nil
    }
    let half = outputs.count / 2
    _ = TranscriptPattern.matches(
      expected: Array(outputs[..<half]), actual: Array(outputs[half...]))
    for (expected, actual) in zip(outputs, outputs.dropFirst()) {
      _ = TranscriptPattern.matches(line: expected, actual: actual)
    }
  }
}
