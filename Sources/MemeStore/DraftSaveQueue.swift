import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The process's one writer of background draft saves (`DraftStore.saveInBackground`): saves run
/// on a thread of their own, one at a time, each still a whole `DraftStore.save` (pictures, then
/// the document naming them, each by temporary file, fsync and rename), so the draft on disk is
/// always one whole saved state. A save waiting for its turn is replaced by a newer one of the
/// same draft. Everything that reads or changes a draft otherwise (`load`, `clear`, `save`,
/// `imageData`) first waits until the queue is idle, and so does the process's exit (`atexit`).
final class DraftSaveQueue: @unchecked Sendable {
  /// The queue every `DraftStore` of the process uses.
  static let shared = DraftSaveQueue()

  private struct Job {
    let store: DraftStore
    let document: DraftDocument
    let images: [String: Data]
  }

  private let condition = NSCondition()
  private var jobs: [Job] = []
  private var busy = false
  private var exitHookInstalled = false
  /// Every store that saved in the background, for the report at exit.
  private var stores: [DraftStore] = []

  /// Queues a save of `document` into `store`, replacing one of the same store not yet started.
  func enqueue(_ store: DraftStore, _ document: DraftDocument, images: [String: Data]) {
    let job = Job(store: store, document: document, images: images)
    condition.withLock {
      if !stores.contains(where: { $0 === store }) { stores.append(store) }
      if let waiting = jobs.firstIndex(where: { $0.store === store }) {
        jobs[waiting] = job
      } else {
        jobs.append(job)
      }
      if !exitHookInstalled {
        exitHookInstalled = true
        // Registered after Foundation's own handlers, so it runs before them.
        atexit { DraftSaveQueue.shared.finishAtExit() }
      }
      if !busy {
        busy = true
        Thread { [self] in work() }.start()
      }
    }
  }

  /// Returns once every queued save has finished.
  func waitUntilIdle() {
    condition.withLock {
      while busy { condition.wait() }
    }
  }

  /// Returns once `done` holds or no save is queued or under way. `done` is asked under the
  /// queue's lock, again after each save and each `announceProgress`: a share waits so for the
  /// picture it links, not for the draft document written after it.
  func wait(until done: () -> Bool) {
    condition.withLock {
      while busy && !done() { condition.wait() }
    }
  }

  /// Wakes `wait(until:)` callers: a save has put a file in place.
  func announceProgress() {
    condition.withLock { condition.broadcast() }
  }

  /// Waits for the saves, then reports a last failure no one took.
  private func finishAtExit() {
    waitUntilIdle()
    for store in condition.withLock({ stores }) { store.reportUntakenFailure() }
  }

  private func work() {
    while true {
      let next: Job? = condition.withLock {
        if jobs.isEmpty {
          busy = false
          condition.broadcast()
          return nil
        }
        return jobs.removeFirst()
      }
      guard let job = next else { return }
      let result = Result { try job.store.write(job.document, images: job.images) }
      job.store.finishedBackgroundSave(result)
    }
  }
}
