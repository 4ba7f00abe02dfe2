import ArgumentParser
import Foundation
import MemeShell

/// memesh's own command-line flags. Everything else lives in MemeShell.
@main
struct Memesh: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "memesh",
    abstract: "A meme studio for the terminal.",
    discussion:
      "With a terminal on stdin, memesh starts its interactive shell. Otherwise it reads "
      + "commands from stdin, one per line, with no prompt, pictures or colors. Type 'help' "
      + "inside memesh for its commands.",
    version: MemeshVersion.current
  )

  @Option(
    name: [.customShort("c"), .customLong("command")],
    help: ArgumentHelp(
      "Run these commands and exit (separate commands with ';' or newlines; may repeat).",
      valueName: "commands"))
  var commands: [String] = []

  @Option(help: ArgumentHelp("Run a transcript's inputs and print the session.", valueName: "file"))
  var replay: String?

  @Option(
    help: ArgumentHelp(
      "Run a transcript and compare it with its expected output (diff, exit 1 on mismatch).",
      discussion:
        "--check and --replay run from the transcript's folder in a new empty memesh home "
        + "(removed afterwards) unless --home names one.",
      valueName: "file"))
  var check: String?

  @Option(
    help: ArgumentHelp(
      "Where memesh keeps memes, the draft, history and user fonts (default: $MEMESH_HOME, "
        + "else $XDG_DATA_HOME/memesh).", valueName: "dir"))
  var home: String?

  @Flag(
    help: ArgumentHelp(
      "In -c and piped modes, go on after a failed command.",
      discussion:
        "Without it memesh stops at the first failed command with status 1. With it the "
        + "session goes on; the status is 1 at the end if any command failed, 0 after 'quit'. "
        + "Transcripts (--check, --replay) always go on."))
  var keepGoing = false

  @Option(
    name: .customLong("mode"),
    help: ArgumentHelp(
      "Terminal graphics: kitty, iterm, sixel, symbols or none (default: detected; "
        + "$MEMESH_PREVIEW).", valueName: "mode"))
  var previewMode: String?

  func validate() throws {
    if replay != nil && check != nil {
      throw ValidationError("--replay and --check cannot be used together")
    }
    if let previewMode, !["kitty", "iterm", "sixel", "symbols", "none"].contains(previewMode) {
      throw ValidationError(
        "'\(previewMode)' is not a preview mode (kitty, iterm, sixel, symbols, none)")
    }
  }

  func run() throws {
    var options = LaunchOptions()
    options.commands = commands
    options.replay = replay
    options.check = check
    options.home = home
    options.keepGoing = keepGoing
    options.previewMode = previewMode
    let status = Launcher.run(options)
    if status != 0 { throw ExitCode(status) }
  }

  /// Parses argv; a usage error exits 2 (argument-parser's default is 64).
  static func main() {
    if let options = QuickArguments.parse(CommandLine.arguments.dropFirst()) {
      Foundation.exit(Launcher.run(options))
    }
    do {
      var command = try parseAsRoot()
      try command.run()
    } catch {
      let code = exitCode(for: error)
      if code == .success || error is ExitCode {
        exit(withError: error)
      }
      FileHandle.standardError.write(Data("memesh: \(message(for: error))\n".utf8))
      FileHandle.standardError.write(
        Data(
          "usage: memesh [-c commands] [--replay file | --check file] [--home dir]; see 'memesh --help'\n"
            .utf8))
      Foundation.exit(2)
    }
  }
}
