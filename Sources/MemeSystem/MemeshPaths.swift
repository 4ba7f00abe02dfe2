import Foundation

/// Where memesh's files are: the one resolver for the home, the history file and `~`.
public enum MemeshPaths {
  /// What `~` means: `$HOME` when it is an absolute path, as in every shell; else the account's
  /// home directory.
  public static func userHome(environment: [String: String]) -> String {
    if let home = environment["HOME"], home.hasPrefix("/") { return home }
    return NSHomeDirectory()
  }

  /// `~` and `~/x` expanded; other paths as given.
  public static func expandingTilde(_ path: String, environment: [String: String]) -> String {
    if path == "~" { return userHome(environment: environment) }
    if path.hasPrefix("~/") { return userHome(environment: environment) + path.dropFirst() }
    return path
  }

  /// The memesh home: `flag` (`--home`, `~` expanded), else `MEMESH_HOME`, else
  /// `$XDG_DATA_HOME/memesh`, else `~/.local/share/memesh`. An empty `flag` is the caller's
  /// usage error (`unusableHome`), never a silent fallback.
  public static func home(flag: String?, environment: [String: String]) -> String {
    if let flag, !flag.isEmpty { return expandingTilde(flag, environment: environment) }
    if let home = environment["MEMESH_HOME"], !home.isEmpty {
      return expandingTilde(home, environment: environment)
    }
    if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return data + "/memesh" }
    return userHome(environment: environment) + "/.local/share/memesh"
  }

  /// The history file: `<home>/history` when the home was chosen (`--home` or `MEMESH_HOME`),
  /// else `$XDG_STATE_HOME/memesh/history`, else `~/.local/state/memesh/history`.
  public static func historyFile(flag: String?, environment: [String: String]) -> String {
    if !(flag ?? "").isEmpty || !(environment["MEMESH_HOME"] ?? "").isEmpty {
      return home(flag: flag, environment: environment) + "/history"
    }
    if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
      return state + "/memesh/history"
    }
    return userHome(environment: environment) + "/.local/state/memesh/history"
  }

  /// The start-up file a terminal session runs first: `$XDG_CONFIG_HOME/memesh/memeshrc`, else
  /// `~/.config/memesh/memeshrc`.
  public static func startupFile(environment: [String: String]) -> String {
    if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
      return config + "/memesh/memeshrc"
    }
    return userHome(environment: environment) + "/.config/memesh/memeshrc"
  }

  /// Why `path` cannot be a memesh home, or nil when it is a folder or can be created: empty, or
  /// something there (or above it) that is not a folder.
  public static func unusableHome(_ path: String) -> String? {
    guard !path.isEmpty else { return "the home cannot be empty" }
    guard !path.utf8.contains(0) else { return "the home contains a NUL byte" }
    let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    let components = absolute.split(separator: "/")
    var prefix = ""
    for (position, component) in components.enumerated() {
      prefix += "/" + component
      var status = stat()
      guard stat(prefix, &status) == 0 else { return nil }  // created on first use
      guard status.st_mode & S_IFMT == S_IFDIR else {
        return position == components.count - 1 ? "it is not a folder" : "'\(prefix)' is not a folder"
      }
    }
    return nil
  }
}
