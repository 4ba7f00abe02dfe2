import Foundation
import MemeSystem

#if canImport(Glibc)
  import Glibc
#endif

/// A `share file` picture written on a thread of its own while the store saves the meme, so the
/// two writes and their fsyncs overlap. Only its temporary file is written (`OutputFile`); the
/// share renames it into place once the store holds the meme (`finish`), or removes it when the
/// store refused the meme (`discard`): the file still appears only after a successful save.
final class PendingOutputFile: Sendable {
  /// The destination.
  let path: String
  /// The temporary file written and the file it becomes, or why it could not be written.
  private let writing: Concurrently<(AtomicFile, String), any Error>

  /// Starts writing `data` beside `path`.
  init(_ data: Data, to path: String) {
    self.path = path
    writing = Concurrently {
      let file = try OutputFile.atomicFile(for: path, command: "share")
      return (file, try OutputFile.writeTemporary(data, to: file, command: "share"))
    }
  }

  /// Waits for the write and moves the file into place; throws what the write or the rename hit.
  func finish() throws {
    let (file, temporary) = try writing.result()
    try OutputFile.moveIntoPlace(temporary, file, command: "share")
  }

  /// Waits for the write and removes what it wrote.
  func discard() {
    if let (file, temporary) = try? writing.result() { file.discard(temporary) }
  }
}

/// The share's output file, started once: from the renderer as soon as the meme's bytes exist
/// (`MemeRendering.render`'s `whenEncoded`), or after the render.
final class OutputFileStart: @unchecked Sendable {
  /// The destination; nil when the share writes no file.
  let path: String?
  private let lock = NSLock()
  /// Set once, under the lock.
  private var started: PendingOutputFile?

  init(_ path: String?) {
    self.path = path
  }

  /// Starts writing `data` unless started already; the file being written (nil without a path).
  @discardableResult
  func start(_ data: Data) -> PendingOutputFile? {
    guard let path else { return nil }
    return lock.withLock {
      if started == nil { started = PendingOutputFile(data, to: path) }
      return started
    }
  }

  /// Removes what a started write wrote (the share saved nothing).
  func discard() {
    lock.withLock { started }?.discard()
  }
}
