import Foundation

/// A recorded session: `> ` lines are input, `#` lines comments, blank lines spacing, every other
/// line expected output (stdout and stderr interleaved as produced; stderr lines read
/// `error: …`, `warning: …`, `note: …`). Expected lines may use patterns (see `TranscriptPattern`).
public struct Transcript: Equatable, Sendable {
  /// One line of the file.
  public enum Line: Equatable, Sendable {
    case input(String)
    case comment(String)
    case blank
    case output(String)
  }

  public var lines: [Line]

  /// Parses a transcript (a BOM and CRLF line ends are accepted).
  public init(text: String) {
    var body = Substring(text)
    if body.hasPrefix("\u{FEFF}") { body = body.dropFirst() }
    // "\r\n" is one Character in Swift: split on both forms.
    var raw = body.split(
      omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }
    )
    .map(String.init)
    if raw.last == "" { raw.removeLast() }
    lines = raw.map { line in
      let line = line.hasSuffix("\r") ? String(line.dropLast()) : line
      if line.hasPrefix("> ") { return .input(String(line.dropFirst(2))) }
      if line == ">" { return .input("") }
      if line.hasPrefix("#") { return .comment(line) }
      if line.allSatisfy({ $0 == " " || $0 == "\t" }) { return .blank }
      return .output(line)
    }
  }

  /// The input lines, in order.
  public var inputs: [String] {
    lines.compactMap { if case .input(let text) = $0 { text } else { nil } }
  }

  /// The transcript as text (one line each, `> ` before inputs).
  static func render(_ lines: [Line]) -> [String] {
    lines.map { line in
      switch line {
      case .input(let text): "> " + text
      case .comment(let text): text
      case .blank: ""
      case .output(let text): text
      }
    }
  }
}

/// Runs transcripts in a fresh session: `--replay` prints the session as it happens (a new
/// transcript, so replaying into a file records one), `--check` compares with the expected lines.
public enum TranscriptRunner {
  /// The session's lines with the actual output after each input (and before the first input,
  /// whatever the session printed at start). `emit` sees each line as it is produced.
  static func run(
    _ transcript: Transcript, makeShell: (Console) -> Shell, emit: (String) -> Void = { _ in }
  ) -> (lines: [Transcript.Line], outputs: [[String]]) {
    let capture = Console.Capture()
    let shell = makeShell(Console(capture: capture))
    var result: [Transcript.Line] = []
    var outputs: [[String]] = []
    func flush() -> [String] {
      let produced = capture.drain().map(\.text)
      for line in produced { emit(line) }
      return produced
    }
    // Output at start goes where the transcript's first lines are: before its first input.
    var pending = flush()
    var block: [String] = []
    var started = false
    var pendingBlank = false
    for line in transcript.lines {
      switch line {
      case .output:
        continue
      case .input(let text):
        pendingBlank = false
        if !started {
          result += pending.map { .output($0) }
          outputs.append(pending)
          pending = []
          started = true
        } else {
          outputs.append(block)
        }
        block = []
        emit("> " + text)
        result.append(line)
        if !shell.quitRequested {
          shell.run(line: text)
        }
        let produced = flush()
        block = produced
        result += produced.map { .output($0) }
      case .blank where started:
        // After an input, blank lines in the file may be blank lines of the output recorded
        // last time (they parse as spacing): the output brings its own, so only one blank line
        // before a following comment is kept. Otherwise recording again would add blank lines.
        pendingBlank = true
      case .comment:
        if pendingBlank {
          emit("")
          result.append(.blank)
          pendingBlank = false
        }
        emit(Transcript.render([line])[0])
        result.append(line)
      case .blank:
        emit("")
        result.append(line)
      }
    }
    if !started {
      result = pending.map { .output($0) } + result
      outputs.append(pending)
    } else {
      outputs.append(block)
    }
    return (result, outputs)
  }

  /// Runs `transcript` and prints the session; returns 0.
  ///
  /// Input lines are written as the file has them (so the output is the transcript again), except
  /// on a terminal, where they are escaped like everything else.
  public static func replay(_ transcript: Transcript, makeShell: (Console) -> Shell) -> Int32 {
    let terminal = isatty(1) == 1
    _ = run(transcript, makeShell: makeShell) {
      Console.writeAll(1, (terminal ? Display.escaped($0) : $0) + "\n")
    }
    return 0
  }

  /// Runs `transcript`; on a mismatch prints a unified diff (expected → actual) and returns 1.
  public static func check(
    _ transcript: Transcript, name: String, makeShell: (Console) -> Shell
  ) -> Int32 {
    let (_, actualBlocks) = run(transcript, makeShell: makeShell)
    let expectedBlocks = expectedOutputBlocks(transcript)
    // Lines for the diff: the transcript with each block's actual output, except that a block
    // that matches its expected lines (patterns included) is shown as expected.
    var expectedText: [String] = []
    var actualText: [String] = []
    var blockIndex = 0
    var mismatch = false
    func appendBlock() {
      let expected = blockIndex < expectedBlocks.count ? expectedBlocks[blockIndex] : []
      let actual = blockIndex < actualBlocks.count ? actualBlocks[blockIndex] : []
      blockIndex += 1
      let expectedLines = expected.filter { !$0.isEmpty }
      let actualLines = actual.filter { !$0.isEmpty }
      expectedText += expectedLines
      if TranscriptPattern.matches(expected: expectedLines, actual: actualLines) {
        actualText += expectedLines
      } else {
        mismatch = true
        actualText += actualLines
      }
    }
    var sawInput = false
    for line in transcript.lines {
      switch line {
      case .input(let text):
        appendBlock()
        sawInput = true
        expectedText.append("> " + Display.escaped(text))
        actualText.append("> " + Display.escaped(text))
      case .comment(let text):
        expectedText.append(Display.escaped(text))
        actualText.append(Display.escaped(text))
      case .blank, .output:
        continue
      }
    }
    if sawInput || blockIndex == 0 { appendBlock() }
    guard mismatch else { return 0 }
    let diff = UnifiedDiff.make(
      expected: expectedText, actual: actualText, expectedName: "\(name) (expected)",
      actualName: "\(name) (actual)")
    Console.writeAll(1, diff.joined(separator: "\n") + "\n")
    return 1
  }

  /// The expected output lines before the first input and after each input, comments dropped.
  static func expectedOutputBlocks(_ transcript: Transcript) -> [[String]] {
    var blocks: [[String]] = [[]]
    for line in transcript.lines {
      switch line {
      case .input: blocks.append([])
      case .output(let text): blocks[blocks.count - 1].append(text)
      case .comment, .blank: continue
      }
    }
    return blocks
  }
}
