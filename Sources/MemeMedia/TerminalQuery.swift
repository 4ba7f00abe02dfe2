#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import Foundation

/// What a terminal answered when asked what it can draw.
public struct TerminalAnswers: Sendable, Equatable {
  /// The kitty graphics protocol: the terminal answered the query image with `OK`.
  public var kittyGraphics = false
  /// Sixels: the primary device attributes (DA1) list attribute 4.
  public var sixels = false
  /// The terminal's name and version from XTVERSION (`XTerm(379)`, `kitty(0.26.5)`), if given.
  public var version: String?
  /// The terminal answered DA1 at all (every VT100-compatible terminal does).
  public var answered = false

  public init(
    kittyGraphics: Bool = false, sixels: Bool = false, version: String? = nil,
    answered: Bool = false
  ) {
    self.kittyGraphics = kittyGraphics
    self.sixels = sixels
    self.version = version
    self.answered = answered
  }

  /// The answers found in `bytes`, what the terminal sent back; any other bytes (keys typed
  /// meanwhile) are skipped.
  public static func parse(_ bytes: [UInt8]) -> TerminalAnswers {
    var answers = TerminalAnswers()
    let text = String(decoding: bytes, as: UTF8.self)
    // kitty: ESC _ G i=31 ; OK ESC \  (an error names why instead of OK).
    if let start = text.range(of: "\u{1B}_Gi=31;") {
      answers.kittyGraphics = text[start.upperBound...].hasPrefix("OK")
    }
    // XTVERSION: ESC P > | name(version) ESC \
    if let start = text.range(of: "\u{1B}P>|"),
      let end = text.range(of: "\u{1B}\\", range: start.upperBound..<text.endIndex)
    {
      answers.version = String(text[start.upperBound..<end.lowerBound])
    }
    // DA1: ESC [ ? attributes separated by ; c
    if let start = text.range(of: "\u{1B}[?"),
      let end = text.range(of: "c", range: start.upperBound..<text.endIndex)
    {
      let attributes = text[start.upperBound..<end.lowerBound].split(separator: ";")
      answers.answered = true
      answers.sixels = attributes.dropFirst().contains("4")
    }
    return answers
  }
}

/// Asks the terminal on standard input and output what it can draw, the way chafa and timg
/// do: the kitty graphics query (a 1×1 picture kitty checks but never shows), XTVERSION, then
/// DA1, which every terminal answers, so its reply ends the wait.
///
/// Only for a person at a terminal (both standard input and output are one); the replies are
/// read in raw mode with echo off, and the cursor is saved before and restored after, with the
/// rest of its line erased, so a terminal that printed part of a query leaves nothing on screen.
public enum TerminalQuery {
  /// The questions, in the order sent.
  static let questions =
    "\u{1B}7"  // DECSC: save the cursor
    + "\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\"  // kitty: can you take this picture?
    + "\u{1B}[>0q"  // XTVERSION: who are you?
    + "\u{1B}[c"  // DA1: what are your attributes?
  /// Puts the cursor back and erases what a query may have printed after it.
  static let cleanUp = "\u{1B}8\u{1B}[K"

  /// The answers, or nil when standard input or output is not a terminal or nothing came back
  /// within `timeout` seconds (a terminal that does not answer DA1, or a very slow link).
  public static func ask(timeout: Double = 0.25) -> TerminalAnswers? {
    guard isatty(0) == 1, isatty(1) == 1 else { return nil }
    var saved = termios()
    guard tcgetattr(0, &saved) == 0 else { return nil }
    var raw = saved
    raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
    guard tcsetattr(0, TCSANOW, &raw) == 0 else { return nil }
    defer { tcsetattr(0, TCSANOW, &saved) }
    guard write(questions) else { return nil }
    defer { _ = write(cleanUp) }
    var received: [UInt8] = []
    let deadline = Date().addingTimeInterval(timeout)
    var buffer = [UInt8](repeating: 0, count: 256)
    while !TerminalAnswers.parse(received).answered {
      let remaining = deadline.timeIntervalSinceNow
      guard remaining > 0 else { break }
      var descriptor = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
      let ready = poll(&descriptor, 1, Int32(max(1, remaining * 1000)))
      if ready < 0 && errno == EINTR { continue }
      guard ready > 0 else { break }
      let count = read(0, &buffer, buffer.count)
      guard count > 0 else { break }
      received += buffer.prefix(count)
      // A runaway reply (something is typing into the terminal): stop listening.
      if received.count > 4096 { break }
    }
    let answers = TerminalAnswers.parse(received)
    // No DA1 in time: a reply arriving later would be read as typed keys, so drop what is
    // pending (a key typed in these 0.25 s goes with it).
    if !answers.answered { tcflush(0, TCIFLUSH) }
    return answers.answered ? answers : nil
  }

  /// Writes all of `text` to standard output; false when it could not.
  private static func write(_ text: String) -> Bool {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
      let written = bytes.withUnsafeBytes { Glibc.write(1, $0.baseAddress, $0.count) }
      if written < 0 && errno == EINTR { continue }
      guard written > 0 else { return false }
      bytes = bytes.dropFirst(written)
    }
    return true
  }
}
