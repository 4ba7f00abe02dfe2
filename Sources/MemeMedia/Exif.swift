import Foundation

/// Reads the EXIF orientation tag, trusting no offset or count in the file.
public enum Exif {
  /// The orientation (1–8) in a TIFF structure (a JPEG APP1 payload after `Exif\0\0`); 1 when
  /// the tag is missing, malformed or out of range.
  public static func orientation(tiff data: Data) -> Int {
    let bytes = [UInt8](data)
    guard bytes.count >= 8 else { return 1 }
    let littleEndian: Bool
    switch (bytes[0], bytes[1]) {
    case (0x49, 0x49): littleEndian = true
    case (0x4D, 0x4D): littleEndian = false
    default: return 1
    }
    func read16(_ offset: Int) -> Int? {
      guard offset >= 0, offset + 2 <= bytes.count else { return nil }
      let (first, second) = (Int(bytes[offset]), Int(bytes[offset + 1]))
      return littleEndian ? first | second << 8 : first << 8 | second
    }
    func read32(_ offset: Int) -> Int? {
      guard let low = read16(littleEndian ? offset : offset + 2),
        let high = read16(littleEndian ? offset + 2 : offset)
      else { return nil }
      return high << 16 | low
    }
    guard read16(2) == 42, let ifd = read32(4), let count = read16(ifd) else { return 1 }
    // Only the entries that fit in the data are looked at.
    let entries = min(count, max(0, (bytes.count - ifd - 2) / 12))
    for entry in 0..<entries {
      let offset = ifd + 2 + entry * 12
      guard read16(offset) == 0x0112 else { continue }
      // SHORT, count 1, value in the first two bytes of the value field.
      guard read16(offset + 2) == 3, read32(offset + 4) == 1, let value = read16(offset + 8),
        (1...8).contains(value)
      else { return 1 }
      return value
    }
    return 1
  }
}
