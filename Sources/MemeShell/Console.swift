import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Where the shell's output goes: the terminal (or a pipe), or a transcript being recorded.
///
/// Every line of text is escaped with `Display` before it is written, so user data never reaches
/// the terminal raw. Only pictures (`picture(_:)`) pass escape sequences through.
public final class Console {
  /// One piece of output, in the order it was produced.
  public enum Stream: Sendable { case output, error }

  /// Collects output instead of writing it (transcripts).
  public final class Capture {
    public private(set) var lines: [(stream: Stream, text: String)] = []
    func append(_ stream: Stream, _ text: String) { lines.append((stream, text)) }
    /// Takes the lines collected so far.
    public func drain() -> [(stream: Stream, text: String)] {
      defer { lines.removeAll() }
      return lines
    }
  }

  /// Errors, warnings and notes longer than this (a 1 MiB file name…) are cut with "…".
  static let messageLimit = 2000

  /// Nil when writing to the real file descriptors.
  public let capture: Capture?
  /// Whether `error:` may be colored (a terminal on stderr and no NO_COLOR).
  let colorErrors: Bool
  /// Whether stdout is a terminal that understands ANSI screen clearing (not TERM=dumb).
  let canClearScreen: Bool
  /// Whether stdout is a terminal (where Ctrl-C echoes `^C`).
  let outputIsTerminal: Bool
  /// Standard output lines held for the pager while `paged` runs (nil: written at once).
  var heldLines: [String]?
  /// Set when standard output carries a picture (`share file -`): every message goes to stderr
  /// so that nothing but the picture's bytes reaches stdout.
  var messagesOnStandardError = false
  /// Whether text was written to standard output (a picture after it would be unreadable).
  private(set) var wroteText = false
  /// Whether a picture file was written to standard output.
  private(set) var wrotePicture = false

  /// Writes to stdout and stderr; `error:` is red when `colorAllowed`, stderr is a terminal and
  /// neither NO_COLOR nor TERM=dumb says otherwise.
  public init(environment: [String: String], colorAllowed: Bool = true) {
    capture = nil
    let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
    colorErrors = colorAllowed && !noColor && isatty(2) == 1 && environment["TERM"] != "dumb"
    outputIsTerminal = isatty(1) == 1
    canClearScreen = outputIsTerminal && environment["TERM"] != "dumb"
  }

  /// Collects into `capture`.
  public init(capture: Capture) {
    self.capture = capture
    colorErrors = false
    canClearScreen = false
    outputIsTerminal = false
  }

  // MARK: - Text

  /// Prints one line; a newline inside `text` (user data) is shown escaped, like any control
  /// character.
  public func line(_ text: String) {
    emit(.output, text, splitting: false)
  }

  /// Prints memesh's own multi-line text: one line per "\n", each escaped.
  public func block(_ text: String) {
    emit(.output, text, splitting: true)
  }

  /// Prints a prompt or other text without a newline (terminals only).
  func prompt(_ text: String) {
    guard capture == nil else { return }
    Console.writeAll(1, Display.escaped(text))
  }

  /// Prints `error: message` on stderr.
  public func error(_ message: String) {
    let safe = Display.cell(message, limit: Console.messageLimit)
    if let capture {
      capture.append(.error, "error: " + safe)
    } else if colorErrors {
      Console.writeAll(2, "\u{1B}[31merror:\u{1B}[0m " + safe + "\n")
    } else {
      Console.writeAll(2, "error: " + safe + "\n")
    }
  }

  /// Prints `warning: message` on stderr.
  public func warning(_ message: String) {
    emit(.error, "warning: " + Display.cell(message, limit: Console.messageLimit), splitting: false)
  }

  /// Prints a one-line notice on stderr (`note: …`).
  public func note(_ message: String) {
    emit(.error, "note: " + Display.cell(message, limit: Console.messageLimit), splitting: false)
  }

