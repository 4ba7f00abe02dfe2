@preconcurrency import CEdit
import CMemeshEdit
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The terminal line reader: libedit with emacs keys, persistent history, Ctrl-R search and
/// Tab completion through the shell's `Completer`.
///
/// Keys, besides libedit's emacs map:
/// - Tab completes the word; a second Tab (or one with nothing to add) lists the candidates.
/// - Up/Down, Ctrl-P/Ctrl-N walk the history; Down past the newest entry gives back the line
///   being typed; after Ctrl-R they go on from the match.
/// - Ctrl-R searches the history backwards: typing narrows, Ctrl-R again finds an older match,
///   Backspace widens, Enter runs the match, Esc (or any other key) keeps it for editing,
///   Ctrl-G gives the typed line back.
/// - Ctrl-A/Ctrl-E, Home/End: start/end of the line; Ctrl-B/Ctrl-F, Left/Right: a character;
///   Alt-B/Alt-F, Ctrl-Left/Ctrl-Right: a word.
/// - Ctrl-W deletes the word before the cursor, Ctrl-U everything before it, Ctrl-K everything
///   after it, Alt-D the next word; Ctrl-Y yanks, Ctrl-T transposes, Ctrl-L clears the screen.
/// - Ctrl-C drops the line (`.interrupt`); Ctrl-D ends the session on an empty line (`.end`)
///   and deletes the character under the cursor otherwise; Ctrl-Z stops memesh (`fg` resumes).
///
/// Ctrl-C while a command runs is `LineEditor.interrupted` (see `LineEditor+Interrupt.swift`).
public final class LineEditor: LineReader {
  /// libedit's `EditLine *`.
  let editor: OpaquePointer
  /// libedit's `HistoryW *`: what Up, Down and Ctrl-R walk through.
  private let history: OpaquePointer
  /// The shell's completion function, called on Tab.
  let completer: Completer
  /// Where history persists; nil when there is no file or it could not be read.
  private var historyFile: LineEditorHistoryFile?
  /// The last line entered into the history, to skip immediate repeats.
  private var lastRemembered: String?
  /// The prompt libedit draws, NUL-terminated wide characters (owned, freed on replacement).
  private var promptStorage: UnsafeMutablePointer<wchar_t>
  /// The prompt as the user sees it, for computing where lines wrap.
  private(set) var promptColumns: [Int] = []
  /// Every history entry, oldest first, for Ctrl-R.
  private(set) var historyEntries: [String] = []
  /// Where Up and Down are in `historyEntries` (`historyEntries.count`: the typed line).
  var historyPosition = 0
  /// The line being typed before Up, shown again by Down.
  var typedLine: [wchar_t] = []
  /// The Ctrl-R search in progress, if any.
  var search: LineEditorSearch?
  /// The keys that ended a search, handed to libedit after the line is redrawn.
  var keysAfterSearch: [wchar_t] = []
  /// The prompt the shell asked for (a search shows its own meanwhile).
  private(set) var shellPrompt = ""
  /// Set by the Ctrl-C key so `read(prompt:)` reports `.interrupt`.
  var interruptedRead = false
  private var closed = false

  /// How many history entries memesh keeps, in memory and in the file.
  public static let historyLimit = 1000
  /// Marks the start and end of a prompt escape sequence for libedit (it takes no columns).
  static let literalMark: wchar_t = 1

  /// Opens libedit on the terminal; nil when stdin or stdout is not a terminal (the shell then
  /// reads plain lines). `historyFile` is read now and appended to by `remember(_:)`; its
  /// folder is created (0700) on the first write.
  public init?(historyFile: URL?, completer: @escaping Completer) {
    guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else { return nil }
    LineEditor.useUTF8Characters()
    guard let editor = memesh_edit_open("memesh") else { return nil }
    guard let history = history_winit() else {
      el_end(editor)
      return nil
    }
    self.editor = editor
    self.history = history
    self.completer = completer
    promptStorage = LineEditor.wideCopy([])
    memesh_history_set_size(history, Int32(LineEditor.historyLimit))
    configure()
    if let historyFile {
      let file = LineEditorHistoryFile(url: historyFile, limit: LineEditor.historyLimit)
      switch file.load() {
      case .success(let lines):
        self.historyFile = file
        for line in lines { enterIntoHistory(line) }
        lastRemembered = lines.last
      case .failure(let failure):
        LineEditor.warn(failure.message)
      }
    }
    _ = memesh_interrupt_catch()
  }

