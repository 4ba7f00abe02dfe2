import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reading and writing past the page cache (`O_DIRECT`) where it pays. The large files memesh
/// writes and then flushes anyway (the draft's copy of a photo, a meme, a shared file) are
/// written so: a buffered write copies every byte into page-cache memory the kernel must first
/// find and clear, on the writing thread, only for the flush to send it to the disk; a direct
/// write has the disk take the bytes where they are and leaves the CPU free meanwhile. Such a
/// file is then not in the cache, so checking its bytes reads directly too (`file(_:holds:)`).
///
/// A direct write needs its buffer address, file offset and length all aligned (`alignment`): the
/// file's whole-4-KB part goes directly, from the caller's bytes when they are aligned, else
/// copied through a small reused aligned buffer, chunk by chunk; the last partial 4 KB goes by an
/// ordinary write. A file system that refuses `O_DIRECT` (when it is set, or on a write or read:
/// `EINVAL`) gets ordinary writes and reads for the rest: the same bytes, the same errors.
public enum DirectIO {
  /// Files from this size on go directly; a direct write waits for the disk, which for a few
  /// pages costs more than copying them.
  public static let threshold = 256 << 10
  /// Of the buffer address, the file offset and the length of every direct write: the page size,
  /// a multiple of every disk's logical block size.
  static let alignment = 4096
  /// Bytes copied and written at a time when the caller's bytes are not aligned.
  static let chunk = 512 << 10

  /// `write(2)`'s shape, so tests can refuse a direct write as a file system would.
  typealias SystemWrite = (Int32, UnsafeRawPointer, Int) -> Int

  /// `O_DIRECT` from `<asm/fcntl.h>`, whose value differs between architectures: Glibc's module
  /// does not export it (it needs `_GNU_SOURCE`). Nil where it is not known: ordinary writes.
  static var directFlag: Int32? {
    #if os(Linux) && (arch(x86_64) || arch(i386))
      return 0o40000
    #elseif os(Linux) && (arch(arm64) || arch(arm))
      return 0o200000
    #else
      return nil
    #endif
  }

  /// Writes all of `bytes` to `descriptor`, a new empty file open for writing at offset 0 (its
  /// offset moves with each write); the errno on failure.
  public static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32? {
    writeAll(bytes, to: descriptor) { descriptor, start, count in
      write(descriptor, start, count)
    }
  }

  static func writeAll(
    _ bytes: UnsafeRawBufferPointer, to descriptor: Int32, using systemWrite: SystemWrite
  ) -> Int32? {
    var offset = 0
    if bytes.count >= threshold {
      switch writeDirectly(bytes, to: descriptor, using: systemWrite) {
      case .success(let written): offset = written
      case .failure(let failure): return failure.code
      }
    }
    return writeOrdinarily(bytes, from: offset, to: descriptor, using: systemWrite)
  }

  /// An errno as an `Error`.
  struct Failure: Error {
    let code: Int32
  }

  /// Writes as much of the whole-4-KB part of `bytes` as the file system takes directly; how
  /// many bytes went (0 when `O_DIRECT` is refused). The descriptor's flags are as before on
  /// return.
  static func writeDirectly(
    _ bytes: UnsafeRawBufferPointer, to descriptor: Int32, using systemWrite: SystemWrite
  ) -> Result<Int, Failure> {
    guard let directFlag, let base = bytes.baseAddress else { return .success(0) }
    let flags = fcntl(descriptor, F_GETFL)
    guard flags >= 0, fcntl(descriptor, F_SETFL, flags | directFlag) == 0 else {
      return .success(0)
    }
    let whole = bytes.count / alignment * alignment
    var written = 0
    var failure: Int32?
    if Int(bitPattern: base) % alignment == 0 {
      (written, failure) = writeAligned(
        base, count: whole, to: descriptor, using: systemWrite)
    } else {
      let buffer = BounceBuffers.shared.take()
      defer { BounceBuffers.shared.give(buffer) }
      while written < whole, failure == nil {
        let count = min(chunk, whole - written)
        buffer.copyMemory(from: base + written, byteCount: count)
        let (went, code) = writeAligned(buffer, count: count, to: descriptor, using: systemWrite)
        written += went
        failure = code
        if went < count { break }
      }
    }
    // Clearing the flag cannot fail on a descriptor it was just set on; if it did, the ordinary
    // writes would be refused (EINVAL) and say so.
    _ = fcntl(descriptor, F_SETFL, flags)
    if let failure { return .failure(Failure(code: failure)) }
    return .success(written)
  }