  /// Lines whose parts were escaped by the caller (tab-separated rows): written as given, except
  /// that any control character other than a tab is still escaped.
  func rows(_ rows: [String]) {
    // Written in blocks of about 64 KB, not a system call per row (10,000 rows for a big store).
    var pending = ""
    for row in rows {
      // Printable ASCII and tabs are already safe: no need to split and escape each field.
      let plain = row.utf8.allSatisfy { ($0 >= 0x20 && $0 < 0x7F) || $0 == 0x09 }
      let safe =
        plain
        ? row
        : row.split(separator: "\t", omittingEmptySubsequences: false)
          .map { Display.escaped(String($0)) }.joined(separator: "\t")
      if let capture {
        capture.append(.output, safe)
      } else if heldLines != nil {
        heldLines?.append(safe)
      } else {
        pending += safe
        pending += "\n"
        if pending.utf8.count >= 1 << 16 {
          writeText(pending)
          pending = ""
        }
      }
    }
    if !pending.isEmpty { writeText(pending) }
  }

  /// Clears the terminal's screen and scrollback and homes the cursor, as clear(1) does; writes
  /// nothing when stdout is not a terminal (or is TERM=dumb) or output is captured.
  func clearScreen() {
    guard capture == nil, canClearScreen else { return }
    Console.writeAll(1, "\u{1B}[H\u{1B}[2J\u{1B}[3J")
  }

  /// Ends the line on which the terminal echoed `^C` for a Ctrl-C, so the next message starts
  /// at the left; nothing when stdout is not a terminal or output is captured.
  func endEchoedInterrupt() {
    guard capture == nil, outputIsTerminal else { return }
    Console.writeAll(1, "\n")
  }

  /// A terminal picture: escape sequences pass through. Never captured into transcripts.
  func picture(_ text: String) {
    guard capture == nil, !text.isEmpty, !messagesOnStandardError else { return }
    Console.writeAll(1, text + "\n")
  }

  /// Writes a picture file's bytes to standard output (`share file -`); every message after it
  /// goes to stderr.
  func pictureFile(_ data: Data) {
    messagesOnStandardError = true
    wrotePicture = true
    data.withUnsafeBytes { Console.writeAll(1, $0) }
  }

  private func emit(_ stream: Stream, _ text: String, splitting: Bool) {
    let pieces =
      splitting ? text.split(separator: "\n", omittingEmptySubsequences: false) : [text[...]]
    for piece in pieces {
      let safe = Display.escaped(String(piece))
      if let capture {
        capture.append(stream, safe)
      } else if stream == .output && heldLines != nil {
        heldLines?.append(safe)
      } else if stream == .output {
        writeText(safe + "\n")
      } else {
        Console.writeAll(2, safe + "\n")
      }
    }
  }

  /// Text meant for standard output: there, or on stderr once stdout carries a picture.
  private func writeText(_ text: String) {
    if messagesOnStandardError {
      Console.writeAll(2, text)
    } else {
      wroteText = true
      Console.writeAll(1, text)
    }
  }

  // MARK: - Writing

  /// Writes every byte with write(2). A closed pipe or a full disk ends memesh quietly with
  /// status 1 (Foundation's `FileHandle.write` would trap instead).
  static func writeAll(_ descriptor: Int32, _ text: String) {
    var text = text
    text.withUTF8 { writeAll(descriptor, UnsafeRawBufferPointer($0)) }
  }

  /// Writes every byte of `bytes` with write(2), as `writeAll(_:_:)` does for text.
  static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) {
    guard let base = bytes.baseAddress else { return }
    var offset = 0
    while offset < bytes.count {
      let written = write(descriptor, base + offset, bytes.count - offset)
      if written < 0 {
        let code = errno
        if code == EINTR || code == EAGAIN { continue }
        // EPIPE, ENOSPC, EIO…: nobody can read what follows.
        outputFailed(descriptor, code)
      }
      offset += written
    }
  }

  /// Called when output cannot be written; set by the launcher to restore the terminal first.
  nonisolated(unsafe) static var beforeOutputFailureExit: (() -> Void)?

  /// Ends memesh after a failed write to `descriptor`. A full disk or an I/O error on stdout
  /// is said on stderr (`browse --tsv > /dev/full`); a closed pipe (`| head`) is not, since the
  /// reader left on purpose, and a failing stderr has nowhere to say anything.
  private static func outputFailed(_ descriptor: Int32, _ code: Int32) -> Never {
    beforeOutputFailureExit?()
    if descriptor == 1, code != EPIPE {
      let message = Array("error: cannot write to standard output: \(OutputFile.reason(code))\n".utf8)
      _ = message.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }
    _exit(1)
  }
}
