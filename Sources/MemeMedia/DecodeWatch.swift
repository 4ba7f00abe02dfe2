import CMemeshCodec
import Dispatch
import Foundation
import MemeCore

/// Lets a second thread follow one decode: it is handed the pixel buffer just before the
/// decoder writes it (to map its pages in) and then sees the rows as they are finished (to
/// reduce the preview proxy from them). `MemeRenderer.loadPicture` uses it; the buffer is only
/// read (or mapped in) by the watcher, never written, and the lock guards the hand-over, which
/// is why the class is `@unchecked Sendable`.
final class DecodeWatch: @unchecked Sendable {
  /// The buffer being decoded into, upright or not.
  struct Target {
    var address: UInt
    var byteCount: Int
    var size: PixelSize
    /// The EXIF orientation the decoded rows will be turned by afterwards (2…8; others: none).
    var orientation: Int
    var format: ImageFormat

    var base: UnsafeMutableRawPointer? { UnsafeMutableRawPointer(bitPattern: address) }
  }

  /// Rows finished so far (nil when out of memory: then nothing is followed).
  let progress: OpaquePointer?
  private let handed = DispatchSemaphore(value: 0)
  private let released = DispatchSemaphore(value: 0)
  private let lock = NSLock()
  private var isHanded = false
  private var target: Target?

  init() {
    progress = memesh_progress_new()
  }

  deinit { memesh_progress_free(progress) }

  /// Hands the buffer over (nil: there is none); only the first call counts.
  func hand(_ target: Target?) {
    lock.lock()
    defer { lock.unlock() }
    guard !isHanded else { return }
    isHanded = true
    self.target = target
    handed.signal()
  }

  /// Lets a waiting watcher go whatever the decoder did (call when the decode has returned).
  func finish(failed: Bool) {
    hand(nil)
    memesh_progress_finish(progress, failed ? 1 : 0)
  }

  /// The watcher is done reading the buffer (call once, whatever it did).
  func release() { released.signal() }

  /// Waits until the watcher no longer reads the buffer: a failed decode frees it.
  func waitForRelease() { released.wait() }

  /// Waits for the hand-over.
  func waitForTarget() -> Target? {
    handed.wait()
    lock.lock()
    defer { lock.unlock() }
    return target
  }
}
