import Foundation
import MemeMedia
import Testing

/// What each crash or resource problem the fuzzers found looks like to a user, now fixed.
@Suite struct FuzzFindingsTests {
  static let regressions = FuzzRegressionTests.fuzzFolder.appendingPathComponent("regressions")

  /// Loads `files` in `memesh-image-probe` (a separate process) and returns its output lines,
  /// the last being `maxrss KILOBYTES`.
  static func probe(_ files: [URL]) throws -> [String] {
    let packageRoot = FuzzRegressionTests.fuzzFolder.deletingLastPathComponent()
      .deletingLastPathComponent()
    let folders = [
      URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
      Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent(),
      packageRoot.appendingPathComponent(".build/debug"),
    ]
    let executable = try #require(
      folders.map { $0.appendingPathComponent("memesh-image-probe") }
        .first { FileManager.default.isExecutableFile(atPath: $0.path) },
      "memesh-image-probe is not built")
    let process = Process()
    process.executableURL = executable
    process.arguments = files.map(\.path)
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
  }

  @Test func aPNGChunkClaimingGigabytesIsRefusedWithoutAllocatingThem() throws {
    // 604 bytes whose iTXt chunk claims 1.9 GB: libpng allocated it all before finding the file
    // too short (1.9 GB resident, 5 s); now refused at the chunk header.
    let file = Self.regressions.appendingPathComponent("png/oom-itxt-claims-1.9GB.png")
    let data = try Data(contentsOf: file)
    #expect(throws: (any Error).self) { try ImageCodec.decode(data, name: "claims.png") }
    do {
      _ = try ImageCodec.decode(data, name: "claims.png")
    } catch {
      #expect("\(error)".contains("chunk data is too large"), "\(error)")
    }
    let lines = try Self.probe([file])
    let resident = lines.last.flatMap { Int($0.split(separator: " ").last ?? "") } ?? -1
    #expect(resident > 0 && resident < 200_000, "\(lines)")
  }
}
