import Foundation
import MemeCore
import MemeSystem

#if canImport(Glibc)
  import Glibc
#endif

/// Writes the files users ask for (`share file`, `export`, `preview --out`): only regular files,
/// never over a device, FIFO or socket, each written to a temporary file and renamed into place so
/// a failure never leaves half a picture.
enum OutputFile {
  /// `~/x` expanded; other paths as given.
  static func expanded(_ path: String) -> String {
    MemeshPaths.expandingTilde(path, environment: ProcessInfo.processInfo.environment)
  }

  /// What `~` means (`MemeshPaths.userHome`).
  static func homeDirectory(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> String {
    MemeshPaths.userHome(environment: environment)
  }

  /// The path a picture for `path` goes to: into the folder when `path` is one
  /// (`defaultName` inside it).
  static func destination(_ path: String, defaultName: String) -> String {
    let full = expanded(path)
    var status = stat()
    if stat(FileSystemName.cString(full), &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
      return (full.hasSuffix("/") ? full : full + "/") + defaultName
    }
    return full
  }

  /// The format a file name asks for by its extension, when memesh writes it.
  static func format(ofPath path: String) -> ImageFormat? {
    ImageFormat(fileExtension: PathName(path).pathExtension).flatMap {
      $0.isWritable ? $0 : nil
    }
  }

  /// The picture format memesh does not write that `path`'s extension names ("GIF" for
  /// `x.gif`), or nil: writing another format under that name would mislabel it.
  static func unwritableFormat(ofPath path: String) -> String? {
    let ext = PathName(path).pathExtension.lowercased()
    if let format = ImageFormat(fileExtension: ext) { return format.isWritable ? nil : format.name }
    switch ext {
    case "bmp": return "BMP"
    case "tif", "tiff": return "TIFF"
    case "jxl": return "JPEG XL"
    case "svg": return "SVG"
    default: return nil
    }
  }

  /// The formats memesh writes, as words: "PNG, JPEG or WebP".
  static var writableNames: String {
    let names = ImageFormat.writable.map(\.name)
    return names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
  }

  /// Refuses `path` when its extension names a format memesh does not write, saying how to
  /// `fix` it: `share: cannot write 'x.gif': memesh writes PNG, JPEG or WebP, not GIF (…)`.
  static func refuseUnwritableFormat(_ path: String, command: String, fix: String) throws {
    guard let other = unwritableFormat(ofPath: path) else { return }
    throw ShellError.cannotWrite(
      command: command, path: path, reason: "memesh writes \(writableNames), not \(other) (\(fix))")
  }

  /// Why `path` cannot be written at all, or nil: no name, or something there that is not a
  /// regular file (a folder, a device, a FIFO).
  static func refusal(of path: String) -> String? {
    guard !path.isEmpty else { return "no file name given" }
    var status = stat()
    guard stat(FileSystemName.cString(path), &status) == 0 else { return nil }
    switch status.st_mode & S_IFMT {
    case S_IFREG: return nil
    case S_IFDIR: return "is a directory"
    case S_IFCHR, S_IFBLK: return "is a device; memesh only writes regular files"
    case S_IFIFO: return "is a FIFO; memesh only writes regular files"
    default: return "not a regular file"
    }
  }

  /// Writes `data` to `path` atomically; refuses anything but a regular file (or a new name).
  /// A failure is `ShellError.cannotWrite` for `command`.
  static func write(_ data: Data, to path: String, command: String) throws(ShellError) {
    let file = try atomicFile(for: path, command: command)
    try moveIntoPlace(try writeTemporary(data, to: file, command: command), file, command: command)
  }

  /// The atomic file for `path`, in its folder opened once (the user named the path, so a
  /// symlinked folder is followed); refuses a `path` that is not a regular file. Temporary files
  /// of a memesh killed while writing into that folder are removed first (their names prove it).
  static func atomicFile(for path: String, command: String) throws(ShellError) -> AtomicFile {
    if let refusal = refusal(of: path) {
      throw .cannotWrite(command: command, path: path, reason: refusal)
    }
    let folder = PathName(path).folder
    let name = PathName(path).lastComponent
    let directory: Directory
    do {
      directory = try Directory.open(folder, followingSymlink: true)
    } catch {
      throw .cannotWrite(
        command: command, path: path, reason: SystemError.reason(error.code, creating: true))
    }
    AtomicFile.removeDeadLeftovers(in: directory)
    return AtomicFile(name, in: directory, mode: 0o644)
  }

  /// The first half of `write`: writes and flushes `data` to a new temporary file beside the
  /// file and returns the temporary's name.
  static func writeTemporary(
    _ data: Data, to file: AtomicFile, command: String
  ) throws(ShellError) -> String {
    do {
      return try file.writeTemporary(data, temporaryName: AtomicFile.userTemporaryName(for: file.name))
    } catch {
      throw .cannotWrite(
        command: command, path: file.directory.path(of: file.name), reason: error.reason)
    }
  }

  /// The second half of `write`: renames the temporary file into place (removing it on failure).
  static func moveIntoPlace(
    _ temporary: String, _ file: AtomicFile, command: String
  ) throws(ShellError) {
    do {
      try file.moveIntoPlace(temporary)
    } catch {
      throw .cannotWrite(
        command: command, path: file.directory.path(of: file.name), reason: error.reason)
    }
  }

  /// errno in the words of the shell, for a file being written (`SystemError.reason`).
  static func reason(_ code: Int32) -> String {
    SystemError.reason(code, creating: true)
  }
}
