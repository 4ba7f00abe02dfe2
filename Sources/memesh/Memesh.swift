import ArgumentParser
import CMalloc
import Foundation
import MemeShell
import MemeSystem

/// memesh's own command-line flags. Everything else lives in MemeShell.
@main
struct Memesh: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "memesh",
    abstract: "A meme studio for the terminal.",
    discussion:
      "With a terminal on stdin, memesh starts its interactive shell. Otherwise it reads "
      + "commands from stdin, one per line, with no prompt, pictures or colors. Type 'help' "
      + "inside memesh for its commands ('man memesh' after 'make install').\n\nExamples:\n"
      + ManualPage.examples.map { "  \($0.command)\n      \($0.effect)" }.joined(
        separator: "\n"),
    version: MemeshVersion.current
  )

  @Option(
    name: [.customShort("c"), .customLong("command")],
    help: ArgumentHelp(
      "Run these commands and exit (separate commands with ';' or newlines; may repeat).",
      valueName: "commands"))
  var commands: [String] = []

  @Option(
    help: ArgumentHelp("Run a transcript's inputs and print the session.", valueName: "file"),
    completion: .file(extensions: ["t"]))
  var replay: String?

  @Option(
    help: ArgumentHelp(
      "Run a transcript and compare it with its expected output (diff, exit 1 on mismatch).",
      discussion:
        "--check and --replay run from the transcript's folder in a new empty memesh home "
        + "(removed afterwards) unless --home names one.",
      valueName: "file"),
    completion: .file(extensions: ["t"]))
  var check: String?

  @Option(
    help: ArgumentHelp(
      "Where memesh keeps memes, the draft, history and user fonts (default: $MEMESH_HOME, "
        + "else $XDG_DATA_HOME/memesh).", valueName: "dir"),
    completion: .directory)
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
        + "$MEMESH_PREVIEW).", valueName: "mode"),
    completion: .list(LaunchOptions.previewModeNames))
  var previewMode: String?

  @Flag(
    name: .customLong("no-rc"),
    help: ArgumentHelp(
      "Do not run the start-up file ($XDG_CONFIG_HOME/memesh/memeshrc) in a terminal."))
  var noRC = false

  @Flag(help: .hidden)
  var generateManual = false

  /// For `scripts/lazy-libraries`: the sonames memesh opens on first use, one a line.
  @Flag(help: .hidden)
  var onDemandLibraries = false

  func validate() throws {
    if replay != nil && check != nil {
      throw ValidationError("--replay and --check cannot be used together")
    }
    if let previewMode,
      let problem = LaunchOptions.previewModeProblem(setting: "--mode", value: previewMode)
    {
      throw ValidationError(problem)
    }
  }

  func run() throws {
    if generateManual {
      print(manualPage(), terminator: "")
      return
    }
    if onDemandLibraries {
      print(Launcher.onDemandLibraries.joined(separator: "\n"))
      return
    }
    var options = LaunchOptions()
    options.commands = commands
    options.replay = replay
    options.check = check
    options.home = home
    options.keepGoing = keepGoing
    options.previewMode = previewMode
    options.skipsStartupFile = noRC
    if let problem = Self.homeProblem(options) { throw ValidationError(problem) }
    let status = Launcher.run(options)
    if status != 0 { throw ExitCode(status) }
  }

  /// Why the home `options` and the environment name cannot be used, or nil: an empty `--home`
  /// (never a silent fallback to the default), or a path where a folder cannot be.
  static func homeProblem(
    _ options: LaunchOptions,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> String? {
    if options.home == "" {
      return "--home cannot be empty (leave it out for the default home)"
    }
    // A transcript without --home runs in a new empty home of its own.
    if options.home == nil, options.check != nil || options.replay != nil { return nil }
    let home = MemeshPaths.home(flag: options.home, environment: environment)
    guard let why = MemeshPaths.unusableHome(home) else { return nil }
    return "cannot use '\(home)' as the memesh home: \(why)"
  }

  /// Parses argv; a usage error exits 2 (argument-parser's default is 64).
  static func main() {
    // Blocks of 2 MB and more (a photo's bytes, the encoded meme) get pages of their own,
    // given back when freed. Left to itself glibc raises this threshold to the size of the
    // first such block freed and serves the later ones from its heap, which keeps their pages
    // after they are freed: a share then peaks with the splice's working buffers still counted
    // while the store writes the meme. Smaller blocks stay in the heap, where their pages are
    // reused: at 128 KB every HEIC tile's buffers were mapped and faulted in afresh (a 12-MP
    // HEIC share took 12 % longer).
    mallopt(M_MMAP_THRESHOLD, 2 * 1024 * 1024)
    if let problem = Launcher.restartForLazyBinding() {
      FileHandle.standardError.write(Data("memesh: \(problem)\n".utf8))
      Foundation.exit(1)
    }
    if let options = QuickArguments.parse(CommandLine.arguments.dropFirst()) {
      if let problem = homeProblem(options) { failUsage(problem) }
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
      failUsage(message(for: error))
    }
  }

  /// Prints a usage error and exits 2. argument-parser's messages quote the arguments as typed:
  /// each line is escaped (`Display.escaped`), so an option holding escape sequences cannot
  /// reach the terminal raw.
  static func failUsage(_ message: String) -> Never {
    let lines = message.split(separator: "\n", omittingEmptySubsequences: false)
      .map { Display.escaped(String($0)) }
    FileHandle.standardError.write(Data("memesh: \(lines.joined(separator: "\n"))\n".utf8))
    FileHandle.standardError.write(
      Data(
        "usage: memesh [-c commands] [--replay file | --check file] [--home dir]; see 'memesh --help'\n"
          .utf8))
    Foundation.exit(2)
  }

  /// `man memesh`, from argument-parser's description of these flags and the shell's registry.
  func manualPage() -> String {
    struct Tool: Decodable {
      struct Command: Decodable { var arguments: [Argument]? }
      struct Argument: Decodable {
        struct Name: Decodable { var kind: String; var name: String }
        var names: [Name]?
        var valueName: String?
        var kind: String
        var abstract: String?
        var discussion: String?
        var shouldDisplay: Bool
      }
      var command: Command
    }
    let tool = try? JSONDecoder().decode(Tool.self, from: Data(Self._dumpHelp().utf8))
    let flags = (tool?.command.arguments ?? []).filter(\.shouldDisplay).map { argument in
      ManualPage.Flag(
        names: (argument.names ?? []).map { ($0.kind == "short" ? "-" : "--") + $0.name },
        valueName: argument.kind == "option" ? argument.valueName : nil,
        abstract: argument.abstract ?? "", discussion: argument.discussion ?? "")
    }
    let day = ISO8601DateFormatter.string(
      from: Date(), timeZone: TimeZone(identifier: "UTC") ?? .current,
      formatOptions: [.withFullDate])
    return ManualPage.render(flags: flags, version: MemeshVersion.current, date: day)
  }
}
