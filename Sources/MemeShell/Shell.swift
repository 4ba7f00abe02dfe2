import Foundation
import MemeCore
import MemeMedia
import MemeStore

/// One memesh session: the dispatcher between the views. It runs a line as a command of the
/// registry, which changes the editor (`EditorSession`), the store or the view and prints what
/// happened. Reads no input itself: `run(line:)` takes one line at a time from whichever reader
/// (terminal, pipe, `-c`, transcript) the launcher chose.
///
/// Not `Sendable`: a shell lives on the thread that reads its lines, and the line editor calls
/// its completer (`complete(_:)`) from inside libedit's key handling on that same thread.
public final class Shell {
  /// How the session was started; it decides prompts, pictures and what an error stops.
  public struct Settings: Sendable {
    /// A person at a terminal: banner, start-up table, errors never stop the session.
    public var interactive = false
    /// How pictures are drawn (`none` writes text summaries instead).
    public var previewMode: PreviewMode = .none
    /// The size pictures fit in (columns × rows) when drawing.
    public var window: TerminalWindow?
    /// Why `load -` and `source -` cannot read standard input, nil when they can (`-c` with a
    /// file or pipe on stdin).
    public var standardInputRefusal: String? = "it carries the commands"
    /// Why `share file -`, `export ID -` and `preview --out -` cannot write to standard output,
    /// nil when they can (not a terminal).
    public var standardOutputRefusal: String? = "it is a terminal"

    public init() {}
  }

  let console: Console
  let environment: [String: String]
  let settings: Settings
  /// The memesh home (`--home`, `MEMESH_HOME`, else `$XDG_DATA_HOME/memesh`).
  public let home: URL
  let store: MemeStore
  /// The editor, its undo history and its draft.
  let editor: EditorSession
  /// The fonts, found on first use: looking for the bundled folder costs a start that never
  /// draws a caption (`-c quit`, `browse`) a good part of its time.
  lazy var catalog = FontCatalog.standard(userDirectory: home.appendingPathComponent("fonts"))

  /// Where the user is.
  public internal(set) var view: ShellView
  /// Set by `quit` and `exit`.
  public internal(set) var quitRequested = false
  /// How many `source` files are being run (nested `source` is bounded).
  var sourceDepth = 0
  /// The format `share` writes when neither `--format` nor the file's name says (`set format`);
  /// nil: the picture's own.
  var defaultFormat: ImageFormat?
  /// While the start-up file runs (`set` confirms nothing then).
  var runningStartupFile = false
  /// Whether `load -` or `source -` has read standard input (it can be read once).
  var standardInputRead = false
  /// Asks the person at the terminal a yes/no question (true for yes); nil outside a terminal,
  /// where nothing waits for an answer.
  public var askYesNo: ((String) -> Bool)?
  /// Whether the user pressed Ctrl-C while a command runs (the line editor's flag); long
  /// commands check it between steps.
  public var interruptRequested: @Sendable () -> Bool = { false }
  /// What opening the store and the draft had to say to a person at a terminal, kept for under
  /// the banner (`greet`): warnings, and the note on the restored draft.
  var startMessages: [(isWarning: Bool, text: String)] = []
  /// Opens the store and the draft under `home`, restoring the draft with a notice.
  public init(
    home: URL, console: Console, settings: Settings,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) {
    self.home = home
    self.console = console
    self.settings = settings
    self.environment = environment
    let opened = MemeStore.open(home: home)
    self.store = opened.store
    self.editor = EditorSession(drafts: DraftStore(home: home), console: console)
    self.view = .editor
    if let notice = opened.notice { startWarning(notice) }
    if let notice = editor.drafts.notice { startWarning(notice) }
    if !restoreDraft(), (try? store.hasMemes()) == true {
      view = .sent
    }
  }

  /// The window pictures fit in now (it may have been resized since the start), or nil when
  /// pictures are not drawn.
  var drawingWindow: TerminalWindow? {
    guard let start = settings.window else { return nil }
    return TerminalWindow.current(fileDescriptor: 1, environment: [:]) ?? start
  }

  /// Why pictures are not drawn, for the text that stands in for them: the preview mode in a
  /// terminal that could draw them; otherwise the output has no terminal graphics.
  var noPicturesReason: String {
    guard settings.window != nil else { return "no terminal graphics here" }
    let term = environment["TERM"] ?? ""
    if term.isEmpty || term == "dumb" { return "no terminal graphics here (TERM=\(term))" }
    return "pictures are off: the preview mode is none"
  }

  /// The editor's current state.
  var state: EditorState { editor.state }

  /// The prompt for the current view: `memesh:sent> `, `memesh:edit cat.jpg> `, `memesh:meme 3> `.
  public var prompt: String {
    switch view {
    case .sent: return "memesh:sent> "
    case .detail(let id): return "memesh:meme \(id)> "
    case .editor:
      guard let picture = state.picture else { return "memesh:edit> " }
      return "memesh:edit \(Self.promptName(picture.displayName))> "
    }
  }

  /// A picture's name for the prompt: at most 32 columns, cut in the middle so the end of the
  /// name and its extension stay (`a very long file…sofa.png`).
  static func promptName(_ name: String) -> String {
    let escaped = Display.escaped(name)
    guard Display.columns(escaped) > 32 else { return escaped }
    var tail: [Character] = []
    var tailColumns = 0
    for character in escaped.reversed() {
      let width = Display.columns(character)
      if tailColumns + width > 12 { break }
      tail.insert(character, at: 0)
      tailColumns += width
    }
    let head = Display.truncated(
      String(escaped.dropLast(tail.count)), toColumns: 32 - tailColumns)
    return (head.hasSuffix("…") ? head : head + "…") + String(tail)
  }