  /// Direct writes of `count` aligned bytes at `start` until all went, the file system refused
  /// (`EINVAL`: no failure, the rest goes ordinarily) or one wrote short of a whole 4 KB.
  private static func writeAligned(
    _ start: UnsafeRawPointer, count: Int, to descriptor: Int32, using systemWrite: SystemWrite
  ) -> (written: Int, failure: Int32?) {
    var written = 0
    while written < count {
      let went = systemWrite(descriptor, start + written, count - written)
      if went < 0 {
        let code = errno
        if code == EINTR { continue }
        return (written, code == EINVAL ? nil : code)
      }
      written += went
      if went == 0 || went % alignment != 0 { break }
    }
    return (written, nil)
  }

  /// Ordinary writes of `bytes` from `offset` on; the errno on failure.
  static func writeOrdinarily(
    _ bytes: UnsafeRawBufferPointer, from offset: Int, to descriptor: Int32,
    using systemWrite: SystemWrite = { write($0, $1, $2) }
  ) -> Int32? {
    guard let base = bytes.baseAddress else { return nil }
    var offset = offset
    while offset < bytes.count {
      let written = systemWrite(descriptor, base + offset, bytes.count - offset)
      if written < 0 {
        if errno == EINTR { continue }
        return errno
      }
      if written == 0 { return EIO }
      offset += written
    }
    return nil
  }
}

extension DirectIO {
  /// Whether the file `descriptor` (open for reading at offset 0) holds exactly `bytes`, read in
  /// chunks into a reused aligned buffer: directly when they are `threshold` or more (such a file
  /// was written directly, so it is not in the cache) and the file system allows it.
  public static func file(_ descriptor: Int32, holds bytes: UnsafeRawBufferPointer) -> Bool {
    let flags = fcntl(descriptor, F_GETFL)
    var direct = false
    if let directFlag, flags >= 0, bytes.count >= threshold {
      direct = fcntl(descriptor, F_SETFL, flags | directFlag) == 0
    }
    defer { if direct { _ = fcntl(descriptor, F_SETFL, flags) } }
    let buffer = BounceBuffers.shared.take()
    defer { BounceBuffers.shared.give(buffer) }
    var offset = 0
    while true {
      let count = read(descriptor, buffer, chunk)
      if count < 0 {
        // A refused direct read moved nothing: read ordinarily from where it stands.
        if errno == EINVAL, direct, fcntl(descriptor, F_SETFL, flags) == 0 {
          direct = false
          continue
        }
        if errno == EINTR { continue }
        return false
      }
      if count == 0 { return offset == bytes.count }
      guard count <= bytes.count - offset, let base = bytes.baseAddress,
        memcmp(buffer, base + offset, count) == 0
      else { return false }
      offset += count
    }
  }
}

/// The aligned buffers direct writes copy unaligned bytes through and direct reads read into,
/// kept for the process's life and reused (fresh memory costs a page fault per 4 KB): one per
/// thread using one at once.
private final class BounceBuffers: @unchecked Sendable {
  static let shared = BounceBuffers()

  private let lock = NSLock()
  private var idle: [UnsafeMutableRawPointer] = []

  func take() -> UnsafeMutableRawPointer {
    if let buffer = lock.withLock({ idle.popLast() }) { return buffer }
    return UnsafeMutableRawPointer.allocate(
      byteCount: DirectIO.chunk, alignment: DirectIO.alignment)
  }

  func give(_ buffer: UnsafeMutableRawPointer) {
    lock.withLock { idle.append(buffer) }
  }
}
