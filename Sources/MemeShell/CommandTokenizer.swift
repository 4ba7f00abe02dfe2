import MemeSystem

/// Splits a command line into words: spaces and tabs separate, `'…'` quotes literally, `"…"`
/// quotes with backslash escapes, a backslash outside quotes escapes the next character.
public enum CommandTokenizer {
  /// One word and whether any part of it was quoted or escaped (an unquoted `|` separates the
  /// captions of `caption`; a quoted one is text).
  public struct Token: Equatable, Sendable {
    public var text: String
    public var isLiteral: Bool

    public init(_ text: String, isLiteral: Bool = false) {
      self.text = text
      self.isLiteral = isLiteral
    }
  }

  /// Why a line cannot be split.
  public enum Failure: Error, Equatable {
    /// A quote (`'` or `"`) is not closed.
    case unterminatedQuote(Character)

    public var message: String {
      switch self {
      case .unterminatedQuote(let quote):
        return "unterminated \(quote == "'" ? "single" : "double") quote (close it with \(quote))"
      }
    }
  }

  /// The words of `line`.
  public static func tokenize(_ line: String) throws(Failure) -> [Token] {
    let scan = scan(line)
    if let quote = scan.openQuote { throw .unterminatedQuote(quote) }
    return scan.tokens + (scan.current.map { [$0] } ?? [])
  }

  /// The words of `line` when its first word may name a caption command (`isTextCommand`):
  /// then, unless the caption starts with a quote, the rest of the line is one word of text
  /// (see `textTokens`), so `top don't do it` keeps its apostrophe.
  public static func tokenize(
    _ line: String, isTextCommand: (String) -> Bool
  ) throws(Failure) -> [Token] {
    guard let (command, rest) = textCommand(line, isTextCommand: isTextCommand) else {
      return try tokenize(line)
    }
    return [Token(command)] + textTokens(rest)
  }

  /// The quote left open at the end of `line`, read as `tokenize(_:isTextCommand:)` reads it:
  /// a caption typed as text has none.
  public static func openQuote(_ line: String, isTextCommand: (String) -> Bool) -> Character? {
    textCommand(line, isTextCommand: isTextCommand) == nil ? scan(line).openQuote : nil
  }

  /// The command word and the text after it, when `line` is a caption command whose caption
  /// is typed as text: the first word is plain (no quote or backslash), names a text command,
  /// and what follows it does not start with a quote.
  static func textCommand(
    _ line: String, isTextCommand: (String) -> Bool
  ) -> (command: String, text: Substring)? {
    let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
    let start = line.drop(while: isBlank)
    let command = start.prefix(while: { !isBlank($0) })
    guard !command.isEmpty, !command.contains(where: { "'\"\\".contains($0) }),
      isTextCommand(String(command))
    else { return nil }
    let rest = start.dropFirst(command.count).drop(while: isBlank)
    guard let first = rest.first else { return nil }
    if first == "'" || first == "\"" { return nil }
    return (String(command), rest)
  }

  /// A caption typed as text: every character as typed (quotes and inner spaces included),
  /// blanks at either end dropped, a backslash taking the next character as it is (`\|` is a
  /// bar, `\\` a backslash, `\ ` a space kept at an end). The first unescaped `|` becomes a
  /// word of its own, so `caption` splits there; the words around it are literal text.
  static func textTokens(_ text: Substring) -> [Token] {
    var parts: [[(character: Character, escaped: Bool)]] = [[]]
    var escaping = false
    for character in text {
      if escaping {
        escaping = false
        parts[parts.count - 1].append((character, true))
      } else if character == "\\" {
        escaping = true
      } else if character == "|", parts.count == 1 {
        parts.append([])
      } else {
        parts[parts.count - 1].append((character, false))
      }
    }
    if escaping { parts[parts.count - 1].append(("\\", true)) }
    let words = parts.map { part -> Token in
      let isBlank = { (item: (character: Character, escaped: Bool)) in
        !item.escaped && (item.character == " " || item.character == "\t")
      }
      var slice = part[...]
      while let first = slice.first, isBlank(first) { slice = slice.dropFirst() }
      while let last = slice.last, isBlank(last) { slice = slice.dropLast() }
      return Token(String(slice.map(\.character)), isLiteral: true)
    }
    guard words.count == 2 else { return words }
    return [words[0], Token("|"), words[1]]
  }

  /// What a scan of a (possibly unfinished) line found: the finished words, the word being typed
  /// (nil after trailing whitespace), where that word starts, and an open quote.
  struct Scan {
    var tokens: [Token] = []
    var current: Token?
    /// Unicode scalars from the start of the current word to the end of the line.
    var currentRawScalars = 0
    var openQuote: Character?
  }