  deinit {
    close()
    memesh_edit_set_client(editor, nil)
    el_end(editor)
    history_wend(history)
    promptStorage.deallocate()
  }

  // MARK: - LineReader

  /// Shows `prompt` and edits one line; see the type's summary for the keys.
  public func read(prompt: String) -> LineEvent {
    if closed { return .end }
    setPrompt(prompt)
    interruptedRead = false
    endSearch()
    historyPosition = historyEntries.count
    typedLine = []
    LineEditor.interrupted = false
    var count: Int32 = 0
    // Editing mode before the prompt appears (libedit would switch only at its first read):
    // keys typed as soon as the prompt shows must not meet the terminal's own line editing.
    memesh_edit_prepare_terminal(editor, 1)
    let wide = el_wgets(editor, &count)
    let failure = errno
    endSearch()
    if interruptedRead {
      LineEditor.interrupted = false
      return .interrupt
    }
    guard let wide, count > 0 else {
      if count < 0 && failure == EINTR {
        // A SIGINT from outside (kill -INT): libedit gave up the line.
        print("")
        LineEditor.interrupted = false
        return .interrupt
      }
      // Ctrl-D on an empty line, or the terminal went away: finish the prompt's line.
      print("")
      return .end
    }
    var scalars = LineEditor.scalars(wide, count: Int(count))
    if scalars.last == "\n" { scalars.removeLast() }
    var line = ""
    line.unicodeScalars.append(contentsOf: scalars)
    return .line(line)
  }

  /// Adds `line` to Up/Down/Ctrl-R and appends it to the history file; empty lines and
  /// repeats of the previous line are skipped.
  public func remember(_ line: String) {
    if closed || line.allSatisfy({ $0.isWhitespace }) || line == lastRemembered { return }
    lastRemembered = line
    enterIntoHistory(line)
    guard let file = historyFile else { return }
    do {
      try file.append(line)
    } catch {
      LineEditor.warn(error.message)
      historyFile = nil
    }
  }

  /// Trims the history file to `historyLimit` entries and restores the terminal. Idempotent.
  public func close() {
    if closed { return }
    closed = true
    if let file = historyFile {
      do {
        try file.trim()
      } catch {
        LineEditor.warn(error.message)
      }
    }
    historyFile = nil
    memesh_interrupt_release()
    fflush(nil)
  }

  // MARK: - Setup

