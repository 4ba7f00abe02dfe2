/// How one history entry is stored on one line of the history file, in libedit's own format
/// (`_HiStOrY_V2_`, strvis(3)-style escapes) so libedit's `H_LOAD` reads it too.
///
/// Measured with libedit 3.1-20221030: `H_SAVE` writes spaces, tabs, newlines and backslashes as
/// `\040`, `\011`, `\012`, `\134`, C0 controls as `\^X` and other bytes raw; it writes C1
/// controls (U+0080…U+009F) as `\M^X` of their second UTF-8 byte, which it cannot read back.
/// memesh therefore writes every byte of a space, control, format or separator character as an
/// octal escape (lossless, and what libedit decodes), and keeps printable UTF-8 readable.
enum LineEditorHistoryEncoding {
  /// The first line of every history file.
  static let header = "_HiStOrY_V2_"

  /// `line` as one line of the file, without a newline and without raw controls or spaces.
  static func encode(_ line: String) -> String {
    var encoded = ""
    for scalar in line.unicodeScalars {
      if needsEscape(scalar) {
        for byte in String(scalar).utf8 {
          let octal = String(byte, radix: 8)
          encoded += "\\" + String(repeating: "0", count: 3 - octal.count) + octal
        }
      } else {
        encoded.unicodeScalars.append(scalar)
      }
    }
    return encoded
  }

  /// The entry stored as `bytes` (one line without its newline), or nil when it is not a valid
  /// encoding of UTF-8 text.
  static func decode(_ bytes: some Collection<UInt8>) -> String? {
    var decoded: [UInt8] = []
    var iterator = bytes.makeIterator()
    while let byte = iterator.next() {
      if byte == 0 { return nil }
      if byte != UInt8(ascii: "\\") {
        decoded.append(byte)
        continue
      }
      guard let escape = iterator.next() else { return nil }
      switch escape {
      case UInt8(ascii: "0")...UInt8(ascii: "7"):
        var value = Int(escape - UInt8(ascii: "0"))
        for _ in 0..<2 {
          guard let digit = iterator.next(), (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(digit)
          else { return nil }
          value = value * 8 + Int(digit - UInt8(ascii: "0"))
        }
        guard value <= 255 else { return nil }
        decoded.append(UInt8(value))
      case UInt8(ascii: "\\"):
        decoded.append(escape)
      case UInt8(ascii: "^"):
        guard let control = iterator.next() else { return nil }
        decoded.append(control == UInt8(ascii: "?") ? 0x7F : control & 0x1F)
      case UInt8(ascii: "n"): decoded.append(10)
      case UInt8(ascii: "t"): decoded.append(9)
      case UInt8(ascii: "s"): decoded.append(32)
      default:
        return nil
      }
    }
    if decoded.contains(0) { return nil }
    return String(validating: decoded, as: UTF8.self)
  }

  private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
    if scalar == "\\" { return true }
    if scalar.isASCII { return scalar.value <= 0x20 || scalar.value == 0x7F }
    switch scalar.properties.generalCategory {
    case .control, .format, .lineSeparator, .paragraphSeparator, .spaceSeparator, .surrogate,
      .privateUse, .unassigned:
      return true
    default:
      return false
    }
  }
}
