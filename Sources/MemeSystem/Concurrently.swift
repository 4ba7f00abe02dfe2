import Foundation

/// A value computed on a thread of its own while the caller goes on with other work (an fsync
/// that waits for the disk, beside others); `result()` waits for it.
public final class Concurrently<Value: Sendable>: @unchecked Sendable {
  private let condition = NSCondition()
  /// Set once by the thread, read under the condition's lock.
  private var outcome: Result<Value, any Error>?

  /// Starts `body` on a new thread.
  public init(_ body: @escaping @Sendable () throws -> Value) {
    Thread { [self] in
      let result = Result { try body() }
      condition.withLock {
        outcome = result
        condition.broadcast()
      }
    }.start()
  }

  /// Waits for the body and returns what it returned, or throws what it threw (every call).
  public func result() throws -> Value {
    let finished = condition.withLock { () -> Result<Value, any Error> in
      while true {
        if let outcome { return outcome }
        condition.wait()
      }
    }
    return try finished.get()
  }
}
