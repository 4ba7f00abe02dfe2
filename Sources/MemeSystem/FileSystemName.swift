/// File names as the file system has them: bytes, not always UTF-8 (an old Latin-1 archive's
/// `caf\xE9.jpg`). A Swift `String` holds only Unicode, so a byte that is not part of valid
/// UTF-8 is carried as one scalar of its own, U+10FF00 + the byte, from the last 256 code points
/// of the private use plane 16 (names never hold those); every call that hands a name to the
/// system turns such scalars back into their bytes. The shell shows and takes them as `\xE9`.
public enum FileSystemName {
  /// The scalar standing for raw byte 0.
  static let rawBase: UInt32 = 0x10_FF00

  /// The raw byte `scalar` stands for, or nil for an ordinary character.
  public static func rawByte(_ scalar: Unicode.Scalar) -> UInt8? {
    scalar.value >= rawBase ? UInt8(truncatingIfNeeded: scalar.value - rawBase) : nil
  }

  /// The scalar that stands for `byte` in a name.
  public static func scalar(forRawByte byte: UInt8) -> Unicode.Scalar {
    Unicode.Scalar(rawBase + UInt32(byte)) ?? "\u{FFFD}"
  }

  /// Whether `name` holds a raw byte (cheap: such scalars start with the UTF-8 byte F4).
  public static func hasRawBytes(_ name: String) -> Bool {
    name.utf8.contains(0xF4) && name.unicodeScalars.contains { rawByte($0) != nil }
  }

  /// A name read from the system: valid UTF-8 as its characters, every other byte as its raw
  /// scalar.
  public static func string(_ bytes: some Collection<UInt8>) -> String {
    if let text = String(validating: bytes, as: UTF8.self), !text.utf8.contains(0xF4) {
      return text
    }
    let bytes = Array(bytes)
    var result = String.UnicodeScalarView()
    var index = 0
    while index < bytes.count {
      let lead = bytes[index]
      let length =
        switch lead {
        case 0..<0x80: 1
        case 0xC2...0xDF: 2
        case 0xE0...0xEF: 3
        case 0xF0...0xF4: 4
        default: 0
        }
      // One whole, valid sequence (no overlong form, no surrogate) is one character; a name
      // holding the stand-in scalars themselves keeps them as raw bytes.
      if length > 0, index + length <= bytes.count,
        let decoded = String(validating: bytes[index..<index + length], as: UTF8.self),
        let scalar = decoded.unicodeScalars.first, rawByte(scalar) == nil
      {
        result.append(scalar)
        index += length
      } else if length > 0, index + length <= bytes.count,
        String(validating: bytes[index..<index + length], as: UTF8.self) != nil
      {
        for byte in bytes[index..<index + length] { result.append(scalar(forRawByte: byte)) }
        index += length
      } else {
        result.append(scalar(forRawByte: lead))
        index += 1
      }
    }
    return String(result)
  }

  /// The bytes the system gets for `name`: raw scalars as their byte, the rest as UTF-8.
  public static func bytes(_ name: String) -> [UInt8] {
    guard hasRawBytes(name) else { return Array(name.utf8) }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(name.utf8.count)
    for scalar in name.unicodeScalars {
      if let byte = rawByte(scalar) {
        bytes.append(byte)
      } else {
        bytes.append(contentsOf: String(scalar).utf8)
      }
    }
    return bytes
  }

  /// `bytes(name)` as a NUL-terminated C string.
  public static func cString(_ name: String) -> [CChar] {
    bytes(name).map { CChar(bitPattern: $0) } + [0]
  }
}
