import Foundation

/// Undo and redo as whole snapshots: `record` pushes the present onto `past` and clears
/// `future`; `undo` and `redo` move snapshots between them. Bounded to `limit` past steps.
public struct History<State: Sendable & Equatable>: Sendable, Equatable {
  /// One step: the state after a change, what the change was (`top "HELLO"`) and when it was
  /// made (nil for the starting state, and for steps saved before memesh kept the time), so
  /// that `undo` can tell it from other kinds of change in one timeline.
  public struct Step: Sendable, Equatable {
    public var label: String
    public var state: State
    public var date: Date?

    public init(label: String, state: State, date: Date? = nil) {
      self.label = label
      self.state = state
      self.date = date
    }
  }

  public private(set) var past: [Step]
  public private(set) var present: Step
  public private(set) var future: [Step]
  public let limit: Int

  public init(initial: State, label: String = "start", limit: Int = 300) {
    self.past = []
    self.present = Step(label: label, state: initial)
    self.future = []
    self.limit = max(1, limit)
  }

  /// Restores a saved history (for example a draft read back from disk).
  public init(past: [Step], present: Step, future: [Step], limit: Int = 300) {
    self.past = Array(past.suffix(max(1, limit)))
    self.present = present
    self.future = future
    self.limit = max(1, limit)
  }

  public var state: State { present.state }
  public var canUndo: Bool { !past.isEmpty }
  public var canRedo: Bool { !future.isEmpty }

  /// Makes `state` the present. A state equal to the present records nothing.
  public mutating func record(_ state: State, label: String, date: Date = Date()) {
    guard state != present.state else { return }
    past.append(present)
    if past.count > limit { past.removeFirst(past.count - limit) }
    present = Step(label: label, state: state, date: date)
    future.removeAll()
  }

  /// Steps back; returns the label of the step undone, or nil when there is nothing to undo.
  @discardableResult
  public mutating func undo() -> String? {
    guard let previous = past.popLast() else { return nil }
    let undone = present
    future.append(undone)
    present = previous
    return undone.label
  }

  /// Steps forward again; returns the label of the step redone, or nil.
  @discardableResult
  public mutating func redo() -> String? {
    guard let next = future.popLast() else { return nil }
    past.append(present)
    present = next
    return next.label
  }

  /// Every step oldest first, with the index of the present one.
  public var steps: (all: [Step], current: Int) {
    (past + [present] + future.reversed(), past.count)
  }
}
