/// Makes user data safe to print: control characters, escape sequences, bidirectional
/// overrides and other invisible format characters are shown escaped (`\x1b`, `\u{202E}`), so
/// nothing a caption, file name or store entry holds can move the cursor, recolor the terminal or
/// reorder the text around it. Forms: `\e` `\a` `\t` `\n` `\r`, `\x00` for other C0 controls and
/// DEL, `\u{9B}` for C1 controls and invisible format characters.
public enum Display {
  /// `text` with every unsafe scalar escaped; tabs and newlines too (one message, one line).
  public static func escaped(_ text: String) -> String {
    // Printable ASCII, nearly every caption and path, needs no look at each scalar
    // (`browse --tsv` escapes tens of thousands of fields).
    if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
    var result = ""
    result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
    for scalar in text.unicodeScalars {
      if let escape = escape(scalar) {
        result += escape
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  /// True when `escaped(text)` would change nothing.
  public static func isSafe(_ text: String) -> Bool {
    text.unicodeScalars.allSatisfy { escape($0) == nil }
  }

  /// The escaped form of one scalar, or nil when it prints as itself.
  static func escape(_ scalar: Unicode.Scalar) -> String? {
    let value = scalar.value
    switch value {
    // The same forms as MemeMedia's `ImageCodec.displayName`, so every message reads alike.
    case 0x1B: return "\\e"
    case 0x07: return "\\a"
    case 0x09: return "\\t"
    case 0x0A: return "\\n"
    case 0x0D: return "\\r"
    case 0x00..<0x20, 0x7F:
      return "\\x" + hex(value, digits: 2)
    case 0x80..<0xA0:
      return "\\u{" + hex(value, digits: 1) + "}"
    // A byte of a file name that is not UTF-8 (`FileSystemName`), as the shell takes it back.
    case 0x10_FF00...0x10_FFFF:
      return "\\x" + hex(value - 0x10_FF00, digits: 2)
    // Bidirectional marks, embeddings, overrides and isolates; line and paragraph separators;
    // the BOM and other invisible characters that can disguise text.
    case 0x200B, 0x200E, 0x200F, 0x202A...0x202E, 0x2028, 0x2029, 0x2060...0x2069,
      0xFEFF, 0xFFF9...0xFFFB, 0x061C, 0x180E:
      return "\\u{" + hex(value, digits: 4) + "}"
    default:
      return nil
    }
  }

  private static func hex(_ value: UInt32, digits: Int) -> String {
    let text = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, digits - text.count)) + text
  }

  /// `text` escaped and cut to at most `limit` terminal columns, ending in "…" when it was
  /// longer (for table cells and messages; see `Display+Columns.swift`).
  public static func cell(_ text: String, limit: Int) -> String {
    truncated(escaped(text), toColumns: limit)
  }

  /// `text` escaped and in single quotes, for messages: `'cat.jpg'`.
  public static func quoted(_ text: String) -> String {
    "'" + escaped(text) + "'"
  }
}
