#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import Foundation
import MemeCore

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
  /// The largest sixel picture the terminal draws, from XTSMGRAPHICS (xterm: its
  /// `maxGraphicSize`, at most the window); nil when it did not say.
  public var sixelGeometry: PixelSize?

  public init(
    kittyGraphics: Bool = false, sixels: Bool = false, version: String? = nil,
    answered: Bool = false, sixelGeometry: PixelSize? = nil
  ) {
    self.kittyGraphics = kittyGraphics
    self.sixels = sixels
    self.version = version
    self.answered = answered
    self.sixelGeometry = sixelGeometry
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
    for (parameters, final) in privateReplies(text) {
      switch final {
      case "c":
        // DA1: ESC [ ? class ; attributes c
        answers.answered = true
        answers.sixels = parameters.dropFirst().contains(4)
      case "S":
        // XTSMGRAPHICS sixel geometry: ESC [ ? 2 ; 0 (success) ; width ; height S
        if parameters.count == 4, parameters[0] == 2, parameters[1] == 0,
          (1...65_535).contains(parameters[2]), (1...65_535).contains(parameters[3])
        {
          answers.sixelGeometry = PixelSize(width: parameters[2], height: parameters[3])
        }
      default: break
      }
    }
    return answers
  }

  /// Every `ESC [ ? numbers separated by ; final` reply in `text`: its numbers (an empty one
  /// reads 0) and its final character.
  private static func privateReplies(_ text: String) -> [(parameters: [Int], final: Character)] {
    var replies: [(parameters: [Int], final: Character)] = []
    var rest = text[...]
    while let start = rest.range(of: "\u{1B}[?") {
      rest = rest[start.upperBound...]
      let body = rest.prefix { $0 == ";" || $0.isASCII && $0.isNumber }
      rest = rest[body.endIndex...]
      guard let final = rest.first, body.count <= 64 else { continue }
      // Over 9 digits is no size or attribute (and would overflow): the reply is skipped.
      let fields = body.split(separator: ";", omittingEmptySubsequences: false)
      guard fields.allSatisfy({ $0.count <= 9 }) else { continue }
      replies.append((fields.map { Int($0) ?? 0 }, final))
    }
    return replies
  }
}

/// Asks the terminal on standard input and output what it can draw, the way chafa and timg
/// do: the kitty graphics query (a 1×1 picture kitty checks but never shows), XTVERSION, the
/// largest sixel picture (XTSMGRAPHICS), then DA1, which every terminal answers after the
/// others, so its reply ends the wait and a question a terminal ignores costs no time.
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
    + "\u{1B}[?2;1;0S"  // XTSMGRAPHICS: how large a sixel picture do you draw?
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
