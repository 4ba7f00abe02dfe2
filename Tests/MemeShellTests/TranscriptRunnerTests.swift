import Foundation
import Testing

@testable import MemeShell

/// Transcripts run in-process against a scratch home.
@Suite struct TranscriptRunnerTests {
  func withShellFactory<T>(_ body: (@escaping (Console) -> Shell) throws -> T) rethrows -> T {
    let home = FileManager.default.temporaryDirectory
      .appendingPathComponent("memesh-runner-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: home) }
    return try body { console in
      Shell(home: home, console: console, settings: Shell.Settings(), environment: [:])
    }
  }

  @Test func matchingTranscriptPassesAndAMismatchFails() {
    let good = Transcript(text: "# comment\n> top hi\n> top\ntop: hi\n> captoin\nerror: ...\n")
    let bad = Transcript(text: "> top hi\n> top\ntop: bye\n")
    withShellFactory { make in
      #expect(TranscriptRunner.check(good, name: "good.t", makeShell: make) == 0)
    }
    withShellFactory { make in
      #expect(TranscriptRunner.check(bad, name: "bad.t", makeShell: make) == 1)
    }
  }

  @Test func recordingTwiceGivesTheSameTranscript() {
    let source = Transcript(text: "# help has blank lines\n> help\n\n# and then\n> info\n")
    let first = withShellFactory { make in
      Transcript.render(TranscriptRunner.run(source, makeShell: make).lines)
    }
    let again = withShellFactory { make in
      Transcript.render(
        TranscriptRunner.run(
          Transcript(text: first.joined(separator: "\n")), makeShell: make
        ).lines)
    }
    #expect(first == again)
    #expect(first.contains("# and then"))
  }
}
