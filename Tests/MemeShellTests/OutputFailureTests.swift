import Foundation
import Testing

/// A write to stdout that fails is said on stderr and fails the run; a closed pipe is not said.
@Suite struct OutputFailureTests {
  func run(_ commands: String, stdout: FileHandle, home: URL) throws -> (Int32, String) {
    let binary = try #require(EndToEndTests.binary(), "the memesh binary is not built")
    let process = Process()
    process.executableURL = binary
    process.arguments = ["--home", home.path, "-c", commands]
    process.currentDirectoryURL = EndToEndTests.packageRoot.appendingPathComponent("transcripts")
    let errors = Pipe()
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = stdout
    process.standardError = errors
    try process.run()
    let text = try errors.fileHandleForReading.readToEnd() ?? Data()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: text, as: UTF8.self))
  }

  @Test func aFullDiskOnStdoutIsAnError() throws {
    let home = FileManager.default.temporaryDirectory
      .appendingPathComponent("memesh-full-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: home) }
    let null = try #require(FileHandle(forWritingAtPath: "/dev/null"))
    _ = try run("load images/cat.png; top full; share", stdout: null, home: home)
    let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
    let (status, errors) = try run("browse --tsv", stdout: full, home: home)
    #expect(status == 1)
    #expect(errors == "error: cannot write to standard output: no space left on the device\n")
  }
}
