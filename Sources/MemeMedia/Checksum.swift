@preconcurrency import CChafa
import Foundation
import MemeCore

/// Digests of file contents (glib's GChecksum, which comes with libchafa).
public enum Checksum {
  /// Lowercase hex SHA-256 of `data`.
  public static func sha256(_ data: Data) -> String {
    data.withUnsafeBytes { bytes -> String in
      let start = bytes.baseAddress?.assumingMemoryBound(to: guchar.self)
      guard let digest = g_compute_checksum_for_data(G_CHECKSUM_SHA256, start, gsize(bytes.count))
      else { return "" }
      defer { g_free(digest) }
      return String(cString: digest)
    }
  }
}
