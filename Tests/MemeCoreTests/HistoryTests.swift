import MemeCore
import Testing

@Suite struct HistoryTests {
  @Test func undoAndRedoMoveSnapshots() {
    var history = History(initial: 0, label: "start")
    history.record(1, label: "one")
    history.record(2, label: "two")
    #expect(history.undo() == "two")
    #expect(history.state == 1)
    #expect(history.redo() == "two")
    #expect(history.state == 2)
  }

  @Test func recordingClearsTheFuture() {
    var history = History(initial: 0)
    history.record(1, label: "one")
    history.undo()
    history.record(5, label: "five")
    #expect(!history.canRedo)
    #expect(history.steps.all.map(\.state) == [0, 5])
  }

  @Test func recordingTheSameStateIsNotAStep() {
    var history = History(initial: 3)
    history.record(3, label: "same")
    #expect(!history.canUndo)
  }

  @Test func pastIsBounded() {
    var history = History(initial: 0, limit: 5)
    for value in 1...20 { history.record(value, label: "\(value)") }
    #expect(history.past.count == 5)
    #expect(history.past.first?.state == 15)
  }
}
