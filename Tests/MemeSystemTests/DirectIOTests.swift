import Foundation
import Testing

@testable import MemeSystem

/// Large new files go past the page cache (`DirectIO`); what lands on disk must be exactly the
/// bytes given, whatever their alignment, size and file system, and whatever the file system
/// refuses.
@Suite struct DirectIOTests {
  /// Bytes no two offsets of which repeat in a short period, so a chunk written at the wrong
  /// offset shows.
  static func pattern(_ count: Int, seed: UInt32 = 1) -> Data {
    var state = seed
    return Data(
      (0..<count).map { _ in
        state = state &* 1_664_525 &+ 1_013_904_223
        return UInt8(truncatingIfNeeded: state >> 24)
      })
  }

  /// Sizes around the threshold, whole and partial 4 KB tails, several chunks.
  static let sizes = [
    DirectIO.threshold - 1, DirectIO.threshold, DirectIO.threshold + 1,
    1 << 20, 3_568_377, 4 << 20, DirectIO.chunk * 3 + 4095,
  ]

  /// `data`'s bytes at a page-aligned address (as a photo read by `WholeFile` is).
  static func aligned(_ data: Data) -> Data {
    let start = UnsafeMutableRawPointer.allocate(byteCount: max(data.count, 1), alignment: 4096)
    data.withUnsafeBytes { bytes in
      if let base = bytes.baseAddress { start.copyMemory(from: base, byteCount: bytes.count) }
    }
    return Data(
      bytesNoCopy: start, count: data.count, deallocator: .custom { start, _ in start.deallocate() }
    )
  }

  /// `data`'s bytes at an address 16 bytes past a page boundary (as `malloc`'s large blocks are).
  static func unaligned(_ data: Data) -> Data {
    let start = UnsafeMutableRawPointer.allocate(byteCount: data.count + 16, alignment: 4096)
    data.withUnsafeBytes { bytes in
      if let base = bytes.baseAddress {
        (start + 16).copyMemory(from: base, byteCount: bytes.count)
      }
    }
    return Data(
      bytesNoCopy: start + 16, count: data.count,
      deallocator: .custom { _, _ in start.deallocate() })
  }

  /// Writes `data` as `name` through `Directory.createFile` and reads it back.
  static func roundTrip(_ data: Data, in folder: String, name: String = "f") throws -> Data {
    let directory = try Directory.open(folder)
    try directory.createFile(name, contents: data, mode: 0o600)
    let back = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
    var status = stat()
    #expect(stat(folder + "/" + name, &status) == 0 && status.st_mode & 0o777 == 0o600)
    unlink(folder + "/" + name)
    return back
  }

  @Test(arguments: sizes)
  func largeFilesLandByteForByte(size: Int) throws {
    let scratch = try ScratchFolder()
    let bytes = Self.pattern(size, seed: UInt32(size))
    #expect(try Self.roundTrip(Self.aligned(bytes), in: scratch.path) == bytes)
    #expect(try Self.roundTrip(Self.unaligned(bytes), in: scratch.path) == bytes)
    // A slice of a larger Data, at an odd offset.
    let larger = Self.pattern(size + 3, seed: 7)
    let slice = larger[larger.startIndex + 3..<larger.endIndex]
    #expect(try Self.roundTrip(slice, in: scratch.path) == Data(slice))
  }

  /// tmpfs (/dev/shm) keeps its files in the page cache: whatever it makes of O_DIRECT, the bytes
  /// are the same.
  @Test func tmpfsFilesLandByteForByte() throws {
    guard FileKind(path: "/dev/shm") == .directory, access("/dev/shm", W_OK) == 0 else { return }
    let folder = "/dev/shm/memesh-direct-\(getpid())"
    #expect(mkdir(folder, 0o700) == 0)
    defer { rmdir(folder) }
    for size in [DirectIO.threshold, 3_568_377] {
      let bytes = Self.pattern(size, seed: 3)
      #expect(try Self.roundTrip(Self.aligned(bytes), in: folder) == bytes)
      #expect(try Self.roundTrip(Self.unaligned(bytes), in: folder) == bytes)
    }
  }

  /// Whether `descriptor` is open with O_DIRECT now.
  static func isDirect(_ descriptor: Int32) -> Bool {
    guard let flag = DirectIO.directFlag else { return false }
    return fcntl(descriptor, F_GETFL) & flag != 0
  }

  /// Writes `data` to a new file with `write` standing in for the system call, and returns what
  /// `writeAll` said and the file's bytes.
  static func write(
    _ data: Data, in folder: String, using write: DirectIO.SystemWrite
  ) throws -> (Int32?, Data) {
    let path = folder + "/refused"
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    #expect(descriptor >= 0)
    let code = data.withUnsafeBytes {
      DirectIO.writeAll($0, to: descriptor, using: write)
    }
    #expect(!isDirect(descriptor))
    close(descriptor)
    defer { unlink(path) }
    return (code, try Data(contentsOf: URL(fileURLWithPath: path)))
  }

