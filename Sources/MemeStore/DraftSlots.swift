import Foundation
import MemeSystem

#if canImport(Glibc)
  import Glibc
#endif

/// The draft folders this process holds as its session's (`DraftStore`): each by an exclusive
/// `flock` on its `.session` file, kept open until the process ends (the kernel then drops it,
/// also after a crash). Every `DraftStore` of the process shares them, so one session never
/// competes with itself.
enum DraftSlots {
  /// How many draft folders a home can have (`draft`, `draft-2` … `draft-9`).
  static let count = 9

  enum Claim {
    case claimed
    /// Another running session holds it.
    case busy
    /// Its `.session` file cannot be opened (a symlink, no permission).
    case unusable
  }

  private static let lock = NSLock()
  nonisolated(unsafe) private static var held: [String: Int32] = [:]

  /// Whether this process holds the folder `path`.
  static func holds(_ path: String) -> Bool {
    lock.withLock { held[path] != nil }
  }

  /// Takes the folder `path` (which exists) for this process's session, unless another holds it.
  static func claim(_ path: String) -> Claim {
    lock.withLock {
      if held[path] != nil { return .claimed }
      guard let folder = try? Directory.open(path),
        let descriptor = try? folder.openFile(".session", O_RDWR | O_CREAT, mode: 0o600)
      else { return .unusable }
      guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
        close(descriptor)
        return .busy
      }
      held[path] = descriptor
      return .claimed
    }
  }
}
