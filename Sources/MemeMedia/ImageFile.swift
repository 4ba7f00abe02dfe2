import Foundation
import MemeCore
import MemeSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reading picture files from disk and turning them into what the editor holds.
public enum ImageFile {
  /// Files larger than this are refused before reading (no picture memesh can show is this big).
  public static let maxFileBytes = 1 << 30

  /// The longest side of the preview proxy made at load.
  public static let proxyDimension = 1024

  /// Reads `path` and decodes it. The bytes are returned exactly as read, for the store.
  public static func load(path: String, limits: DecodeLimits = .default) throws -> (
    bytes: Data, decoded: DecodedImage
  ) {
    let bytes = try read(path: path)
    return (bytes, try ImageCodec.decode(bytes, name: path, limits: limits))
  }

  /// The whole file, or a one-line reason (`no such file`, `is a directory` …).
  public static func read(path: String) throws(ReadError) -> Data {
    try read(cPath: FileSystemName.cString(path), name: path)
  }

  /// A file `read(path:)` could not read: which (as displayed) and why, in a few words.
  public struct ReadError: UserFacingError, Equatable {
    /// The file's name as the user sees it.
    public var name: String
    /// Why: `no such file`, `is a directory`…
    public var reason: String

    /// `cannot load 'cat.png': no such file` (reading is the first step of loading a picture).
    public var message: String { "cannot load '\(name)': \(reason)" }
  }

  private static func read(cPath: [CChar], name: String) throws(ReadError) -> Data {
    func failure(_ reason: String) -> ReadError {
      ReadError(name: ImageCodec.displayName(name), reason: reason)
    }
    guard cPath.count > 1 else { throw ReadError(name: "", reason: "no file name given") }
    // A NUL inside would end the C string early and open a different file.
    guard !cPath.dropLast().contains(0) else {
      throw failure("the file name contains a NUL byte")
    }
    // O_NONBLOCK: opening a FIFO must not wait for a writer (it is refused below anyway).
    let descriptor = cPath.withUnsafeBufferPointer { path -> Int32 in
      guard let start = path.baseAddress else { return -1 }
      return open(start, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    }
    guard descriptor >= 0 else {
      let code = errno
      // A name pasted from a listing that showed bytes that are not UTF-8 as U+FFFD.
      if code == ENOENT, name.contains("\u{FFFD}") {
        throw failure(
          "no such file (a byte that is not UTF-8 is typed as \\xE9, as Tab completes it)")
      }
      throw failure(reason(errno: code))
    }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { throw failure(reason(errno: errno)) }
    switch status.st_mode & S_IFMT {
    case S_IFREG: break
    case S_IFDIR: throw failure("is a directory")
    default: throw failure("not a regular file")
    }
    guard Int(status.st_size) <= maxFileBytes else {
      throw failure("the file is larger than \(maxFileBytes >> 20) MB")
    }
    // A buffer of exactly the file's size, handed to `Data` without a copy (`Data(count:)`
    // reserves a quarter more, 16 MB on a 64-MB GIF).
    let size = Int(status.st_size)
    guard size > 0, let start = malloc(size) else {
      if size > 0 { throw failure("out of memory") }
      return Data()
    }
    var filled = 0
    while filled < size {
      let count = systemRead(descriptor, start + filled, size - filled)
      if count < 0, errno == EINTR { continue }
      guard count >= 0 else {
        let code = errno
        free(start)
        throw failure(reason(errno: code))
      }
      if count == 0 { break }  // The file shrank while being read.
      filled += count
    }
    return Data(bytesNoCopy: start, count: filled, deallocator: .free)
  }

  /// The C library's `read`, which `ImageFile.read` would otherwise shadow.
  private static func systemRead(
    _ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int
  )
    -> Int
  {
    #if canImport(Glibc)
      Glibc.read(descriptor, buffer, count)
    #else
      Darwin.read(descriptor, buffer, count)
    #endif
  }

  /// errno as the short lowercase phrase users know from the shell.
  private static func reason(errno code: Int32) -> String {
    SystemError.reason(code)
  }

  // MARK: - Source pictures

  /// Loads `path` as the editor's picture: upright pixels, the original bytes with their
  /// SHA-256, and a preview proxy (longest side ≤ 1024). Returns the decoder's warnings too.
  public static func sourcePicture(path: String, limits: DecodeLimits = .default) throws -> (
    picture: SourcePicture, warnings: [String]
  ) {
    let (bytes, decoded) = try load(path: path, limits: limits)
    let picture = try sourcePicture(path: path, bytes: bytes, decoded: decoded, limits: limits)
    return (picture, decoded.warnings)
  }

  /// Wraps an already decoded file as a `SourcePicture`, making its proxy (libjpeg's DCT
  /// scaling for JPEG, the area average for other formats).
  public static func sourcePicture(
    path: String, bytes: Data, decoded: DecodedImage, limits: DecodeLimits = .default
  ) throws -> SourcePicture {
    let proxy =
      ImageCodec.adapter(for: decoded.format)?.decodesSmallerCheaply == true
      ? try ImageCodec.decodeProxy(bytes, name: path, maxDimension: proxyDimension, limits: limits)
      : ImageOps.scaled(decoded.image, toFit: proxyDimension, proxyDimension)
    return SourcePicture(
      path: path, originalBytes: bytes, sha256: Checksum.sha256(bytes), format: decoded.format,
      image: decoded.image, proxy: proxy)
  }
}
