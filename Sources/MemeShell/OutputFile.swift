import Foundation
import MemeCore

#if canImport(Glibc)
  import Glibc
#endif

/// Writes the files users ask for (`share file`, `export`, `preview --out`): only regular files,
/// never over a device, FIFO or socket, each written to a temporary file and renamed into place so
/// a failure never leaves half a picture.
enum OutputFile {
  /// `~/x` expanded; other paths as given.
  static func expanded(_ path: String) -> String {
    if path == "~" { return homeDirectory() }
    if path.hasPrefix("~/") { return homeDirectory() + path.dropFirst() }
    return path
  }

  /// What `~` means: `$HOME` when it is an absolute path, as in every shell; else the account's
  /// home directory.
  static func homeDirectory(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> String {
    if let home = environment["HOME"], home.hasPrefix("/") { return home }
    return NSHomeDirectory()
  }

  /// The path a picture for `path` goes to: into the folder when `path` is one
  /// (`defaultName` inside it).
  static func destination(_ path: String, defaultName: String) -> String {
    let full = expanded(path)
    var status = stat()
    if stat(full, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
      return (full.hasSuffix("/") ? full : full + "/") + defaultName
    }
    return full
  }

  /// The format a file name asks for by its extension, if any.
  static func format(ofPath path: String) -> ImageFormat? {
    let ext = PathName(path).pathExtension.lowercased()
    switch ext {
    case "png": return .png
    case "jpg", "jpeg", "jpe", "jfif": return .jpeg
    default: return nil
    }
  }

  /// The picture format memesh does not write that `path`'s extension names ("GIF" for
  /// `x.gif`), or nil: writing a PNG or a JPEG under that name would mislabel it.
  static func unwritableFormat(ofPath path: String) -> String? {
    switch PathName(path).pathExtension.lowercased() {
    case "gif": "GIF"
    case "webp": "WebP"
    case "bmp": "BMP"
    case "tif", "tiff": "TIFF"
    case "heic", "heif": "HEIC"
    case "avif": "AVIF"
    case "jxl": "JPEG XL"
    case "svg": "SVG"
    default: nil
    }
  }

  /// Refuses `path` when its extension names a format memesh does not write, saying how to
  /// `fix` it: `share: cannot write 'x.gif': memesh writes PNG or JPEG, not GIF (…)`.
  static func refuseUnwritableFormat(_ path: String, command: String, fix: String) throws {
    guard let other = unwritableFormat(ofPath: path) else { return }
    throw ShellError(
      "\(command): cannot write '\(path)': memesh writes PNG or JPEG, not \(other) (\(fix))")
  }

  /// Why `path` cannot be written at all, or nil: no name, or something there that is not a
  /// regular file (a folder, a device, a FIFO).
  static func refusal(of path: String) -> String? {
    guard !path.isEmpty else { return "no file name given" }
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    switch status.st_mode & S_IFMT {
    case S_IFREG: return nil
    case S_IFDIR: return "is a directory"
    case S_IFCHR, S_IFBLK: return "is a device; memesh only writes regular files"
    case S_IFIFO: return "is a FIFO; memesh only writes regular files"
    default: return "not a regular file"
    }
  }

  /// Writes `data` to `path` atomically; refuses anything but a regular file (or a new name).
  static func write(_ data: Data, to path: String) throws {
    try moveIntoPlace(try writeTemporary(data, for: path), path)
  }

  /// The first half of `write`: writes and flushes `data` to a new temporary file beside `path`
  /// (after refusing a `path` that is not a regular file) and returns the temporary's path.
  static func writeTemporary(_ data: Data, for path: String) throws -> String {
    if let refusal = refusal(of: path) { throw failure(path, refusal) }
    let folder = PathName(path).folder
    let name = PathName(path).lastComponent
    let temporary =
      (folder.isEmpty ? "" : folder + "/")
      + ".\(name).memesh-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw failure(path, reason(errno)) }
    var closed = false
    defer {
      if !closed { close(descriptor) }
    }
    var offset = 0
    let result: Int32 = data.withUnsafeBytes { buffer -> Int32 in
      guard let base = buffer.baseAddress else { return 0 }
      while offset < buffer.count {
        let written = Glibc.write(descriptor, base + offset, buffer.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          return errno
        }
        offset += written
      }
      return fsync(descriptor) == 0 ? 0 : errno
    }
    closed = true
    let closeStatus = close(descriptor)
    let closeErrno = errno
    guard result == 0, closeStatus == 0 else {
      unlink(temporary)
      throw failure(path, reason(result != 0 ? result : closeErrno))
    }
    return temporary
  }

  /// The second half of `write`: renames the temporary file into place (removing it on failure).
  static func moveIntoPlace(_ temporary: String, _ path: String) throws {
    guard rename(temporary, path) == 0 else {
      let code = errno
      unlink(temporary)
      throw failure(path, reason(code))
    }
  }

  private static func failure(_ path: String, _ reason: String) -> MemeError {
    MemeError("cannot write '\(path)': \(reason)")
  }

  /// errno in the words of the shell.
  static func reason(_ code: Int32) -> String {
    switch code {
    case ENOENT: "no such folder"
    case EACCES, EPERM: "permission denied"
    case ENOSPC: "no space left on the device"
    case EROFS: "read-only file system"
    case EISDIR: "is a directory"
    case ENOTDIR: "a part of the path is not a folder"
    case ENAMETOOLONG: "file name too long"
    default: String(cString: strerror(code)).lowercased()
    }
  }
}
