import MemeShell

/// The common command lines (`-c …`, `--home DIR`, `--keep-going`, `--no-rc`, `--mode M`, `--replay F`,
/// `--check F`) parsed without ArgumentParser, whose command tree costs about a millisecond of
/// every start (`memesh -c quit` is timed by `make bench`). Anything else — help, version,
/// completion scripts, `--opt=value`, a value starting with `-`, an error — returns nil and goes
/// through ArgumentParser, so its messages and exit codes stay the only ones.
enum QuickArguments {
  static func parse(_ arguments: ArraySlice<String>) -> LaunchOptions? {
    var options = LaunchOptions()
    var index = arguments.startIndex
    while index < arguments.endIndex {
      let flag = arguments[index]
      if flag == "--keep-going" || flag == "--no-rc" {
        if flag == "--keep-going" { options.keepGoing = true } else { options.skipsStartupFile = true }
        index += 1
        continue
      }
      let next = index + 1
      guard next < arguments.endIndex, !arguments[next].hasPrefix("-") else { return nil }
      let value = arguments[next]
      switch flag {
      case "-c", "--command": options.commands.append(value)
      case "--home" where options.home == nil: options.home = value  // '' is refused by main
      case "--mode"
      where options.previewMode == nil
        && LaunchOptions.previewModeProblem(setting: flag, value: value) == nil:
        options.previewMode = value
      case "--replay" where options.replay == nil && options.check == nil: options.replay = value
      case "--check" where options.check == nil && options.replay == nil: options.check = value
      default: return nil
      }
      index = next + 1
    }
    return options
  }
}
