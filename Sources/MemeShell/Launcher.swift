import CMemeshEdit
import Foundation
import MemeCore
import MemeMedia
import MemeStore
import MemeSystem

#if canImport(Glibc)
  import Glibc
#endif

/// Runs memesh for the executable: picks interactive, `-c`, piped, replay or check mode.
///
/// Exit status: 0 after `quit` or the end of input with no failure; 1 when a command failed (in
/// `-c` and piped modes memesh stops at the first failure unless `--keep-going`; with it, the
/// session goes on and `quit` still exits 0) or a transcript did not match; 2 for usage errors.
public enum Launcher {
  /// The first thing memesh does: makes sure the libraries it opens on first use can be called
  /// (`SharedLibrary.restartForLazyBinding`); nil, or why memesh cannot run.
  public static func restartForLazyBinding() -> String? {
    SharedLibrary.restartForLazyBinding()
  }

  /// The sonames of the libraries memesh opens on first use (`SharedLibrary`).
  public static var onDemandLibraries: [String] { SharedLibrary.allCases.map(\.rawValue) }

  /// Runs and returns the process exit status.
  public static func run(_ options: LaunchOptions) -> Int32 {
    signal(SIGPIPE, SIG_IGN)
    // Before any thread starts: libedit's resize handler must only run in its key reader.
    memesh_edit_hold_resizes()
    let environment = ProcessInfo.processInfo.environment
    let home = homeURL(options, environment: environment)

    if let path = options.check ?? options.replay {
      // A transcript starts from an empty home, never the user's memes, unless --home says.
      guard (options.home ?? "").isEmpty, let scratch = makeScratchHome() else {
        return runTranscript(
          path: path, check: options.check != nil, home: home, environment: environment)
      }
      defer {
        // A draft save still running would fail in the removed folder and warn at exit.
        DraftStore.waitForBackgroundSaves()
        try? FileManager.default.removeItem(at: scratch)
      }
      return runTranscript(
        path: path, check: options.check != nil, home: scratch, environment: environment)
    }

    let stdinIsTerminal = isatty(0) == 1
    let stdoutIsTerminal = isatty(1) == 1
    var settings = Shell.Settings()
    settings.interactive = options.commands.isEmpty && stdinIsTerminal
    // `-` names standard input for `load` and `source` when the commands come from -c, and
    // standard output for pictures when it is not a terminal.
    settings.standardInputRefusal =
      stdinIsTerminal ? "it is a terminal" : options.commands.isEmpty ? "it carries the commands" : nil
    settings.standardOutputRefusal =
      stdoutIsTerminal ? "it is a terminal (redirect it: > meme.png)" : nil
    // Piped input means a script: plain text only, even when the output is a terminal.
    let drawsPictures = stdoutIsTerminal && (stdinIsTerminal || !options.commands.isEmpty)
    // Libraries memesh opens on first use: one that is not installed is said now, not found
    // out in the middle of a session. Without chafa (or GLib) pictures are not drawn at all.
    let missingLibraries = SharedLibrary.missing(environment: environment)
    let canDrawPictures = !missingLibraries.contains {
      SharedLibrary.terminalPictures.map(\.rawValue).contains($0.soname)
    }
    if drawsPictures, canDrawPictures {
      if let name = options.previewMode, let mode = PreviewMode(name: name) {
        settings.previewMode = mode
      } else {
        // A person at a terminal: ask it what it draws when its variables do not say.
        if settings.interactive && TerminalCapabilities.worthAsking(environment: environment) {
          TerminalCapabilities.recordedAnswers = TerminalQuery.ask()
        }
        settings.previewMode = TerminalPreview.detectMode(environment: environment)
      }
      settings.window =
        TerminalWindow.current(fileDescriptor: 1, environment: environment)
        ?? TerminalWindow(cells: TerminalPreview.CellSize(columns: 80, rows: 24))
    }
    let console = Console(environment: environment, colorAllowed: drawsPictures)
    let shell = Shell(home: home, console: console, settings: settings, environment: environment)
    shell.warnAboutEnvironment()
    for library in missingLibraries { shell.startWarning(library.message) }

    if !options.commands.isEmpty {
      let lines = options.commands.flatMap {
        CommandTokenizer.splitCommands($0, isTextCommand: CommandRegistry.isTextCommand)
      }
      // A picture bound for standard output: every message goes to stderr from the start.
      if !stdoutIsTerminal, lines.contains(where: StandardStreams.sendsPicture) {
        console.messagesOnStandardError = true
      }
      var failed = false
      for command in lines {
        if !shell.run(line: command) {
          failed = true
          if !options.keepGoing { return 1 }
        }
        if shell.quitRequested { return 0 }
      }
      return failed ? 1 : 0
    }

    let reader = makeReader(
      interactive: settings.interactive, showsPrompt: stdinIsTerminal && stdoutIsTerminal,
      shell: shell, home: home, options: options, environment: environment)
    Console.beforeOutputFailureExit = { reader.close() }
    if settings.interactive {
      shell.askYesNo = { question in
        guard case .line(let answer) = reader.read(prompt: question) else { return false }
        return ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased())
      }
    }
    if settings.interactive {
      shell.greet()
      // Like .psqlrc: a person's defaults, in a terminal only (scripts stay reproducible).
      if !options.skipsStartupFile {
        shell.runStartupFile(MemeshPaths.startupFile(environment: environment))
      }
    }
    var failed = false
    loop: while !shell.quitRequested {
      switch reader.read(prompt: shell.prompt) {
      case .line(var line):
        if settings.interactive {
          // An open quote continues on the next line, as in a POSIX shell.
          while let quote = CommandTokenizer.openQuote(
            line, isTextCommand: CommandRegistry.isTextCommand)
          {
            // The prompt shows which quote is open.
            switch reader.read(prompt: "...\(quote)> ") {
            case .line(let more):
              line += " " + more
            case .interrupt:
              continue loop
            case .end:
              // Ctrl-D gives up on the quote, not the session: the tokenizer says what is open.
              shell.run(line: line)
              continue loop
            }
          }
          if !line.allSatisfy(\.isWhitespace) { reader.remember(line) }
        }
        if !shell.run(line: line) {
          failed = true
          if !settings.interactive && !options.keepGoing { break loop }
        }
      case .interrupt:
        continue
      case .end:
        break loop
      }
    }
    reader.close()
    if shell.quitRequested { return 0 }
    return failed && !settings.interactive ? 1 : 0
  }

  /// The line reader: libedit's `LineEditor` in a terminal once it exists, plain stdin otherwise.
  static func makeReader(
    interactive: Bool, showsPrompt: Bool, shell: Shell, home: URL, options: LaunchOptions,
    environment: [String: String]
  ) -> any LineReader {
    if interactive {
      let history = historyFile(options, environment: environment)
      if let editor = LineEditor(historyFile: history, completer: { shell.complete($0) }) {
        shell.interruptRequested = { LineEditor.interrupted }
        return editor
      }
    }
    let reader = PlainLineReader(descriptor: 0, showsPrompt: showsPrompt)
    reader.onOverlongLine = { bytes in
      shell.console.warning(
        "a \(bytes)-byte line was cut to \(PlainLineReader.maximumLineBytes) bytes")
    }
    return reader
  }

  /// A new empty folder under the temporary directory, or nil when none can be made.
  static func makeScratchHome() -> URL? {
    let base = FileManager.default.temporaryDirectory.path + "/memesh-transcript.XXXXXX"
    var template = Array(base.utf8CString)
    let made = template.withUnsafeMutableBufferPointer { buffer -> Bool in
      guard let start = buffer.baseAddress else { return false }
      return mkdtemp(start) != nil
    }
    guard made else { return nil }
    let path = template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    return URL(fileURLWithPath: String(decoding: path, as: UTF8.self))
  }

  /// `--home`, else `MEMESH_HOME`, else `$XDG_DATA_HOME/memesh` (`MemeshPaths.home`).
  static func homeURL(_ options: LaunchOptions, environment: [String: String]) -> URL {
    URL(fileURLWithPath: MemeshPaths.home(flag: options.home, environment: environment))
  }

  /// Where the line editor keeps its history (`MemeshPaths.historyFile`).
  public static func historyFile(_ options: LaunchOptions, environment: [String: String]) -> URL {
    URL(fileURLWithPath: MemeshPaths.historyFile(flag: options.home, environment: environment))
  }

  // MARK: - Transcripts

  /// `--replay` / `--check`: runs the transcript from its own folder (relative paths in it are
  /// relative to the transcript), never drawing pictures.
  static func runTranscript(
    path: String, check: Bool, home: URL, environment: [String: String]
  ) -> Int32 {
    let data: Data
    do {
      data = try WholeFile.read(path: path)
    } catch {
      Console(environment: environment).error(ShellError.cannotRead(command: nil, error).message)
      return 2
    }
    let transcript = Transcript(text: String(decoding: data, as: UTF8.self))
    let folder = PathName(path).folder
    if !folder.isEmpty, !FileManager.default.changeCurrentDirectoryPath(folder) {
      // Its relative paths would name files in the wrong folder.
      Console(environment: environment).error(
        "cannot run the transcript from its folder '\(folder)' (cannot change into it)")
      return 2
    }
    let makeShell = { (console: Console) in
      Shell(home: home, console: console, settings: Shell.Settings(), environment: environment)
    }
    if check {
      return TranscriptRunner.check(
        transcript, name: PathName(path).lastComponent, makeShell: makeShell)
    }
    return TranscriptRunner.replay(transcript, makeShell: makeShell)
  }
}
