import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Temporary names in folders that are not memesh's (the user's output folder): they carry the
/// writing process's id, so a later memesh can prove a leftover is its own and that its writer
/// is gone before removing it.
extension AtomicFile {
  /// `.<name>.memesh-<pid>-<random>`: hidden, and named after the file it will become.
  public static func userTemporaryName(for name: String) -> String {
    ".\(name).memesh-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
  }

  /// The process id in a name `userTemporaryName` made, or nil for any other name.
  static func writer(ofUserTemporary name: String) -> pid_t? {
    guard name.hasPrefix("."), let marker = name.range(of: ".memesh-", options: .backwards),
      marker.lowerBound > name.index(after: name.startIndex)
    else { return nil }
    let parts = name[marker.upperBound...].split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 2, let pid = pid_t(parts[0]), pid > 0, String(pid) == parts[0],
      let random = UInt32(parts[1]), String(random) == parts[1]
    else { return nil }
    return pid
  }

  /// Removes from `directory` the temporary files of memesh writes whose process is gone (killed
  /// mid-share): regular files this user owns with a name `userTemporaryName` makes. Returns the
  /// names removed.
  @discardableResult
  public static func removeDeadLeftovers(in directory: Directory) -> [String] {
    var removed: [String] = []
    for name in (try? directory.entries()) ?? [] {
      guard let pid = writer(ofUserTemporary: name), pid != getpid(),
        kill(pid, 0) != 0, errno == ESRCH,
        let status = directory.status(of: name), status.st_mode & S_IFMT == S_IFREG,
        status.st_uid == getuid(), unlinkat(directory.descriptor, name, 0) == 0
      else { continue }
      removed.append(name)
    }
    return removed
  }
}
