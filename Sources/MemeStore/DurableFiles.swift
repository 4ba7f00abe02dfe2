import Foundation
import MemeSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Crash-safe changes inside one of memesh's own folders (the store's `memes`, the draft's
/// folder), through `FileOperations`. Paths are absolute for messages and must lie under `root`:
/// each is reached from the root folder, opened once, by `openat` of one folder after another,
/// never through a symlink. A path outside the root, or through a symlink, is refused.
final class DurableFiles: @unchecked Sendable {
  /// Prefix of temporary names; anything starting with it is a leftover when no one holds the
  /// lock.
  static let temporaryPrefix = AtomicFile.temporaryPrefix

  let operations: any FileOperations
  /// The folder every path lies in (`<home>/memes`, `<home>/draft`).
  let root: String
  private let lock = NSLock()
  private var opened: Directory?

  init(operations: any FileOperations, root: String) {
    self.operations = operations
    self.root = root
  }

  // MARK: - Reaching paths

  /// The root folder, opened once and opened again only when its path names another folder
  /// now (removed or replaced while memesh ran: writing into the old one would lose the files).
  func rootDirectory() throws(SystemError) -> Directory {
    let cached = lock.withLock { opened }
    if let cached, cached.isStill(at: root) { return cached }
    let directory = try Directory.open(root)
    lock.withLock { opened = directory }
    return directory
  }

