import Foundation
import MemeCore
import MemeSystem

#if canImport(Glibc)
  import Glibc
#endif

/// The history file: read once at start, appended to one entry at a time under an exclusive
/// `flock` (so sessions running side by side keep each other's lines), trimmed to `limit`
/// entries by an atomic rename. A file it cannot read or does not recognise is never written.
struct LineEditorHistoryFile {
  /// Why the history file cannot be used; `message` is one line for stderr.
  struct Failure: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
  }

  let url: URL
  /// Entries kept; the file is trimmed back to this many.
  let limit: Int
  /// Files larger than this are refused rather than read.
  static let maximumSize = 16 << 20
  /// Past this size an append also checks whether the file needs trimming.
  static let trimCheckSize = 64 << 10

  private var path: String { url.path }
  private var shownPath: String { LineEditorText.visible(url.path) }

  // MARK: - Reading

  /// The last `limit` entries, oldest first; no file yet is an empty history.
  func load() -> Result<[String], Failure> {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    if descriptor < 0 {
      if errno == ENOENT { return .success([]) }
      return .failure(refusal("cannot be read: \(LineEditorHistoryFile.reason(errno))"))
    }
    defer { Glibc.close(descriptor) }
    flock(descriptor, LOCK_SH)
    do {
      let entries = try entries(in: readAll(descriptor))
      return .success(Array(entries.suffix(limit)))
    } catch {
      return .failure(error)
    }
  }

  /// The entries of a whole file, or why it is not a history file.
  private func entries(in bytes: [UInt8]) throws(Failure) -> [String] {
    if bytes.isEmpty { return [] }
    var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    if lines.last?.isEmpty == true { lines.removeLast() }
    guard let first = lines.first, first.elementsEqual(LineEditorHistoryEncoding.header.utf8)
    else {
      throw refusal("is not a memesh history file (no \(LineEditorHistoryEncoding.header) header)")
    }
    var entries: [String] = []
    for (index, line) in lines.enumerated().dropFirst() {
      guard let entry = LineEditorHistoryEncoding.decode(line) else {
        throw refusal("has a damaged line \(index + 1)")
      }
      entries.append(entry)
    }
    return entries
  }

  private func readAll(_ descriptor: Int32) throws(Failure) -> [UInt8] {
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      throw refusal("cannot be read: \(LineEditorHistoryFile.reason(errno))")
    }
    guard (status.st_mode & S_IFMT) == S_IFREG else { throw refusal("is not a regular file") }
    guard status.st_size <= LineEditorHistoryFile.maximumSize else {
      throw refusal("is larger than \(LineEditorHistoryFile.maximumSize >> 20) MiB")
    }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    var offset: off_t = 0
    while true {
      let count = chunk.withUnsafeMutableBytes {
        pread(descriptor, $0.baseAddress, $0.count, offset)
      }
      if count < 0 && errno == EINTR { continue }
      if count < 0 { throw refusal("cannot be read: \(LineEditorHistoryFile.reason(errno))") }
      if count == 0 { break }
      bytes += chunk[..<count]
      offset += off_t(count)
      if bytes.count > LineEditorHistoryFile.maximumSize {
        throw refusal("is larger than \(LineEditorHistoryFile.maximumSize >> 20) MiB")
      }
    }
    return bytes
  }

  // MARK: - Writing

  /// Appends one entry, creating the folder (0700) and the file (0600) when missing.
  func append(_ line: String) throws(Failure) {
    try makeFolder(url.deletingLastPathComponent().path)
    let descriptor = try openLocked(create: true)
    defer { Glibc.close(descriptor) }
    var status = stat()
    fstat(descriptor, &status)
    var record = ""
    if status.st_size == 0 {
      record = LineEditorHistoryEncoding.header + "\n"
    } else {
      try checkHeader(descriptor)
      var last: UInt8 = 0
      if pread(descriptor, &last, 1, status.st_size - 1) == 1, last != UInt8(ascii: "\n") {
        record = "\n"  // an earlier writer died mid-line: do not glue this entry to it
      }
    }
    record += LineEditorHistoryEncoding.encode(line) + "\n"
    try write(Array(record.utf8), to: descriptor)
    if Int(status.st_size) + record.utf8.count > LineEditorHistoryFile.trimCheckSize {
      try trimLocked(descriptor)
    }
  }

  /// Cuts the file to its last `limit` entries (a no-op when it has no more, or is missing).
  func trim() throws(Failure) {
    guard access(path, F_OK) == 0 else { return }
    let descriptor = try openLocked(create: false)
    defer { Glibc.close(descriptor) }
    try trimLocked(descriptor)
  }

  /// Opens the file and takes the exclusive lock; retries when another session renamed a
  /// trimmed copy into place meanwhile, so nobody appends to a file that is already replaced.
  private func openLocked(create: Bool) throws(Failure) -> Int32 {
    for _ in 0..<8 {
      let flags = create ? (O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC) : (O_RDONLY | O_CLOEXEC)
      let descriptor = open(path, flags, 0o600)
      if descriptor < 0 {
        throw refusal("cannot be written: \(LineEditorHistoryFile.reason(errno))")
      }
      while flock(descriptor, LOCK_EX) != 0 && errno == EINTR {}
      var opened = stat()
      var current = stat()
      if fstat(descriptor, &opened) == 0, stat(path, &current) == 0,
        opened.st_ino == current.st_ino, opened.st_dev == current.st_dev
      {
        return descriptor
      }
      Glibc.close(descriptor)
    }
    throw refusal("keeps being replaced")
  }

  private func checkHeader(_ descriptor: Int32) throws(Failure) {
    let header = Array((LineEditorHistoryEncoding.header + "\n").utf8)
    var start = [UInt8](repeating: 0, count: header.count)
    let count = start.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
    guard count == header.count, start == header else {
      throw refusal("is not a memesh history file (no \(LineEditorHistoryEncoding.header) header)")
    }
  }

  /// Rewrites the locked file with its last `limit` entries when it has more.
  private func trimLocked(_ descriptor: Int32) throws(Failure) {
    let reader = open(path, O_RDONLY | O_CLOEXEC)
    guard reader >= 0 else {
      throw refusal("cannot be read: \(LineEditorHistoryFile.reason(errno))")
    }
    defer { Glibc.close(reader) }
    let entries = try entries(in: readAll(reader))
    if entries.count <= limit { return }
    // Replace the file where it really lives, so a symlinked history stays a symlink.
    let target = url.resolvingSymlinksInPath()
    var text = LineEditorHistoryEncoding.header + "\n"
    for entry in entries.suffix(limit) { text += LineEditorHistoryEncoding.encode(entry) + "\n" }
    do {
      let folder = try Directory.open(target.deletingLastPathComponent().path)
      try AtomicFile(target.lastPathComponent, in: folder, mode: 0o600).write(Data(text.utf8))
    } catch {
      throw refusal("cannot be trimmed: \(error.reason)")
    }
  }

  private func write(_ bytes: [UInt8], to descriptor: Int32) throws(Failure) {
    var remaining = bytes[...]
    while !remaining.isEmpty {
      let count = remaining.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      if count <= 0 { throw refusal("cannot be written: \(LineEditorHistoryFile.reason(errno))") }
      remaining = remaining.dropFirst(count)
    }
  }

  /// Creates `folder` and missing parents with mode 0700.
  private func makeFolder(_ folder: String) throws(Failure) {
    var status = stat()
    if stat(folder, &status) == 0 { return }
    let parent = PathName(folder).folder
    if !parent.isEmpty && parent != folder { try makeFolder(parent) }
    if mkdir(folder, 0o700) != 0 && errno != EEXIST {
      throw Failure(
        message: "history: cannot create '\(LineEditorText.visible(folder))': "
          + LineEditorHistoryFile.reason(errno) + "; history is not saved")
    }
  }

  private func refusal(_ why: String) -> Failure {
    Failure(message: "history: '\(shownPath)' \(why); leaving it alone, history is not saved")
  }

  static func reason(_ code: Int32) -> String {
    SystemError.reason(code)
  }
}
