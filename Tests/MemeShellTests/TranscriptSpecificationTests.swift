import Foundation
import Testing

/// Every transcript (`transcripts/*.t`, the shell's specification) through the transcript
/// runner that `make transcripts` uses (`scripts/run-transcripts`, which runs `memesh --check` in
/// a scratch copy of the folder with an empty home), against the `memesh` binary `swift test`
/// built. One test per transcript, named after it.
@Suite struct TranscriptSpecificationTests {
  static let transcripts = EndToEndTests.packageRoot.appendingPathComponent("transcripts")

  /// The transcripts' file names, sorted.
  static let names: [String] =
    ((try? FileManager.default.contentsOfDirectory(atPath: transcripts.path)) ?? [])
    .filter { $0.hasSuffix(".t") }.sorted()

  @Test func theTranscriptsAreFound() {
    // A moved folder would otherwise run no transcript and pass.
    #expect(Self.names.count >= 20)
    #expect(Self.names.contains("help.t"))
  }

  @Test(arguments: names) func transcriptMatches(_ name: String) throws {
    let binary = try #require(EndToEndTests.binary(), "the memesh binary is not built")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = [
      EndToEndTests.packageRoot.appendingPathComponent("scripts/run-transcripts").path,
      binary.path, Self.transcripts.path, name,
    ]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let printed = String(
      decoding: try output.fileHandleForReading.readToEnd() ?? Data(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "\(name) does not match:\n\(printed)")
    #expect(printed.hasSuffix("transcripts: 1 passed, 0 failed\n"))
  }
}