  /// The path relative to the root (`""` for the root itself); nil when outside it.
  func relative(_ path: String) -> String? {
    if path == root { return "" }
    guard path.hasPrefix(root + "/") else { return nil }
    let rest = String(path.dropFirst(root.count + 1))
    let parts = rest.split(separator: "/", omittingEmptySubsequences: false)
    guard !parts.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) else { return nil }
    return rest
  }

  /// The open folder holding `path` and its last name.
  func locate(_ path: String, _ operation: SystemError.Operation) throws(SystemError)
    -> (Directory, String)
  {
    guard let relative = relative(path), !relative.isEmpty else {
      throw SystemError(operation, path: path, code: EPERM)
    }
    let root = try rootDirectory()
    guard let slash = relative.lastIndex(of: "/") else { return (root, relative) }
    let folder = try root.directory(String(relative[..<slash]))
    return (folder, String(relative[relative.index(after: slash)...]))
  }

  /// The open folder `path` (the root or a folder under it).
  func directory(_ path: String) throws(SystemError) -> Directory {
    guard let relative = relative(path) else { throw SystemError(.open, path: path, code: EPERM) }
    let root = try rootDirectory()
    return relative.isEmpty ? root : try root.directory(relative)
  }

  /// What `path` is, not following symlinks (`.missing` when it cannot be reached).
  func kind(_ path: String) -> FileKind {
    guard let (folder, name) = try? locate(path, .read) else {
      return path == root ? FileKind(path: path) : .missing
    }
    return folder.kind(of: name)
  }

  /// The names in the folder `path` (none when it cannot be opened).
  func entries(_ path: String) -> [String] {
    (try? directory(path).entries()) ?? []
  }

  /// Reads the regular file `path` whole.
  func read(_ path: String, limit: Int = Int.max) throws(SystemError) -> Data {
    let (folder, name) = try locate(path, .read)
    return try folder.readFile(name, limit: limit)
  }

  // MARK: - Changes

  /// Writes `data` to `path` atomically (`AtomicFile`): on failure the old file, if any, is
  /// untouched.
  func write(_ data: Data, to path: String, synchronizingDirectory: Bool = true) throws {
    do {
      let (folder, name) = try locate(path, .write)
      try AtomicFile(name, in: folder, operations: operations).write(
        data, synchronizingDirectory: synchronizingDirectory)
    } catch {
      throw StoreError.system(error)
    }
  }

  /// The first half of `write`: `data` written and flushed under a temporary name beside
  /// `path`, returned with the file for `moveIntoPlace`. Nothing is left behind on failure.
  func writeTemporary(_ data: Data, to path: String) throws -> (AtomicFile, String) {
    do {
      let (folder, name) = try locate(path, .write)
      let file = AtomicFile(name, in: folder, operations: operations)
      return (file, try file.writeTemporary(data))
    } catch {
      throw StoreError.system(error)
    }
  }

  /// The second half: the temporary file renamed over `path` (removed on failure) and the
  /// folder flushed.
  func moveIntoPlace(_ temporary: String, _ file: AtomicFile) throws {
    do {
      try file.moveIntoPlace(temporary)
    } catch {
      throw StoreError.system(error)
    }
  }

  /// Writes several new files, each atomically as `write` does (temporary file, fsync, rename),
  /// with their fsyncs overlapped: every temporary file is created first, then all are fsynced
  /// at once, each on a thread of its own, then each is renamed, so every file is whole on disk
  /// before its name appears. One after another, each fsync waits for a journal commit and a
  /// disk flush of its own; made together, the file system serves them with one. The writes and
  /// renames stay on the caller's thread, in a fixed order. The caller flushes the folders. On
  /// failure the temporary files are removed; files already renamed stay, for the caller to
  /// remove with the folder it is building.
  func write(together items: [(data: Data, path: String)]) throws {
    var created: [(file: AtomicFile, temporary: String)] = []
    do throws(SystemError) {
      for item in items {
        let (folder, name) = try locate(item.path, .write)
        let file = AtomicFile(name, in: folder, operations: operations)
        let temporary = AtomicFile.temporaryName(for: name)
        do {
          try operations.createFile(
            temporary, in: folder, contents: item.data, mode: 0o600, flushedNext: true)
        } catch {
          file.discard(temporary)
          throw SystemError(
            error.operation, path: item.path, code: error.code, refusal: error.refusal)
        }
        created.append((file, temporary))
      }
      try synchronizeTogether(created)
      while let (file, temporary) = created.first {
        created.removeFirst()
        try file.moveIntoPlace(temporary, synchronizingDirectory: false)
      }
    } catch {
      for (file, temporary) in created { file.discard(temporary) }
      throw StoreError.system(error)
    }
  }

  /// Fsyncs the temporary files at once (all but the last on threads of their own), waits for
  /// every one, and throws the first failure in their order, named by the file's final name.
  private func synchronizeTogether(_ created: [(file: AtomicFile, temporary: String)])
    throws(SystemError)
  {
    let operations = self.operations
    let failures = Failures(count: created.count)
    let group = DispatchGroup()
    for (position, (file, temporary)) in created.enumerated() {
      let synchronize = { @Sendable in
        do throws(SystemError) {
          try operations.synchronizeFile(temporary, in: file.directory)
        } catch {
          let name = file.directory.path(of: file.name)
          failures.set(
            position,
            SystemError(error.operation, path: name, code: error.code, refusal: error.refusal))
        }
      }
      if position == created.count - 1 {
        synchronize()
      } else {
        group.enter()
        Thread {
          synchronize()
          group.leave()
        }.start()
      }
    }
    group.wait()
    if let failure = failures.first { throw failure }
  }

  /// The fsync failures of `synchronizeTogether`, set from its threads.
  private final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var failures: [SystemError?]

    init(count: Int) {
      failures = Array(repeating: nil, count: count)
    }

    func set(_ position: Int, _ failure: SystemError) {
      lock.withLock { failures[position] = failure }
    }

    /// The first failure in the files' order.
    var first: SystemError? { lock.withLock { failures.compactMap { $0 }.first } }
  }

  /// Writes `data` to `path` atomically without fsync (a derived file: a torn one only costs
  /// time); failures are ignored for the same reason.
  func writeQuickly(_ data: Data, to path: String) {
    guard let (folder, name) = try? locate(path, .write) else { return }
    let temporary = AtomicFile.temporaryName(for: name)
    do {
      try operations.createFile(
        temporary, in: folder, contents: data, mode: 0o600, flushedNext: false)
      try operations.rename(temporary, in: folder, to: name, in: folder)
    } catch {
      try? operations.remove(temporary, in: folder)
    }
  }

  /// Puts a second name of the file `source` at `path` when `source` holds exactly `data`: no
  /// bytes are copied. Only for files never changed in place (written once by temporary file and
  /// rename, as the draft's pictures are), so a later change or removal of either name leaves the
  /// other as it was. The link is made under a temporary name, checked (a regular file with these
  /// very bytes), flushed and renamed into place; the caller flushes the directory. False, with
  /// nothing left behind, when any step fails (another file system, no such file, other bytes):
  /// the caller then writes the bytes.
  func link(_ source: (Directory, String), to path: String, holding data: Data) -> Bool {
    guard let (folder, name) = try? locate(path, .link) else { return false }
    let temporary = AtomicFile.temporaryName(for: name)
    do {
      try operations.link(source.1, in: source.0, to: temporary, in: folder)
    } catch {
      return false
    }
    guard Self.file(temporary, in: folder, holds: data),
      (try? operations.synchronizeFile(temporary, in: folder)) != nil,
      (try? operations.rename(temporary, in: folder, to: name, in: folder)) != nil
    else {
      // The name was made just now by this link: removed even when it links a symlink (which
      // `remove` refuses), as itself, never followed.
      unlinkat(folder.descriptor, temporary, 0)
      return false
    }
    return true
  }

  /// Whether `name` in `folder` is a regular file (not a symlink) whose bytes are `data`'s.
  static func file(_ name: String, in folder: Directory, holds data: Data) -> Bool {
    guard let descriptor = try? folder.openFile(name, O_RDONLY) else { return false }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
      Int(status.st_size) == data.count
    else { return false }
    return data.withUnsafeBytes { DirectIO.file(descriptor, holds: $0) }
  }

  /// Flushes a folder so the renames and creations in it survive a crash.
  func synchronizeDirectory(_ path: String) throws {
    do {
      try operations.synchronize(try directory(path))
    } catch {
      throw StoreError.system(error)
    }
  }

  /// Renames a file or folder within the root (not synced: callers flush both folders).
  func rename(_ source: String, to destination: String) throws {
    do {
      let (from, name) = try locate(source, .move)
      let (to, newName) = try locate(destination, .move)
      try operations.rename(name, in: from, to: newName, in: to)
    } catch {
      throw StoreError.system(error)
    }
  }

  /// Renames `source` to `destination` only when nothing is there (`link` then `unlink` for a
  /// file; for a folder, `rename` after checking, under the caller's lock).
  func renameWithoutReplacing(_ source: String, to destination: String) throws {
    guard kind(destination) == .missing else {
      throw StoreError.system(SystemError(.move, path: destination, code: EEXIST))
    }
    try rename(source, to: destination)
  }

  /// Creates a folder (0700) when missing; refuses a symlink or anything else there.
  func makeDirectory(_ path: String) throws {
    do {
      let (folder, name) = try locate(path, .create)
      try operations.makeDirectory(name, in: folder)
    } catch {
      throw StoreError.system(error)
    }
  }

  /// Removes a file or folder tree that memesh's records name, refusing symlinks.
  func remove(_ path: String) throws {
    do {
      let (folder, name) = try locate(path, .remove)
      try operations.remove(name, in: folder)
    } catch {
      if error.code == ENOENT { return }
      throw StoreError.system(error)
    }
  }

  /// Removes what it can; for cleanups whose failure changes nothing the user relies on.
  func removeQuietly(_ path: String) {
    try? remove(path)
  }

  /// Eight random hex digits, for temporary and revision file names.
  static func randomToken() -> String {
    AtomicFile.randomToken()
  }
}

