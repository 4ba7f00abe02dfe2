/// The seam between the shell and whatever reads its lines: libedit in a terminal
/// (`LineEditor`), plain stdin otherwise. The shell never talks to libedit directly.
public protocol LineReader: AnyObject {
  /// Shows `prompt` (terminals only) and reads one line without its newline.
  func read(prompt: String) -> LineEvent
  /// Adds a line the user entered to the history (a no-op when there is none).
  func remember(_ line: String)
  /// Flushes the history and restores the terminal; called once before memesh exits.
  func close()
}

/// What one read produced.
public enum LineEvent: Equatable, Sendable {
  /// A line, without its newline.
  case line(String)
  /// Ctrl-C: the line being typed was dropped; the session goes on.
  case interrupt
  /// Ctrl-D on an empty line, or the end of piped input.
  case end
}

/// One tab-completion candidate, produced by the shell's command registry.
public struct CompletionCandidate: Equatable, Sendable {
  /// Text that replaces the partial word, already quoted or escaped for the tokenizer.
  public var insertion: String
  /// What a list of candidates shows (for meme ids: `3  TOP | BOTTOM`).
  public var display: String
  /// Whether a space follows a unique completion (false for folders, which end in `/`).
  public var appendSpace: Bool

  public init(insertion: String, display: String? = nil, appendSpace: Bool = true) {
    self.insertion = insertion
    self.display = display ?? insertion
    self.appendSpace = appendSpace
  }
}

/// The candidates for the word before the cursor.
public struct CompletionResult: Equatable, Sendable {
  /// How many Unicode scalars before the cursor the insertion replaces (the raw partial word,
  /// quotes and backslashes included).
  public var replacedScalars: Int
  public var candidates: [CompletionCandidate]

  public init(replacedScalars: Int, candidates: [CompletionCandidate]) {
    self.replacedScalars = replacedScalars
    self.candidates = candidates
  }

  public static let none = CompletionResult(replacedScalars: 0, candidates: [])
}

/// Completes the text before the cursor; called by the line editor on Tab, from inside
/// libedit's key handling on the thread that reads lines (so it need not be `Sendable`).
public typealias Completer = (_ textBeforeCursor: String) -> CompletionResult
