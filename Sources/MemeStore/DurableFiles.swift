import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Crash-safe file changes on top of a `StoreFileSystem`: every write goes to a temporary file,
/// is flushed, renamed into place, and the directory is flushed.
struct DurableFiles: Sendable {
  /// Prefix of temporary files; anything starting with it is a leftover when no one holds the lock.
  static let temporaryPrefix = ".tmp-"

  let fileSystem: any StoreFileSystem

  /// Writes `data` to `path` atomically: temporary file, fsync, rename, and (unless the caller
  /// batches it) fsync of the directory. On failure the old file, if any, is untouched.
  func write(_ data: Data, to path: String, synchronizingDirectory: Bool = true) throws {
    let directory = (path as NSString).deletingLastPathComponent
    let name = (path as NSString).lastPathComponent
    let temporary = directory + "/" + Self.temporaryPrefix + name + "-" + Self.randomToken()
    do {
      try fileSystem.createFile(atPath: temporary, contents: data)
    } catch {
      try? fileSystem.removeItem(atPath: temporary)
      throw StoreError.fileSystem(action: "write", path: path, reason: error.reason)
    }
    do {
      try fileSystem.synchronizeFile(atPath: temporary)
    } catch {
      try? fileSystem.removeItem(atPath: temporary)
      throw StoreError.fileSystem(action: "sync", path: path, reason: error.reason)
    }
    do {
      try fileSystem.rename(atPath: temporary, toPath: path)
    } catch {
      try? fileSystem.removeItem(atPath: temporary)
      throw StoreError.fileSystem(action: "rename into place", path: path, reason: error.reason)
    }
    if synchronizingDirectory { try synchronizeDirectory(directory) }
  }

  /// Puts a second name of the file `source` at `path` when `source` holds exactly `data`: no
  /// bytes are copied. Only for files never changed in place (written once by temporary file and
  /// rename, as the draft's pictures are), so a later change or removal of either name leaves the
  /// other as it was. The link is made under a temporary name, checked (a regular file with these
  /// very bytes), flushed and renamed into place; the caller flushes the directory. False, with
  /// nothing left behind, when any step fails (another file system, no such file, other bytes):
  /// the caller then writes the bytes.
  func link(_ source: String, to path: String, holding data: Data) -> Bool {
    let directory = (path as NSString).deletingLastPathComponent
    let name = (path as NSString).lastPathComponent
    let temporary = directory + "/" + Self.temporaryPrefix + name + "-" + Self.randomToken()
    do {
      try fileSystem.linkFile(atPath: source, toPath: temporary)
    } catch {
      return false
    }
    guard Self.file(atPath: temporary, holds: data),
      (try? fileSystem.synchronizeFile(atPath: temporary)) != nil,
      (try? fileSystem.rename(atPath: temporary, toPath: path)) != nil
    else {
      removeQuietly(temporary)
      return false
    }
    return true
  }

  /// Whether `path` is a regular file (not a symlink) whose bytes are `data`'s, read in chunks.
  static func file(atPath path: String, holds data: Data) -> Bool {
    let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
      Int(status.st_size) == data.count
    else { return false }
    let chunk = 1 << 20
    let buffer = UnsafeMutableRawPointer.allocate(byteCount: chunk, alignment: 16)
    defer { buffer.deallocate() }
    return data.withUnsafeBytes { expected -> Bool in
      var offset = 0
      while offset < expected.count {
        let count = systemRead(descriptor, buffer, min(chunk, expected.count - offset))
        if count < 0, errno == EINTR { continue }
        guard count > 0, let base = expected.baseAddress,
          memcmp(buffer, base + offset, count) == 0
        else { return false }
        offset += count
      }
      return systemRead(descriptor, buffer, 1) == 0
    }
  }

  /// Flushes a directory so the renames and creations in it survive a crash.
  func synchronizeDirectory(_ path: String) throws {
    do {
      try fileSystem.synchronizeDirectory(atPath: path)
    } catch {
      throw StoreError.fileSystem(action: "sync", path: path, reason: error.reason)
    }
  }

  /// Renames a file or directory (not synced: callers flush both directories).
  func rename(_ source: String, to destination: String) throws {
    do {
      try fileSystem.rename(atPath: source, toPath: destination)
    } catch {
      throw StoreError.fileSystem(action: "move", path: source, reason: error.reason)
    }
  }

  /// Creates a directory when missing.
  func makeDirectory(_ path: String) throws {
    do {
      try fileSystem.createDirectory(atPath: path)
    } catch {
      throw StoreError.fileSystem(action: "create", path: path, reason: error.reason)
    }
  }

  /// Removes a file or directory tree.
  func remove(_ path: String) throws {
    do {
      try fileSystem.removeItem(atPath: path)
    } catch {
      throw StoreError.fileSystem(action: "remove", path: path, reason: error.reason)
    }
  }

  /// Removes what it can; for cleanups whose failure changes nothing the user relies on.
  func removeQuietly(_ path: String) {
    try? fileSystem.removeItem(atPath: path)
  }