  /// Emacs keys plus memesh's own Tab, Ctrl-C, Ctrl-D and readline-like word keys.
  private func configure() {
    memesh_edit_set_client(editor, Unmanaged.passUnretained(self).toOpaque())
    memesh_edit_set_editor(editor, "emacs")
    // libedit follows SIGWINCH (width) and SIGCONT (redraw) while it edits; keys come through
    // memesh_edit_read_key, the only place the resize handler may run (see
    // memesh_edit_hold_resizes).
    memesh_edit_set_signal(editor, 1)
    memesh_edit_set_reader(editor, nil)
    // Ctrl-C and Ctrl-Z reach memesh as keys while editing instead of signalling the whole
    // process group (make, a parent script): Ctrl-C then drops just the line.
    memesh_edit_setty(editor, "-isig")
    memesh_edit_set_history(editor, history)
    memesh_edit_set_prompt(
      editor, { editor in LineEditor.owner(of: editor)?.promptStorage }, LineEditor.literalMark)
    memesh_edit_add_function(editor, "memesh-complete", "Complete the word before the cursor") {
      editor, _ in
      UInt8(LineEditor.owner(of: editor)?.completeKey() ?? CC_ERROR)
    }
    memesh_edit_add_function(editor, "memesh-interrupt", "Drop the line (Ctrl-C)") {
      editor, _ in
      UInt8(LineEditor.owner(of: editor)?.interruptKey() ?? CC_ERROR)
    }
    memesh_edit_add_function(editor, "memesh-search", "Search the history backwards") {
      editor, _ in
      UInt8(LineEditor.owner(of: editor)?.searchKey() ?? CC_ERROR)
    }
    memesh_edit_add_function(editor, "memesh-previous", "The previous history entry") {
      editor, _ in
      UInt8(LineEditor.owner(of: editor)?.previousKey() ?? CC_ERROR)
    }
    memesh_edit_add_function(editor, "memesh-next", "The next history entry") {
      editor, _ in
      UInt8(LineEditor.owner(of: editor)?.nextKey() ?? CC_ERROR)
    }
    memesh_edit_add_function(editor, "memesh-suspend", "Stop memesh (Ctrl-Z); fg resumes") {
      _, _ in
      // libedit's own SIGTSTP handler (EL_SIGNAL) restores the terminal and stops the job;
      // on `fg` its SIGCONT handler puts editing back and redraws.
      kill(getpid(), SIGTSTP)
      return UInt8(CC_REDISPLAY)
    }
    memesh_edit_add_function(editor, "memesh-end-or-delete", "End on an empty line, else delete") {
      editor, _ in
      UInt8(LineEditor.owner(of: editor)?.endOrDeleteKey() ?? CC_ERROR)
    }
    let bindings: [(String, String)] = [
      ("^I", "memesh-complete"),
      ("^C", "memesh-interrupt"),
      ("^D", "memesh-end-or-delete"),
      ("^R", "memesh-search"),
      ("^^", "ed-redisplay"),
      ("^P", "memesh-previous"), ("^N", "memesh-next"),
      ("\\e[A", "memesh-previous"), ("\\e[B", "memesh-next"),
      ("\\eOA", "memesh-previous"), ("\\eOB", "memesh-next"),
      ("^W", "ed-delete-prev-word"),
      ("^U", "vi-kill-line-prev"),
      ("^Z", "memesh-suspend"),
      ("\\e[H", "ed-move-to-beg"), ("\\e[F", "ed-move-to-end"),
      ("\\eOH", "ed-move-to-beg"), ("\\eOF", "ed-move-to-end"),
      ("\\e[1~", "ed-move-to-beg"), ("\\e[4~", "ed-move-to-end"),
      ("\\e[3~", "ed-delete-next-char"),
      ("\\e[1;5D", "ed-prev-word"), ("\\e[1;5C", "em-next-word"),
      ("\\e[1;3D", "ed-prev-word"), ("\\e[1;3C", "em-next-word"),
    ]
    for (key, command) in bindings { memesh_edit_bind(editor, key, command) }
    sourceUserSettings()
    // Bound again after the user's file, in the key map it chose: `bind -v` starts vi's maps
    // afresh. Escape sequences are not, since in vi's insert map Esc must stay the key that
    // leaves it (libedit binds the arrows there itself).
    for (key, command) in bindings where key.hasPrefix("^") {
      memesh_edit_bind(editor, key, command)
    }
  }

