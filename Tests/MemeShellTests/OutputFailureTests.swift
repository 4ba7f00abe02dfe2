import Foundation
import Testing

/// A write to stdout that fails is said on stderr and fails the run; a closed pipe is not said.
@Suite struct OutputFailureTests {
  func run(_ commands: String, stdout: FileHandle, home: URL) throws -> (Int32, String) {
    let result = try EndToEndTests.run(
      ["--home", home.path, "-c", commands], input: Data(), home: home, stdout: stdout)
    return (result.status, result.errors)
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
