import MemeCore
import Testing

@testable import MemeShell

/// `during START-STOP`, the words `text N during` hands over for a box's part of an animation.
@Suite struct AnimationTimeRangeTests {
  @Test(arguments: [
    (["0.5-1.0"], 0.5, 1.0), (["0-0.25"], 0.0, 0.25), (["all"], 0.0, 1.0), (["ALL"], 0.0, 1.0),
    ([".25-.75"], 0.25, 0.75),
  ])
  func rangesAreRead(words: [String], start: Double, stop: Double) throws {
    let range = try Animations.timeRange(words, command: "text")
    #expect(range.start == start && range.stop == stop)
  }

  @Test(arguments: ["1-0.5", "0.5", "0.5-1.5", "-0.1-0.5", "a-b", "0.5-0.5", "nan-1", ""])
  func impossibleRangesAreRefusedInOneLine(word: String) {
    do {
      _ = try Animations.timeRange([word], command: "text")
      Issue.record("'\(word)' was accepted")
    } catch {
      let message = (error as? ShellError)?.message ?? "\(error)"
      #expect(message.hasPrefix("text: '"))
      #expect(message.contains("is not a time range"))
    }
  }
}
