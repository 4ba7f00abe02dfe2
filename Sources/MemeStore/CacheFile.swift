import Foundation

/// The index cache file kept open and read piece by piece with `pread`, so opening a store of
/// 10,000 memes reads its header and tables, and `meme(id:)` one record, not the whole file.
/// The cache is only ever replaced by rename: the open file keeps the bytes it had. Bytes that
/// changed in place anyway can only fail to decode (the XML is read then) — never a crash, as
/// a mapping of a shrunk file would be.
final class CacheFile: @unchecked Sendable {
  private let descriptor: Int32
  /// The file's size when opened.
  let size: Int

  /// Opens `path`, which must be a regular file (not a symlink); nil otherwise.
  init?(path: String) {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
    guard descriptor >= 0 else { return nil }
    var status = stat()
    guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
      close(descriptor)
      return nil
    }
    self.descriptor = descriptor
    self.size = Int(status.st_size)
  }

  deinit { close(descriptor) }

  /// The bytes in `range`; nil when the file is shorter or a read fails.
  func bytes(_ range: Range<Int>) -> Data? {
    guard range.lowerBound >= 0, range.upperBound <= size else { return nil }
    var data = Data(count: range.count)
    var total = 0
    while total < range.count {
      let count = data.withUnsafeMutableBytes { buffer in
        pread(
          descriptor, buffer.baseAddress.map { $0 + total }, range.count - total,
          off_t(range.lowerBound + total))
      }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { return nil }
      total += count
    }
    return data
  }
}
