import Foundation
import MemeCore

/// Programs memesh hands work to (clipboard, opener, camera), found on PATH.
enum ExternalTool {
  /// The full path of `name` on PATH, or nil.
  static func find(_ name: String, environment: [String: String]) -> String? {
    let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
    for folder in path.split(separator: ":") where !folder.isEmpty {
      let candidate = folder + "/" + name
      if FileManager.default.isExecutableFile(atPath: candidate) { return String(candidate) }
    }
    return nil
  }

  /// Runs `tool` to completion, feeding `input` on its stdin; a failure names `what` and the
  /// tool's first line of stderr.
  static func run(_ tool: String, arguments: [String], input: Data?, what: String) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = arguments
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    let stdin = Pipe()
    process.standardInput = input == nil ? FileHandle.nullDevice : stdin
    do {
      try process.run()
    } catch {
      throw ShellError.toolDidNotStart(
        command: what, tool: tool, reason: error.localizedDescription)
    }
    if let input {
      try? stdin.fileHandleForWriting.write(contentsOf: input)
      try? stdin.fileHandleForWriting.close()
    }
    let message = (try? errors.fileHandleForReading.readToEnd()) ?? Data()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      let first = String(decoding: message, as: UTF8.self).split(separator: "\n").first ?? ""
      let name = PathName(tool).lastComponent
      throw ShellError.toolFailed(
        command: what, tool: name, status: process.terminationStatus,
        firstLine: first.isEmpty ? nil : String(first))
    }
  }
}
