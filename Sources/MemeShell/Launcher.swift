import Foundation
import MemeCore

/// Runs memesh for the executable: picks interactive, `-c`, replay or check mode.
public enum Launcher {
  /// Runs and returns the process exit status (0 ok, 1 a command failed, 2 usage).
  public static func run(_ options: LaunchOptions) -> Int32 {
    for script in options.commands {
      for line in script.split(whereSeparator: { $0 == ";" || $0 == "\n" }) {
        let command = line.trimmingCharacters(in: .whitespaces)
        if command.isEmpty { continue }
        if command == "quit" || command == "exit" { return 0 }
        FileHandle.standardError.write(Data("error: unknown command '\(command)'\n".utf8))
        return 1
      }
    }
    return 0
  }
}
