import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reading a whole file the user named (a picture, the start-up file, a `source` script, a
/// transcript): only a regular file, never waiting on a FIFO, never more than a limit.
public enum WholeFile {
  /// Files larger than this are refused before reading (no file memesh reads whole is this big).
  public static let maxBytes = 1 << 30

  /// The whole file at `path` (raw bytes of its name carried as `FileSystemName` scalars),
  /// failing as a `.read` `SystemError` naming `path`.
  public static func read(path: String, maxBytes: Int = maxBytes) throws(SystemError) -> Data {
    func failed(_ code: Int32) -> SystemError { SystemError(.read, path: path, code: code) }
    let (descriptor, size) = try openRegular(path: path)
    defer { close(descriptor) }
    guard size <= maxBytes else {
      throw SystemError(.read, path: path, code: EFBIG, refusal: .tooLarge(limit: maxBytes))
    }
    // A buffer of exactly the file's size, handed to `Data` without a copy (`Data(count:)`
    // reserves a quarter more, 16 MB on a 64-MB GIF).
    guard size > 0 else { return Data() }
    guard let buffer = Buffer(size) else { throw failed(ENOMEM) }
    var filled = 0
    while filled < size {
      let count = systemRead(descriptor, buffer.start + filled, size - filled)
      if count < 0, errno == EINTR { continue }
      guard count >= 0 else {
        let code = errno
        buffer.free()
        throw failed(code)
      }
      if count == 0 { break }  // The file shrank while being read.
      filled += count
    }
    return buffer.data(count: filled)
  }

  /// The size of the file at `path` and its first `count` bytes (fewer for a shorter file), or
  /// nil when `read(path:)` would fail: a look before reading it.
  public static func head(path: String, count: Int) -> (size: Int, bytes: Data)? {
    guard let (descriptor, size) = try? openRegular(path: path) else { return nil }
    defer { close(descriptor) }
    var bytes = Data(count: max(0, min(count, size)))
    let read = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
    guard read == bytes.count else { return nil }
    return (size, bytes)
  }

  /// Opens `path` for reading if it is a regular file: its descriptor (the caller closes it)
  /// and size.
  private static func openRegular(path: String) throws(SystemError) -> (Int32, Int) {
    func refused(_ refusal: SystemError.Refusal, code: Int32) -> SystemError {
      SystemError(.read, path: path, code: code, refusal: refusal)
    }
    func failed(_ code: Int32) -> SystemError { SystemError(.read, path: path, code: code) }
    let cPath = FileSystemName.cString(path)
    guard cPath.count > 1 else { throw refused(.noName, code: ENOENT) }
    guard !cPath.dropLast().contains(0) else { throw refused(.nulInName, code: EINVAL) }
    // O_NONBLOCK: opening a FIFO must not wait for a writer (it is refused below anyway).
    let descriptor = cPath.withUnsafeBufferPointer { path -> Int32 in
      guard let start = path.baseAddress else { return -1 }
      return open(start, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    }
    guard descriptor >= 0 else { throw failed(errno) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      let code = errno
      close(descriptor)
      throw failed(code)
    }
    switch status.st_mode & S_IFMT {
    case S_IFREG: return (descriptor, Int(status.st_size))
    case S_IFDIR:
      close(descriptor)
      throw failed(EISDIR)
    default:
      close(descriptor)
      throw refused(.notRegularFile, code: EINVAL)
    }
  }

  /// Memory for a file's bytes. A large file's is a `PageMapping` of its own, populated before
  /// the read fills it: page-aligned (so it can be written out again with `O_DIRECT`) and given
  /// back whole when the `Data` goes.
  /// The file itself is never mapped: one cut short while mapped would kill memesh (SIGBUS)
  /// instead of failing the read.
  private struct Buffer {
    /// Below this, `malloc`.
    static let mappedSize = 1 << 20

    let start: UnsafeMutableRawPointer
    /// The mapped length (`size` rounded up to whole pages), 0 for `malloc`'s memory.
    let mappedLength: Int

    init?(_ size: Int) {
      guard size >= Self.mappedSize else {
        guard let address = malloc(size) else { return nil }
        start = address
        mappedLength = 0
        return
      }
      guard let mapping = PageMapping(length: size, populated: true) else { return nil }
      start = mapping.start
      mappedLength = mapping.length
    }

    /// The first `count` bytes as `Data`, which frees the buffer when done with it.
    func data(count: Int) -> Data {
      guard mappedLength > 0 else {
        return Data(bytesNoCopy: start, count: count, deallocator: .free)
      }
      let length = mappedLength
      return Data(
        bytesNoCopy: start, count: count,
        deallocator: .custom { start, _ in _ = munmap(start, length) })
    }

    func free() {
      if mappedLength > 0 { _ = munmap(start, mappedLength) } else { Foundation.free(start) }
    }
  }

  /// The C library's `read`, which `WholeFile.read` would otherwise shadow.
  private static func systemRead(
    _ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int
  ) -> Int {
    #if canImport(Glibc)
      Glibc.read(descriptor, buffer, count)
    #else
      Darwin.read(descriptor, buffer, count)
    #endif
  }
}