  /// Scans `line`, tolerating an unfinished quote (for completion).
  static func scan(_ line: String) -> Scan {
    var scan = Scan()
    var quote: Character?
    var escaping = false
    var wordStart = 0
    var position = 0
    func append(_ scalar: Unicode.Scalar, literal: Bool) {
      if scan.current == nil {
        scan.current = Token("")
        wordStart = position
      }
      scan.current?.text.unicodeScalars.append(scalar)
      if literal { scan.current?.isLiteral = true }
    }
    func startWordIfNeeded() {
      if scan.current == nil {
        scan.current = Token("", isLiteral: true)
        wordStart = position
      }
      scan.current?.isLiteral = true
    }
    let scalars = Array(line.unicodeScalars)
    while position < scalars.count {
      let scalar = scalars[position]
      defer { position += 1 }
      if escaping {
        escaping = false
        // `\xE9`: one byte of a file name that is not UTF-8 (`FileSystemName`).
        if scalar == "x", position + 2 < scalars.count,
          let byte = UInt8(String(String.UnicodeScalarView(scalars[position + 1...position + 2])), radix: 16)
        {
          append(FileSystemName.scalar(forRawByte: byte), literal: true)
          position += 2
          continue
        }
        append(scalar, literal: true)
        continue
      }
      switch quote {
      case "'":
        if scalar == "'" { quote = nil } else { append(scalar, literal: true) }
      case "\"":
        if scalar == "\"" {
          quote = nil
        } else if scalar == "\\" {
          escaping = true
        } else {
          append(scalar, literal: true)
        }
      default:
        switch scalar {
        case " ", "\t":
          if let word = scan.current {
            scan.tokens.append(word)
            scan.current = nil
          }
        case "'", "\"":
          startWordIfNeeded()
          quote = Character(scalar)
        case "\\":
          startWordIfNeeded()
          escaping = true
        default:
          append(scalar, literal: false)
        }
      }
    }
    // Bytes typed as `\xC3\xA9` that make a character are that character.
    func normalized(_ token: Token) -> Token {
      guard FileSystemName.hasRawBytes(token.text) else { return token }
      return Token(
        FileSystemName.string(FileSystemName.bytes(token.text)), isLiteral: token.isLiteral)
    }
    // A lone backslash at the end is kept as a backslash.
    if escaping, quote == nil { append("\\", literal: true) }
    if escaping, quote == "\"" { append("\\", literal: true) }
    scan.openQuote = quote
    scan.currentRawScalars = scan.current == nil ? 0 : position - wordStart
    scan.tokens = scan.tokens.map(normalized)
    scan.current = scan.current.map(normalized)
    return scan
  }

  /// Characters `quoted(_:)` escapes.
  static let special: Set<Unicode.Scalar> = [" ", "\t", "'", "\"", "\\", "|", ";", "#"]

  /// `special` as a table of the 128 ASCII bytes.
  private static let specialASCII: [Bool] = (0..<0x80).map {
    special.contains(Unicode.Scalar(UInt8($0)))
  }

  /// `word` written so that `tokenize` gives it back as one word (`my\ photo.jpg`); used for
  /// completion insertions. Control characters are put in double quotes as they are.
  public static func quoted(_ word: String) -> String {
    if word.isEmpty { return "''" }
    // Most file names need nothing (a folder of 20,000 is quoted on every Tab).
    if !word.utf8.contains(where: { ($0 < 0x80 && specialASCII[Int($0)]) || $0 == 0xF4 }) {
      return word
    }
    var result = ""
    for scalar in word.unicodeScalars {
      if let byte = FileSystemName.rawByte(scalar) {
        result += "\\x" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
        continue
      }
      if special.contains(scalar) { result += "\\" }
      result.unicodeScalars.append(scalar)
    }
    return result
  }

  /// Splits a `-c` script into commands at unquoted, unescaped `;` and newlines. In a caption
  /// typed as text (`isTextCommand`), quotes are characters like any other.
  public static func splitCommands(
    _ script: String, isTextCommand: (String) -> Bool = { _ in false }
  ) -> [String] {
    var commands: [String] = []
    var current = ""
    var quote: Character?
    var escaping = false
    for character in script {
      if escaping {
        escaping = false
        current.append(character)
        continue
      }
      if character == "\\" && quote != "'" {
        escaping = true
        current.append(character)
        continue
      }
      if quote == nil, character == "'" || character == "\"",
        textCommand(current + String(character), isTextCommand: isTextCommand) != nil
      {
        current.append(character)
        continue
      }
      if let open = quote {
        if character == open { quote = nil }
        current.append(character)
        continue
      }
      if character == "'" || character == "\"" {
        quote = character
        current.append(character)
      } else if character == ";" || character == "\n" || character == "\r\n" {
        commands.append(current)
        current = ""
      } else {
        current.append(character)
      }
    }
    commands.append(current)
    return commands.filter { !$0.allSatisfy(\.isWhitespace) }
  }
}

extension String {
  /// The string with `0`s before it up to `width` characters.
  fileprivate func leftPadded(to width: Int) -> String {
    String(repeating: "0", count: max(0, width - count)) + self
  }
}