  /// Eight random hex digits, for temporary and revision file names.
  static func randomToken() -> String {
    let value = UInt32.random(in: 0...UInt32.max)
    let hex = String(value, radix: 16)
    return String(repeating: "0", count: 8 - hex.count) + hex
  }
}

/// What `lstat` finds at a path (a symlink is reported as such, never followed).
enum FileKind: Equatable {
  case missing
  case file(size: Int)
  case directory
  case symlink
  case other

  init(path: String) {
    var status = stat()
    guard lstat(path, &status) == 0 else {
      self = .missing
      return
    }
    switch status.st_mode & S_IFMT {
    case S_IFREG: self = .file(size: Int(status.st_size))
    case S_IFDIR: self = .directory
    case S_IFLNK: self = .symlink
    default: self = .other
    }
  }
}

/// An advisory lock (`flock`) on a lock file, held around every read-modify-write. The kernel
/// drops it when the process dies, so a crashed session never blocks the next one.
enum StoreLock {
  /// Runs `body` holding the exclusive lock on `path` (created when missing, never deleted).
  static func withExclusiveLock<T>(at path: String, _ body: () throws -> T) throws -> T {
    let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      throw StoreError.fileSystem(
        action: "lock", path: path, reason: FileSystemError(code: errno).reason)
    }
    defer { close(descriptor) }
    while flock(descriptor, LOCK_EX) != 0 {
      if errno != EINTR {
        throw StoreError.fileSystem(
          action: "lock", path: path, reason: FileSystemError(code: errno).reason)
      }
    }
    defer { flock(descriptor, LOCK_UN) }
    return try body()
  }
}

/// A file read whole and kept open (so its inode stays taken), with what `fstat` said of it.
final class OpenedFile: @unchecked Sendable {
  private let descriptor: Int32
  /// The file as `fstat` saw it before the read.
  let identity: FileIdentity
  /// False for a file changed less than `settleTime` seconds before the read: file times are
  /// coarse (a few ms, whole seconds on some file systems), so a change right after the read
  /// could keep the same size and times. A later change to a settled file changes its times.
  let settled: Bool

  private init(descriptor: Int32, identity: FileIdentity, settled: Bool) {
    self.descriptor = descriptor
    self.identity = identity
    self.settled = settled
  }

  deinit { close(descriptor) }

  /// Opens and reads `path`, which must be a regular file.
  static func read(atPath path: String, settleTime: Double = 3) throws(FileSystemError)
    -> (OpenedFile, Data)
  {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
    guard descriptor >= 0 else { throw FileSystemError(code: errno) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      let code = errno
      close(descriptor)
      throw FileSystemError(code: code)
    }
    let changed = max(
      Double(status.st_mtim.tv_sec) + Double(status.st_mtim.tv_nsec) / 1e9,
      Double(status.st_ctim.tv_sec) + Double(status.st_ctim.tv_nsec) / 1e9)
    let file = OpenedFile(
      descriptor: descriptor, identity: FileIdentity(status),
      settled: Date().timeIntervalSince1970 - changed >= settleTime)
    var data = Data(count: Int(status.st_size))
    var total = 0
    while true {
      if total == data.count { data.count += 65536 }
      let count = data.withUnsafeMutableBytes { buffer in
        systemRead(descriptor, buffer.baseAddress.map { $0 + total }, buffer.count - total)
      }
      if count < 0 {
        if errno == EINTR { continue }
        throw FileSystemError(code: errno)
      }
      if count == 0 { break }
      total += count
    }
    data.count = total
    return (file, data)
  }

  /// True while `path` still names this file and it has not changed (size, times).
  func isCurrent(atPath path: String) -> Bool {
    settled && FileIdentity(path: path) == identity
  }
}

/// `read(2)`, named apart from the many `read` methods in scope.
func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int)
  -> Int
{
  read(descriptor, buffer, count)
}

/// The numeric names (meme ids) in a directory, each with whether it is a real directory (not a
/// symlink), read with `readdir` (FileManager builds a string per entry and stats nothing: several
/// times slower on a 10,000-meme store).
func numericEntries(inDirectory path: String) -> [Int: Bool] {
  guard let stream = opendir(path) else { return [:] }
  defer { closedir(stream) }
  var ids: [Int: Bool] = [:]
  while let entry = readdir(stream) {
    let id = withUnsafeBytes(of: entry.pointee.d_name) { bytes -> Int? in
      var value = 0
      var digits = 0
      for byte in bytes {
        if byte == 0 { break }
        guard byte >= 48, byte <= 57, digits < 18, !(digits == 0 && byte == 48) else { return nil }
        value = value * 10 + Int(byte - 48)
        digits += 1
      }
      return digits > 0 ? value : nil
    }
    guard let id else { continue }
    switch Int32(entry.pointee.d_type) {
    case Int32(DT_DIR): ids[id] = true
    case Int32(DT_UNKNOWN): ids[id] = FileKind(path: path + "/\(id)") == .directory
    default: ids[id] = false
    }
  }
  return ids
}
