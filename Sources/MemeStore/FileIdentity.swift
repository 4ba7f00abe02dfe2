import Foundation

/// What `lstat`/`fstat` say identifies one version of a file: device, inode, size, modification
/// and change times (seconds and nanoseconds).
struct FileIdentity: Equatable, Sendable {
  static let wordCount = 7
  var words: [UInt64]

  init(words: [UInt64]) {
    self.words = words
  }

  init(_ status: stat) {
    words = [
      UInt64(truncatingIfNeeded: status.st_dev), UInt64(truncatingIfNeeded: status.st_ino),
      UInt64(truncatingIfNeeded: status.st_size),
      UInt64(truncatingIfNeeded: status.st_mtim.tv_sec),
      UInt64(truncatingIfNeeded: status.st_mtim.tv_nsec),
      UInt64(truncatingIfNeeded: status.st_ctim.tv_sec),
      UInt64(truncatingIfNeeded: status.st_ctim.tv_nsec),
    ]
  }

  /// The identity of what `path` names itself (not following a symlink); nil when it is missing.
  init?(path: String) {
    var status = stat()
    guard lstat(path, &status) == 0 else { return nil }
    self.init(status)
  }
}
