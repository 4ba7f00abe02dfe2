import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A failed system call: the errno it set.
public struct FileSystemError: Error, Equatable, Sendable {
  /// The errno value (`ENOSPC`, `EIO`…).
  public var code: Int32

  public init(code: Int32) {
    self.code = code
  }

  /// The C library's words for the code, lowercased: `no space left on device`.
  public var reason: String {
    String(cString: strerror(code)).lowercased()
  }
}

/// The file operations the store uses to change the disk: the seam where tests inject faults
/// (a full disk, a failing fsync, a refused rename). Reads go straight to Foundation.
public protocol StoreFileSystem: Sendable {
  /// Creates `path`, which must not exist, holding `contents` (not yet synced).
  func createFile(atPath path: String, contents: Data) throws(FileSystemError)
  /// Flushes the file at `path` to the disk (`fsync`).
  func synchronizeFile(atPath path: String) throws(FileSystemError)
  /// Atomically renames `source` to `destination`, replacing a file there.
  func rename(atPath source: String, toPath destination: String) throws(FileSystemError)
  /// Flushes the directory at `path`, making renames and creations in it durable.
  func synchronizeDirectory(atPath path: String) throws(FileSystemError)
  /// Creates the directory `path`; succeeds when it already exists as a directory.
  func createDirectory(atPath path: String) throws(FileSystemError)
  /// Removes the file or (recursively) the directory at `path`, not following a symlink.
  func removeItem(atPath path: String) throws(FileSystemError)
  /// Makes `destination` (which must not exist) a second name of the file `source` (`link(2)`:
  /// no bytes copied; a symlink is linked as itself, never followed).
  func linkFile(atPath source: String, toPath destination: String) throws(FileSystemError)
}

extension StoreFileSystem {
  /// `link(2)`, for file systems that do not intercept it.
  public func linkFile(atPath source: String, toPath destination: String)
    throws(FileSystemError)
  {
    guard link(source, destination) == 0 else { throw FileSystemError(code: errno) }
  }
}

/// The real file system, through POSIX calls.
public struct POSIXFileSystem: StoreFileSystem {
  public init() {}

  public func createFile(atPath path: String, contents: Data) throws(FileSystemError) {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw FileSystemError(code: errno) }
    defer { close(descriptor) }
    let failure: Int32? = contents.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = write(
          descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          return errno
        }
        if written == 0 { return EIO }
        offset += written
      }
      return nil
    }
    if let failure { throw FileSystemError(code: failure) }
  }

  public func synchronizeFile(atPath path: String) throws(FileSystemError) {
    try synchronize(path, flags: O_RDONLY)
  }

  public func rename(atPath source: String, toPath destination: String) throws(FileSystemError) {
    #if canImport(Glibc)
      let status = Glibc.rename(source, destination)
    #else
      let status = Darwin.rename(source, destination)
    #endif
    guard status == 0 else { throw FileSystemError(code: errno) }
  }

  public func synchronizeDirectory(atPath path: String) throws(FileSystemError) {
    try synchronize(path, flags: O_RDONLY | O_DIRECTORY)
  }

  public func createDirectory(atPath path: String) throws(FileSystemError) {
    if mkdir(path, 0o755) == 0 { return }
    let code = errno
    var status = stat()
    if code == EEXIST, lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR { return }
    throw FileSystemError(code: code == EEXIST ? ENOTDIR : code)
  }

  public func removeItem(atPath path: String) throws(FileSystemError) {
    var status = stat()
    guard lstat(path, &status) == 0 else {
      if errno == ENOENT { return }
      throw FileSystemError(code: errno)
    }
    if status.st_mode & S_IFMT == S_IFDIR {
      let entries = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
      for entry in entries {
        try removeItem(atPath: path + "/" + entry)
      }
      guard rmdir(path) == 0 || errno == ENOENT else { throw FileSystemError(code: errno) }
    } else {
      guard unlink(path) == 0 || errno == ENOENT else { throw FileSystemError(code: errno) }
    }
  }

  /// Opens `path`, fsyncs it and closes it.
  private func synchronize(_ path: String, flags: Int32) throws(FileSystemError) {
    let descriptor = open(path, flags | O_CLOEXEC)
    guard descriptor >= 0 else { throw FileSystemError(code: errno) }
    defer { close(descriptor) }
    while fsync(descriptor) != 0 {
      if errno != EINTR { throw FileSystemError(code: errno) }
    }
  }
}
