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
