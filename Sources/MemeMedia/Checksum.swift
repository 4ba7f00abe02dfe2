import Crypto
import Foundation

/// Digests of file contents (swift-crypto's SHA-256).
public enum Checksum {
  /// Lowercase hex SHA-256 of `data`.
  public static func sha256(_ data: Data) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var text: [UInt8] = []
    text.reserveCapacity(64)
    for byte in SHA256.hash(data: data) {
      text.append(digits[Int(byte >> 4)])
      text.append(digits[Int(byte & 0x0F)])
    }
    return String(decoding: text, as: UTF8.self)
  }
}