/// An advisory lock (`flock`) on a lock file, held around every read-modify-write. The kernel
/// drops it when the process dies, so a crashed session never blocks the next one.
enum StoreLock {
  /// Runs `body` holding the exclusive lock on `name` in `folder` (created when missing, never
  /// deleted; a symlink there is refused).
  static func withExclusiveLock<T>(_ name: String, in folder: Directory, _ body: () throws -> T)
    throws -> T
  {
    let descriptor: Int32
    do {
      descriptor = try folder.openFile(name, O_RDWR | O_CREAT, mode: 0o600)
    } catch {
      throw StoreError.system(SystemError(.lock, path: error.path, code: error.code,
        refusal: error.refusal))
    }
    defer { close(descriptor) }
    while flock(descriptor, LOCK_EX) != 0 {
      if errno != EINTR {
        throw StoreError.system(SystemError(.lock, path: folder.path(of: name), code: errno))
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

  /// The largest index memesh reads: 10,000 memes take about 5 MB of XML.
  static let maximumSize = 256 << 20

  /// Opens and reads `path`, which must be a regular file (not a symlink).
  static func read(atPath path: String, settleTime: Double = 3) throws(SystemError)
    -> (OpenedFile, Data)
  {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
    guard descriptor >= 0 else {
      throw errno == ELOOP
        ? SystemError.symlink(.read, path: path) : SystemError(.read, path: path, code: errno)
    }
    var status = stat()
    guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
      Int(status.st_size) <= maximumSize
    else {
      let code = status.st_mode & S_IFMT == S_IFREG ? EFBIG : EISDIR
      close(descriptor)
      throw SystemError(.read, path: path, code: code)
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
      if total == data.count {
        guard total < maximumSize else { throw SystemError(.read, path: path, code: EFBIG) }
        data.count += 65536
      }
      let count = data.withUnsafeMutableBytes { buffer in
        systemRead(descriptor, buffer.baseAddress.map { $0 + total }, buffer.count - total)
      }
      if count < 0 {
        if errno == EINTR { continue }
        throw SystemError(.read, path: path, code: errno)
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

/// The largest meme id memesh hands out or accepts from disk: far more than anyone sends, and
/// small enough that no sum or conversion of it can overflow.
let maximumMemeID = 999_999_999

/// The numeric names (meme ids) in a folder, each with whether it is a real folder (not a
/// symlink), read with `readdir` (FileManager builds a string per entry and stats nothing:
/// several times slower on a 10,000-meme store). Names past `maximumMemeID` are not ids.
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
      return digits > 0 && value <= maximumMemeID ? value : nil
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

/// The meme id a folder name is, when it is one (`"12"`, not `"012"` or `"12a"`).
func memeID(folderName name: String) -> Int? {
  guard let id = Int(name), id > 0, id <= maximumMemeID, String(id) == name else { return nil }
  return id
}