  /// A warning from opening the store or the draft: under the banner in a terminal, at once
  /// otherwise.
  func startWarning(_ text: String) {
    if settings.interactive { startMessages.append((true, text)) } else { console.warning(text) }
  }

  /// Restores the draft into the editor and says so (a note under the banner in a terminal,
  /// nothing in scripts); false when there was none or it could not be used (a warning).
  private func restoreDraft() -> Bool {
    switch editor.restore() {
    case .none:
      return false
    case .unreadable(let error):
      startWarning(describe(error))
      return false
    case .pictureMissing(let error):
      startWarning("cannot restore the draft: \(describe(error)); starting blank")
      return false
    case .restored(let current, let steps):
      // A draft left blank by 'cancel' or 'new' is only there for undo: the session starts as
      // after a cancel, and a person is told undo still has it.
      if state == editor.blank {
        if settings.interactive {
          startMessages.append(
            (isWarning: false, text: "'undo' brings back the draft discarded last time"))
        }
        return false
      }
      // Scripts and pipes see only what their commands print; a person at a terminal is told,
      // under the banner.
      guard settings.interactive else { return true }
      var what: [String] = []
      if let path = current.sourcePath { what.append(Display.quoted(path)) }
      if !current.recipe.top.isEmpty {
        what.append("top \"\(Display.cell(current.recipe.top, limit: 30))\"")
      }
      if !current.recipe.bottom.isEmpty {
        what.append("bottom \"\(Display.cell(current.recipe.bottom, limit: 30))\"")
      }
      if let id = current.editingID { what.append("editing meme \(id)") }
      let summary = what.isEmpty ? "" : " (" + what.joined(separator: ", ") + ")"
      let note = "restored the draft\(summary) with \(steps) undo steps; 'new' starts a blank one"
      startMessages.append((isWarning: false, text: note))
      return true
    }
  }

  /// A restored picture turned out not to decode: reported as a draft that cannot be restored
  /// is at start, and the editor starts blank.
  private func discardUnusableDraft(_ failure: SourcePicture.DecodeFailure) {
    console.warning("cannot restore the draft: \(failure.message); starting blank")
    editor.discardUnusableDraft()
  }

  /// What a terminal session shows first: a one-line banner, what opening the store and the
  /// draft had to say, then the sent memes' table when the session starts there.
  public func greet() {
    console.line(
      "memesh \(MemeshVersion.current): 'help' lists the commands; Tab completes; Ctrl-D quits")
    for message in startMessages {
      if message.isWarning { console.warning(message.text) } else { console.note(message.text) }
    }
    startMessages = []
    if view == .sent { showSentMemes() }
    if view == .editor, state.picture == nil {
      console.line("new meme: 'load PATH' a picture (Tab completes file names), then 'top TEXT'")
    }
  }

  // MARK: - Running commands

  /// Runs one line; returns false when it failed (an error was printed). Empty lines and lines
  /// starting with `#` do nothing.
  @discardableResult
  public func run(line rawLine: String) -> Bool {
    var line = rawLine
    if line.hasSuffix("\r") { line.removeLast() }
    let trimmed = line.drop(while: { $0 == " " || $0 == "\t" })
    if trimmed.isEmpty || trimmed.hasPrefix("#") { return true }
    let tokens: [CommandTokenizer.Token]
    do {
      tokens = try CommandTokenizer.tokenize(
        line, isTextCommand: CommandRegistry.isTextCommand)
    } catch {
      console.error(error.message)
      return false
    }
    guard let first = tokens.first else { return true }
    guard let command = CommandRegistry.command(named: first.text) else {
      let near = Suggestions.nearest(
        to: first.text, among: CommandRegistry.commands.flatMap(\.allNames))
      console.error(ShellError.unknownCommand(first.text, suggestion: near).message)
      return false
    }
    if let reason = command.unavailableReason(self) {
      console.error("\(command.name): \(reason)")
      return false
    }
    let arguments = Arguments(
      invokedAs: first.text, tokens: Array(tokens.dropFirst()), usage: command.usage)
    do {
      try command.arity.check(arguments)
      try command.run(self, arguments)
      return true
    } catch let failure as SourcePicture.DecodeFailure where !editor.isUntouched {
      // Only a picture restored from the draft is decoded on demand, and only one whose file was
      // damaged after it was saved fails here: the draft is dropped as it would have been at
      // start, and the command runs again on the blank editor.
      discardUnusableDraft(failure)
      return run(line: rawLine)
    } catch StoreError.noMeme(let id) {
      // The store's words name no command; the user is told which one and where ids come from.
      let hint =
        (try? store.hasMemes()) == true
        ? "; 'browse' lists the sent memes" : " (there are no sent memes yet)"
      console.error("\(arguments.invokedAs): no meme with id \(id)\(hint)")
    } catch let error as any UserFacingError {
      console.error(error.message)
    } catch {
      console.error("\(command.name): \(error)")
    }
    return false
  }

  // MARK: - Editor changes

  /// Applies `action` to the editor (recorded for undo under `label`, the draft saved) and
  /// shows the editor.
  func apply(_ action: EditorAction, label: String) {
    editor.apply(action, label: label)
    view = .editor
  }

  /// An error's one-line wording.
  func describe(_ error: any Error) -> String {
    error.userMessage
  }

  /// The picture to work on, or an error saying how to get one.
  func requirePicture(for command: String) throws -> SourcePicture {
    guard let picture = state.picture else {
      throw ShellError.noPicture(command: command)
    }
    return picture
  }
}
