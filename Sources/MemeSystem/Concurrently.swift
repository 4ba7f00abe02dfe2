import Foundation

/// A value computed on a thread of its own while the caller goes on with other work (an fsync
/// that waits for the disk, beside others; a photo's SHA-256 beside its index); `result()` waits
/// for it. A body that cannot fail (`Failure` is `Never`) gives a `result()` that cannot either.
public final class Concurrently<Value: Sendable, Failure: Error>: @unchecked Sendable {
  private let condition = NSCondition()
  /// Set once by the thread, read under the condition's lock.
  private var outcome: Result<Value, Failure>?

  /// Starts `body` on a new thread.
  public init(_ body: @escaping @Sendable () throws(Failure) -> Value) {
    Thread { [self] in
      let result: Result<Value, Failure>
      do throws(Failure) {
        result = .success(try body())
      } catch {
        result = .failure(error)
      }
      condition.withLock {
        outcome = result
        condition.broadcast()
      }
    }.start()
  }

  /// Waits for the body and returns what it returned, or throws what it threw (every call).
  public func result() throws(Failure) -> Value {
    let finished = condition.withLock { () -> Result<Value, Failure> in
      while true {
        if let outcome { return outcome }
        condition.wait()
      }
    }
    return try finished.get()
  }
}
