import Foundation
import MemeMedia

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

  /// The preview modes by name, in the order help lists them (`PreviewMode`).
  public static let previewModeNames = PreviewMode.allCases.map(\.rawValue)

  /// Why `value`, given as `setting` (`--mode`, `MEMESH_PREVIEW`), names no preview mode, in
  /// one line naming the setting and the modes there are; nil when it names one.
  public static func previewModeProblem(setting: String, value: String) -> String? {
    guard PreviewMode(name: value) == nil else { return nil }
    let names = previewModeNames.dropLast().joined(separator: ", ")
      + (previewModeNames.last.map { " or \($0)" } ?? "")
    return "\(setting)='\(Display.cell(value, limit: 40))' is not a preview mode (\(names))"
  }
}
