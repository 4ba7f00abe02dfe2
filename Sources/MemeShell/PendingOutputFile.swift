import Foundation
import MemeSystem

#if canImport(Glibc)
  import Glibc
#endif

/// A `share file` picture written on a thread of its own while the store saves the meme, so the
/// two writes and their fsyncs overlap. Only its temporary file is written (`OutputFile`); the
/// share renames it into place once the store holds the meme (`finish`), or removes it when the
/// store refused the meme (`discard`): the file still appears only after a successful save.
final class PendingOutputFile: @unchecked Sendable {
  /// The destination.
  let path: String
  private let condition = NSCondition()
  /// The temporary file written, or why it could not be; nil while the thread runs.
  private var outcome: Result<(AtomicFile, String), any Error>?

  /// Starts writing `data` beside `path`.
  init(_ data: Data, to path: String) {
    self.path = path
    let thread = Thread { [self] in
      let result = Result {
        let file = try OutputFile.atomicFile(for: path, command: "share")
        return (file, try OutputFile.writeTemporary(data, to: file, command: "share"))
      }
      condition.withLock {
        outcome = result
        condition.broadcast()
      }
    }
    thread.start()
  }

  /// Waits for the write and moves the file into place; throws what the write or the rename hit.
  func finish() throws {
    let (file, temporary) = try waitForWrite().get()
    try OutputFile.moveIntoPlace(temporary, file, command: "share")
  }

  /// Waits for the write and removes what it wrote.
  func discard() {
    if case .success(let (file, temporary)) = waitForWrite() { file.discard(temporary) }
  }

  private func waitForWrite() -> Result<(AtomicFile, String), any Error> {
    condition.withLock {
      while true {
        if let outcome { return outcome }
        condition.wait()
      }
    }
  }
}
