import Foundation

/// How memesh was started: parsed from argv by the `memesh` executable.
public struct LaunchOptions: Sendable {
  /// `-c` scripts, in order; each may hold several commands separated by `;` or newlines.
  public var commands: [String] = []
  /// `--replay FILE`: run a transcript's inputs and print the session.
  public var replay: String?
  /// `--check FILE`: run a transcript and diff against its expected output.
  public var check: String?
  /// `--home DIR`; falls back to `MEMESH_HOME`, then `$XDG_DATA_HOME/memesh`.
  public var home: String?
  /// `--keep-going`: non-interactive modes continue after a failed command.
  public var keepGoing = false
  /// `--mode`: terminal graphics override.
  public var previewMode: String?
  /// `--no-rc`: do not run the start-up file (`MemeshPaths.startupFile`).
  public var skipsStartupFile = false

  public init() {}
}
