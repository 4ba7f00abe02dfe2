import Foundation

/// The last file this process wrote once and never changes in place (the draft's picture), with
/// the bytes written and what `fstat` said of it before its name appeared, until its name is
/// removed. A file that is still that very file (same device, inode, size and modification time)
/// holds those bytes: the store links such a file as a meme's original without reading it back
/// from the disk (`DurableFiles.file(_:in:holds:)`). Anything else (another file renamed over the
/// name, a file from an earlier session, a file written again since) is read and compared.
final class WrittenFiles: @unchecked Sendable {
  static let shared = WrittenFiles()
  /// How many are kept (each keeps its bytes alive): the draft's current picture.
  static let kept = 1

  private let lock = NSLock()
  private var recent: [(path: String, version: [UInt64], bytes: Data)] = []

  /// Device, inode, size and modification time: a link or a rename changes only the change time.
  private static func version(_ status: stat) -> [UInt64] {
    Array(FileIdentity(status).words.prefix(5))
  }

  /// Notes that the file `status` describes, named `path`, was written with `bytes` and is not
  /// changed again.
  func record(_ status: stat, path: String, bytes: Data) {
    let version = Self.version(status)
    lock.withLock {
      recent.removeAll { $0.version == version || $0.path == path }
      recent.append((path, version, bytes))
      if recent.count > Self.kept { recent.removeFirst(recent.count - Self.kept) }
    }
  }

  /// Forgets the file named `path` (removed), and its bytes.
  func forget(_ path: String) {
    lock.withLock { recent.removeAll { $0.path == path } }
  }

  /// Whether the file `status` describes is one recorded with exactly `data`'s bytes (compared
  /// in memory; the same buffer at once).
  func holds(_ status: stat, _ data: Data) -> Bool {
    let version = Self.version(status)
    guard let bytes = lock.withLock({ recent.first { $0.version == version }?.bytes }) else {
      return false
    }
    guard bytes.count == data.count else { return false }
    return bytes.withUnsafeBytes { written in
      data.withUnsafeBytes { wanted in
        guard let one = written.baseAddress, let other = wanted.baseAddress else { return true }
        return one == other || memcmp(one, other, wanted.count) == 0
      }
    }
  }
}
