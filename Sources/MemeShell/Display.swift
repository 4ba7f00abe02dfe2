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

  /// `text` escaped and cut to `limit` characters with an ellipsis (for table cells).
  public static func cell(_ text: String, limit: Int) -> String {
    let safe = escaped(text)
    guard safe.count > limit, limit > 1 else { return safe }
    return String(safe.prefix(limit - 1)) + "…"
  }

  /// `text` escaped and in single quotes, for messages: `'cat.jpg'`.
  public static func quoted(_ text: String) -> String {
    "'" + escaped(text) + "'"
  }
}

extension Display {
  /// How many terminal columns `text` takes: East Asian wide characters and emoji take two,
  /// combining marks and joiners none (enough to line up tables; not a full wcwidth).
  public static func columns(_ text: String) -> Int {
    var total = 0
    for scalar in text.unicodeScalars {
      let value = scalar.value
      switch scalar.properties.generalCategory {
      case .nonspacingMark, .enclosingMark, .format:
        continue
      default:
        break
      }
      // Variation selectors and skin-tone modifiers join the character before them.
      if value == 0xFE0F || value == 0xFE0E || (0x1F3FB...0x1F3FF).contains(value) { continue }
      switch value {
      case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
        0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
        0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x1FA70...0x1FAFF,
        0x20000...0x3FFFD:
        total += 2
      default:
        total += 1
      }
    }
    return total
  }
}
