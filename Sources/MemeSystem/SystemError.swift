#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A failed system call: what memesh was doing, on which path, and the errno it got. The one
/// place where an errno becomes words (`reason(_:creating:)`), for the store, the draft, the
/// history file and the files users ask for.
public struct SystemError: Error, Equatable, Sendable {
  /// What was being done, as the verb of the message (`cannot write '…'`).
  public enum Operation: String, Sendable {
    case open, read, write, create, remove, move, sync, lock, list, link
    /// Whether a failure means the name could not be made: then a missing part of the path is
    /// a missing folder, not a missing file.
    var makesName: Bool {
      switch self {
      case .write, .create, .move, .link: true
      case .open, .read, .remove, .sync, .lock, .list: false
      }
    }
  }

  public var operation: Operation
  /// The path as the user knows it (the folder's path joined with the name).
  public var path: String
  /// The errno value (`ENOSPC`, `EIO`…); for a refusal, the errno closest to it.
  public var code: Int32
  /// Set when memesh refused the call itself, before or instead of the system failing it.
  public var refusal: Refusal?

  /// What memesh refuses to do to a path, though the system would.
  public enum Refusal: Equatable, Sendable {
    /// A symlink where memesh expects its own file or folder: never followed.
    case symlink
    /// A device, FIFO or socket where a file's bytes are read (a FIFO could wait forever).
    case notRegularFile
    /// A file larger than `limit` bytes where its whole contents are read.
    case tooLarge(limit: Int)
    /// A name with a NUL inside, which would end the C string early and name another file.
    case nulInName
    /// An empty name.
    case noName
  }

  public init(_ operation: Operation, path: String, code: Int32, refusal: Refusal? = nil) {
    self.operation = operation
    self.path = path
    self.code = code
    self.refusal = refusal
  }

  /// A symlink found where memesh expects its own file or folder.
  public static func symlink(_ operation: Operation, path: String) -> SystemError {
    SystemError(operation, path: path, code: ELOOP, refusal: .symlink)
  }

  /// True when the path is a symlink where memesh follows none: refused, never followed.
  public var isSymlink: Bool { refusal == .symlink }

  /// True when the path (or, when making a name, its folder) does not exist.
  public var isMissing: Bool { refusal == nil && code == ENOENT }

  /// Why, in a few lowercase words: `no space left on the device`.
  public var reason: String {
    switch refusal {
    case .symlink: return "it is a symlink, refused"
    case .notRegularFile: return "not a regular file"
    case .tooLarge(let limit): return "the file is larger than \(limit >> 20) MB"
    case .nulInName: return "the file name contains a NUL byte"
    case .noName: return "no file name given"
    case nil: break
    }
    // A name pasted from a listing that showed bytes that are not UTF-8 as U+FFFD.
    if code == ENOENT, !operation.makesName, path.contains("\u{FFFD}") {
      return "no such file (a byte that is not UTF-8 is typed as \\xE9, as Tab completes it)"
    }
    return Self.reason(code, creating: operation.makesName)
  }

  /// One line: `cannot write '/home/me/x.png': no such folder`.
  public var message: String {
    "cannot \(operation.rawValue) '\(path)': \(reason)"
  }

  /// errno in memesh's words, as users know them from the shell. `creating`: the call was making
  /// a new name, so `ENOENT` means its folder is missing.
  public static func reason(_ code: Int32, creating: Bool = false) -> String {
    switch code {
    case ENOENT: creating ? "no such folder" : "no such file"
    case EACCES, EPERM: "permission denied"
    case ENOSPC: "no space left on the device"
    case EDQUOT: "disk quota exceeded"
    case EROFS: "read-only file system"
    case EISDIR: "is a directory"
    case ENOTDIR:
      creating ? "a part of the path is not a folder" : "no such file (a part of the path is not a directory)"
    case ENAMETOOLONG: "file name too long"
    case ELOOP: "too many symbolic links"
    case EEXIST: "it already exists"
    case EIO: "input/output error"
    case ENOMEM: "out of memory"
    default: String(cString: strerror(code)).lowercased()
    }
  }
}
