import Foundation

extension ImageCodec {
  /// A file name as it may appear in a message on a terminal: control characters, DEL, C1
  /// controls and bidirectional overrides are shown as escapes (`\e[31m`), never sent raw.
  public static func displayName(_ name: String) -> String {
    var shown = ""
    for scalar in name.unicodeScalars {
      switch scalar.value {
      case 0x1B: shown += "\\e"
      case 0x07: shown += "\\a"
      case 0x09: shown += "\\t"
      case 0x0A: shown += "\\n"
      case 0x0D: shown += "\\r"
      case 0x00..<0x20, 0x7F: shown += String(format: "\\x%02X", scalar.value)
      case 0x80..<0xA0, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
        shown += String(format: "\\u{%X}", scalar.value)
      case 0x10_FF00...0x10_FFFF:
        shown += String(format: "\\x%02X", scalar.value - 0x10_FF00)
      default: shown.unicodeScalars.append(scalar)
      }
    }
    return shown
  }
}