  /// Reads the user's libedit settings, `$EDITRC` or else `~/.editrc`, as libedit's own
  /// programs do: `bind -v` gives vi keys, and a line starting with `memesh:` applies to memesh
  /// only. libedit's `el_source(editor, NULL)` would
  /// find the file itself, but refuses on systems without `issetugid`, as glibc's are.
  private func sourceUserSettings() {
    let environment = ProcessInfo.processInfo.environment
    let path: String
    if let editrc = environment["EDITRC"], !editrc.isEmpty {
      path = editrc
    } else if let home = environment["HOME"], !home.isEmpty {
      path = home + "/.editrc"
    } else {
      return
    }
    var status = stat()
    guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return }
    el_source(editor, path)
  }

  /// libedit decodes keys with the C library's multibyte functions: they must speak UTF-8,
  /// also under `LANG=C`, or every non-ASCII key is dropped.
  private static func useUTF8Characters() {
    setlocale(LC_CTYPE, "")
    if let codeset = nl_langinfo(Int32(CODESET)), String(cString: codeset) == "UTF-8" { return }
    if setlocale(LC_CTYPE, "C.UTF-8") == nil { setlocale(LC_CTYPE, "en_US.UTF-8") }
  }

  // MARK: - Keys

  /// Ctrl-C: shows `^C` after the text, ends the line and marks it dropped.
  private func interruptKey() -> Int32 {
    interruptedRead = true
    el_cursor(editor, Int32.max / 2)
    var mark: [wchar_t] = [94, 67, 0]  // "^C"
    el_winsertstr(editor, &mark)
    // ed-newline (bound to ^J) moves below the text and prints the newline.
    var newline: [wchar_t] = [10, 0]
    el_wpush(editor, &newline)
    return CC_REFRESH
  }

  /// Ctrl-D: the end of input on an empty line, otherwise delete the character under the cursor.
  private func endOrDeleteKey() -> Int32 {
    let line = el_wline(editor).pointee
    if line.buffer == line.lastchar { return CC_EOF }
    if line.cursor == line.lastchar { return CC_ERROR }
    el_cursor(editor, 1)
    el_deletestr(editor, 1)
    return CC_REFRESH
  }

  // MARK: - Helpers

  /// The editor stored in libedit's client data, for callbacks that cannot capture.
  static func owner(of editor: OpaquePointer?) -> LineEditor? {
    guard let editor, let client = memesh_edit_client(editor) else { return nil }
    return Unmanaged<LineEditor>.fromOpaque(client).takeUnretainedValue()
  }

  /// Converts and stores `prompt` for libedit, escape sequences marked as taking no columns.
  func setPrompt(_ prompt: String, keep: Bool = true) {
    if keep { shellPrompt = prompt }
    let (wide, columns) = LineEditorText.prompt(prompt)
    promptStorage.deallocate()
    promptStorage = LineEditor.wideCopy(wide)
    promptColumns = columns
  }

  private func enterIntoHistory(_ line: String) {
    historyEntries.append(line)
    if historyEntries.count > LineEditor.historyLimit {
      historyEntries.removeFirst(historyEntries.count - LineEditor.historyLimit)
    }
    var wide = line.unicodeScalars.map { wchar_t(bitPattern: $0.value) } + [0]
    memesh_history_enter(history, &wide)
  }

  /// The line's text and cursor offset, in wide characters.
  func currentLine() -> (text: [wchar_t], cursor: Int) {
    let line = el_wline(editor).pointee
    let count = line.lastchar - line.buffer
    let text = Array(UnsafeBufferPointer(start: line.buffer, count: count))
    return (text, line.cursor - line.buffer)
  }

  /// Deletes `count` characters before the cursor and inserts `text` there.
  func replaceBeforeCursor(_ count: Int, with text: String) {
    if count > 0 { el_deletestr(editor, Int32(count)) }
    var wide = text.unicodeScalars.map { wchar_t(bitPattern: $0.value) } + [0]
    if wide.count > 1 { el_winsertstr(editor, &wide) }
  }

  /// The terminal width libedit draws with.
  var columns: Int {
    let columns = Int(memesh_edit_columns(editor))
    return columns > 0 ? columns : 80
  }

  static func scalars(_ wide: UnsafePointer<wchar_t>, count: Int) -> [Unicode.Scalar] {
    UnsafeBufferPointer(start: wide, count: count).compactMap {
      Unicode.Scalar(UInt32(bitPattern: $0))
    }
  }

  private static func wideCopy(_ wide: [wchar_t]) -> UnsafeMutablePointer<wchar_t> {
    let storage = UnsafeMutablePointer<wchar_t>.allocate(capacity: wide.count + 1)
    storage.initialize(from: wide, count: wide.count)
    storage[wide.count] = 0
    return storage
  }

  /// Writes `text` to stdout straight away, after anything buffered.
  static func writeToTerminal(_ text: String) {
    fflush(nil)
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
      let written = bytes.withUnsafeBytes { Glibc.write(STDOUT_FILENO, $0.baseAddress, $0.count) }
      if written < 0 && errno == EINTR { continue }
      if written <= 0 { return }
      bytes = bytes.dropFirst(written)
    }
  }

  /// One line on stderr, for problems that do not stop the session.
  static func warn(_ message: String) {
    FileHandle.standardError.write(Data("warning: \(message)\n".utf8))
  }
}
