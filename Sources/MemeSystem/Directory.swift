import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An open folder: every name below it is reached relative to it (`openat`, `unlinkat`,
/// `renameat`, `mkdirat`, `fstatat`) and never through a symlink, as git and SQLite do. Renaming
/// or replacing a folder above it by a symlink cannot redirect what memesh writes.
public final class Directory: @unchecked Sendable {
  /// The open descriptor (`O_DIRECTORY`), closed with the value.
  public let descriptor: Int32
  /// The path it was opened at, for messages.
  public let path: String

  private init(descriptor: Int32, path: String) {
    self.descriptor = descriptor
    self.path = path
  }

  deinit { close(descriptor) }

  /// Opens the folder `path`. With `followingSymlink: false` (memesh's own folders) a symlink
  /// at `path` itself is refused; the folders above it are the user's and may be symlinks.
  public static func open(_ path: String, followingSymlink: Bool = false) throws(SystemError)
    -> Directory
  {
    let flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC | (followingSymlink ? 0 : O_NOFOLLOW)
    let descriptor = Glibc.open(FileSystemName.cString(path.isEmpty ? "." : path), flags)
    guard descriptor >= 0 else {
      let code = errno
      if !followingSymlink, FileKind(path: path) == .symlink {
        throw SystemError.symlink(.open, path: path)
      }
      throw failure(.open, path, code)
    }
    return Directory(descriptor: descriptor, path: path)
  }

  /// `name`'s full path, for messages.
  public func path(of name: String) -> String {
    path.isEmpty || path.hasSuffix("/") ? path + name : path + "/" + name
  }

  /// The folder `name` below this one; `name` may have several components (`trash/12`), each
  /// opened without following a symlink.
  public func directory(_ name: String) throws(SystemError) -> Directory {
    var current = self
    for component in name.split(separator: "/") where component != "." {
      let part = String(component)
      guard part != ".." else { throw SystemError(.open, path: path(of: name), code: EPERM) }
      let descriptor = openat(
        current.descriptor, FileSystemName.cString(part), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
      guard descriptor >= 0 else {
        let code = errno
        // O_DIRECTORY with O_NOFOLLOW says ENOTDIR for a symlink: say what it is.
        if current.kind(of: part) == .symlink {
          throw SystemError.symlink(.open, path: current.path(of: part))
        }
        throw Self.failure(.open, current.path(of: part), code)
      }
      current = Directory(descriptor: descriptor, path: current.path(of: part))
    }
    return current
  }

  /// What `name` is, not following a symlink.
  public func kind(of name: String) -> FileKind {
    guard let status = status(of: name) else { return .missing }
    return FileKind(status)
  }

  /// `fstatat` of `name` itself (a symlink as a symlink); nil when it cannot be read.
  public func status(of name: String) -> stat? {
    var status = stat()
    guard fstatat(descriptor, FileSystemName.cString(name), &status, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
    return status
  }

  /// The folder's own `fstat`.
  public func status() -> stat? {
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { return nil }
    return status
  }

  /// The names in the folder, without `.` and `..`.
  public func entries() throws(SystemError) -> [String] {
    let copy = dup(descriptor)
    guard copy >= 0 else { throw Self.failure(.list, path, errno) }
    guard let stream = fdopendir(copy) else {
      let code = errno
      close(copy)
      throw Self.failure(.list, path, code)
    }
    defer { closedir(stream) }
    rewinddir(stream)
    var names: [String] = []
    while let entry = readdir(stream) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
        FileSystemName.string(bytes.prefix { $0 != 0 })
      }
      if name != "." && name != ".." { names.append(name) }
    }
    return names
  }

  /// Creates the folder `name` (mode 0700: a meme is someone's photo); succeeds when a real
  /// folder is there already, refuses a symlink or anything else.
  public func makeDirectory(_ name: String, mode: mode_t = 0o700) throws(SystemError) {
    if mkdirat(descriptor, FileSystemName.cString(name), mode) == 0 { return }
    let code = errno
    guard code == EEXIST else { throw Self.failure(.create, path(of: name), code) }
    switch kind(of: name) {
    case .directory: return
    case .symlink: throw SystemError.symlink(.create, path: path(of: name))
    default: throw SystemError(.create, path: path(of: name), code: ENOTDIR)
    }
  }

  /// Opens the file `name` with `flags` (`O_NOFOLLOW` added: a symlink is refused).
  public func openFile(_ name: String, _ flags: Int32, mode: mode_t = 0o600) throws(SystemError)
    -> Int32
  {
    let descriptor = openat(self.descriptor, FileSystemName.cString(name), flags | O_NOFOLLOW | O_CLOEXEC, mode)
    guard descriptor >= 0 else {
      let operation: SystemError.Operation = flags & O_CREAT != 0 ? .write : .open
      throw Self.failure(operation, path(of: name), errno)
    }
    return descriptor
  }

  /// Creates the new file `name` (it must not exist) holding `data`, not yet synced. When the
  /// caller flushes it next (`flushedNext`), a large one is written past the page cache
  /// (`DirectIO`).
  public func createFile(
    _ name: String, contents data: Data, mode: mode_t = 0o600, flushedNext: Bool = true
  ) throws(SystemError) {
    let file = try openFile(name, O_WRONLY | O_CREAT | O_EXCL, mode: mode)
    defer { close(file) }
    let failure = data.withUnsafeBytes { bytes in
      flushedNext
        ? DirectIO.writeAll(bytes, to: file) : DirectIO.writeOrdinarily(bytes, from: 0, to: file)
    }
    if let code = failure {
      throw SystemError(.write, path: path(of: name), code: code)
    }
  }

  /// Reads the regular file `name` whole, refusing one larger than `limit` bytes.
  public func readFile(_ name: String, limit: Int = Int.max) throws(SystemError) -> Data {
    let file = try openFile(name, O_RDONLY)
    defer { close(file) }
    var status = stat()
    guard fstat(file, &status) == 0 else { throw Self.failure(.read, path(of: name), errno) }
    guard status.st_mode & S_IFMT == S_IFREG else {
      throw SystemError(.read, path: path(of: name), code: EISDIR)
    }
    guard Int(status.st_size) <= limit else {
      throw SystemError(.read, path: path(of: name), code: EFBIG)
    }
    var data = Data(count: Int(status.st_size))
    var total = 0
    while true {
      if total == data.count {
        guard total < limit else { throw SystemError(.read, path: path(of: name), code: EFBIG) }
        data.count += 65536
      }
      let count = data.withUnsafeMutableBytes { buffer in
        Glibc.read(file, buffer.baseAddress.map { $0 + total }, buffer.count - total)
      }
      if count < 0 {
        if errno == EINTR { continue }
        throw Self.failure(.read, path(of: name), errno)
      }
      if count == 0 { break }
      total += count
    }
    data.count = total
    return data
  }

  /// Flushes the file `name` to the disk.
  public func synchronizeFile(_ name: String) throws(SystemError) {
    let file = try openFile(name, O_RDONLY)
    defer { close(file) }
    if let code = Self.synchronize(file) { throw SystemError(.sync, path: path(of: name), code: code) }
  }

  /// Flushes the folder itself: the names created, renamed and removed in it survive a crash.
  public func synchronize() throws(SystemError) {
    if let code = Self.synchronize(descriptor) { throw SystemError(.sync, path: path, code: code) }
  }

  /// Renames `name` to `newName` in `destination` (`renameat`: neither is followed if a symlink;
  /// a file at `newName` is replaced). Not synced: callers flush both folders.
  public func rename(_ name: String, to newName: String, in destination: Directory? = nil)
    throws(SystemError)
  {
    let target = destination ?? self
    guard renameat(
      descriptor, FileSystemName.cString(name), target.descriptor, FileSystemName.cString(newName)) == 0 else {
      throw Self.failure(.move, path(of: name), errno)
    }
  }

  /// Makes `newName` in `destination` a second name of the file `name` (`linkat` without
  /// `AT_SYMLINK_FOLLOW`: a symlink would be linked as itself, never followed).
  public func link(_ name: String, to newName: String, in destination: Directory? = nil)
    throws(SystemError)
  {
    let target = destination ?? self
    guard linkat(
      descriptor, FileSystemName.cString(name), target.descriptor,
      FileSystemName.cString(newName), 0) == 0 else {
      throw Self.failure(.link, target.path(of: newName), errno)
    }
  }

  /// Removes the file or folder `name`; a folder with everything in it. A symlink, here or
  /// anywhere inside, is refused and left where it is (with whatever the removal had already
  /// taken): memesh removes only what it made, never through or including a link.
  public func remove(_ name: String) throws(SystemError) {
    guard let status = status(of: name) else {
      if errno == ENOENT { return }
      throw Self.failure(.remove, path(of: name), errno)
    }
    switch FileKind(status) {
    case .missing: return
    case .symlink: throw SystemError.symlink(.remove, path: path(of: name))
    case .directory:
      let folder = try directory(name)
      for entry in try folder.entries() { try folder.remove(entry) }
      guard unlinkat(descriptor, FileSystemName.cString(name), AT_REMOVEDIR) == 0 || errno == ENOENT else {
        throw Self.failure(.remove, path(of: name), errno)
      }
    case .file, .other:
      guard unlinkat(descriptor, FileSystemName.cString(name), 0) == 0 || errno == ENOENT else {
        throw Self.failure(.remove, path(of: name), errno)
      }
    }
  }

  /// Whether this handle and `path` name the same folder now (the path was not replaced).
  public func isStill(at path: String) -> Bool {
    var named = stat()
    guard let own = status(), lstat(FileSystemName.cString(path), &named) == 0 else { return false }
    return own.st_dev == named.st_dev && own.st_ino == named.st_ino
      && named.st_mode & S_IFMT == S_IFDIR
  }

  // MARK: - Descriptors

  /// `fsync`, retried on `EINTR`; the errno on failure.
  public static func synchronize(_ descriptor: Int32) -> Int32? {
    while fsync(descriptor) != 0 {
      if errno != EINTR { return errno }
    }
    return nil
  }

  /// `ELOOP` from `O_NOFOLLOW` is a symlink refused, said so; other codes as they are.
  static func failure(_ operation: SystemError.Operation, _ path: String, _ code: Int32)
    -> SystemError
  {
    code == ELOOP ? .symlink(operation, path: path) : SystemError(operation, path: path, code: code)
  }
}

/// What `lstat`/`fstatat` find at a name (a symlink as such, never followed).
public enum FileKind: Equatable, Sendable {
  case missing
  case file(size: Int)
  case directory
  case symlink
  case other

  public init(_ status: stat) {
    switch status.st_mode & S_IFMT {
    case S_IFREG: self = .file(size: Int(status.st_size))
    case S_IFDIR: self = .directory
    case S_IFLNK: self = .symlink
    default: self = .other
    }
  }

  /// What `path` names itself.
  public init(path: String) {
    var status = stat()
    guard lstat(FileSystemName.cString(path), &status) == 0 else {
      self = .missing
      return
    }
    self.init(status)
  }
}