  /// A file system that refuses direct writes (EINVAL) at once, after some chunks, or that writes
  /// short: the rest goes by ordinary writes and the file holds every byte.
  @Test(arguments: [0, 1, 3])
  func refusedDirectWritesFallBackToOrdinaryOnes(directWritesAllowed: Int) throws {
    let scratch = try ScratchFolder()
    let bytes = Self.pattern(3_568_377, seed: 11)
    for data in [Self.aligned(bytes), Self.unaligned(bytes)] {
      var direct = 0
      let (code, back) = try Self.write(data, in: scratch.path) { descriptor, start, count in
        guard Self.isDirect(descriptor) else { return Glibc.write(descriptor, start, count) }
        direct += 1
        guard direct <= directWritesAllowed else {
          errno = EINVAL
          return -1
        }
        return Glibc.write(descriptor, start, min(count, DirectIO.chunk))
      }
      #expect(code == nil)
      #expect(back == bytes)
    }
    var shortWrites = 0
    let (code, back) = try Self.write(Self.aligned(bytes), in: scratch.path) {
      descriptor, start, count in
      guard Self.isDirect(descriptor), shortWrites == 0 else {
        return Glibc.write(descriptor, start, count)
      }
      // Half a block: the file system took part of it; the rest cannot go directly.
      shortWrites += 1
      let fd = open("/proc/self/fd/\(descriptor)", O_WRONLY)
      defer { close(fd) }
      let went = pwrite(fd, start, 2048, 0)
      lseek(descriptor, off_t(went), SEEK_CUR)
      return went
    }
    #expect(shortWrites == 1)
    #expect(code == nil)
    #expect(back == bytes)
  }

  /// A disk that fails a direct write (full, broken) fails the file with that errno, as an
  /// ordinary write would: nothing is written again the other way to hide it.
  @Test func failingDirectWritesFailTheFile() throws {
    let scratch = try ScratchFolder()
    for failure in [ENOSPC, EIO] {
      let (code, _) = try Self.write(Self.unaligned(Self.pattern(1 << 20)), in: scratch.path) {
        descriptor, start, count in
        guard Self.isDirect(descriptor) else { return Glibc.write(descriptor, start, count) }
        errno = failure
        return -1
      }
      #expect(code == failure)
    }
  }

  /// Below the threshold nothing goes directly.
  @Test func smallFilesAreWrittenOrdinarily() throws {
    let scratch = try ScratchFolder()
    let bytes = Self.pattern(DirectIO.threshold - 1)
    var direct = 0
    let (code, back) = try Self.write(Self.aligned(bytes), in: scratch.path) {
      descriptor, start, count in
      if Self.isDirect(descriptor) { direct += 1 }
      return Glibc.write(descriptor, start, count)
    }
    #expect(code == nil && back == bytes && direct == 0)
  }

  /// A large file that goes directly still goes through the named file's creation rules: a
  /// symlink at the name is refused, never followed.
  @Test func aSymlinkAtTheNameIsRefused() throws {
    let scratch = try ScratchFolder()
    let outside = try ScratchFolder()
    symlink(outside.path + "/target", scratch.path + "/f")
    let directory = try Directory.open(scratch.path)
    #expect(throws: SystemError.self) {
      try directory.createFile("f", contents: Self.pattern(1 << 20), mode: 0o600)
    }
    #expect(FileKind(path: outside.path + "/target") == .missing)
  }

  /// `file(_:holds:)` says yes only to the very bytes: read back right after a direct write (so
  /// from the disk), after an ordinary one, on tmpfs, and no to one byte changed, one more or one
  /// fewer.
  @Test(arguments: [DirectIO.threshold - 1, 3_568_377, 4 << 20])
  func checkingAFileComparesEveryByte(size: Int) throws {
    let scratch = try ScratchFolder()
    var folders = [scratch.path]
    let shm = "/dev/shm/memesh-direct-check-\(getpid())-\(size)"
    if FileKind(path: "/dev/shm") == .directory, mkdir(shm, 0o700) == 0 { folders.append(shm) }
    defer { rmdir(shm) }
    let bytes = Self.pattern(size, seed: 5)
    for folder in folders {
      let directory = try Directory.open(folder)
      try directory.createFile("f", contents: bytes, mode: 0o600)
      try directory.createFile("g", contents: bytes, mode: 0o600, flushedNext: false)
      defer {
        unlink(folder + "/f")
        unlink(folder + "/g")
      }
      func holds(_ name: String, _ data: Data) -> Bool {
        let descriptor = open(folder + "/" + name, O_RDONLY | O_CLOEXEC)
        defer { close(descriptor) }
        return data.withUnsafeBytes { DirectIO.file(descriptor, holds: $0) }
      }
      #expect(holds("f", bytes) && holds("g", bytes))
      #expect(holds("f", Self.unaligned(bytes)))
      var changed = bytes
      changed[changed.count - 1] ^= 1
      #expect(!holds("f", changed))
      changed = bytes
      changed[4096] ^= 0x80
      #expect(!holds("f", changed))
      #expect(!holds("f", bytes + Data([0])))
      #expect(!holds("f", bytes.dropLast()))
    }
  }
}
