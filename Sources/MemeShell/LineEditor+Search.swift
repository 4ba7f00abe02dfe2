@preconcurrency import CEdit
import CMemeshEdit
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

// MARK: - Ctrl-R

/// A reverse incremental search in progress.
struct LineEditorSearch {
  /// What the user typed after Ctrl-R.
  var pattern = ""
  /// The history index of the shown match (`entries.count` before the first match).
  var index: Int
  /// Whether the pattern matches nothing (older).
  var failed = false
  /// The line and cursor before Ctrl-R, for Ctrl-G.
  var original: [wchar_t]
  var originalCursor: Int
  /// The shell's prompt, shown again when the search ends.
  var prompt: String
}

extension LineEditor {
  /// The key libedit gets after each search step: bound to ed-redisplay, it redraws the line
  /// with the search prompt.
  static let redisplayKey: wchar_t = 0x1E

  /// Ctrl-R: shows `(reverse-i-search)`…': ` and takes the following keys itself: typing
  /// narrows, Ctrl-R finds an older match, Backspace widens, Enter runs the match, Ctrl-G
  /// gives up, any other key (Esc, arrows, Ctrl-A, Ctrl-E …) keeps the match for editing.
  func searchKey() -> Int32 {
    if search == nil {
      let (text, cursor) = currentLine()
      search = LineEditorSearch(
        index: historyEntries.count, original: text, originalCursor: cursor, prompt: shellPrompt)
      memesh_edit_set_reader(editor) { editor, character in
        guard let character, let owner = LineEditor.owner(of: editor) else { return -1 }
        return owner.readDuringSearch(into: character)
      }
    }
    showSearchPrompt()
    return CC_REDISPLAY
  }

  /// libedit's character reader while a search runs.
  private func readDuringSearch(into character: UnsafeMutablePointer<wchar_t>) -> Int32 {
    if !keysAfterSearch.isEmpty {
      // The search ended and its line was redrawn with the shell's prompt: now the keys that
      // ended it, for libedit, which reads on by itself after them.
      character.pointee = keysAfterSearch.removeFirst()
      if keysAfterSearch.isEmpty { memesh_edit_set_reader(editor, nil) }
      return 1
    }
    guard var state = search else { return -1 }
    guard let key = LineEditor.readKey() else {
      endSearch()
      return -1
    }
    switch key {
    case 0x12:  // Ctrl-R: an older match
      find(&state, before: state.index)
    case 0x7F, 0x08:  // Backspace: a shorter pattern, from the newest entry again
      if !state.pattern.isEmpty { state.pattern.unicodeScalars.removeLast() }
      state.failed = false
      if state.pattern.isEmpty {
        state.index = historyEntries.count
        replaceLine(with: state.original, cursor: state.originalCursor)
      } else {
        find(&state, before: historyEntries.count)
      }
    case 0x07:  // Ctrl-G: back to the line as it was
      replaceLine(with: state.original, cursor: state.originalCursor)
      endSearch()
      character.pointee = LineEditor.redisplayKey
      return 1
    case 0..<0x20:  // Enter, Esc, arrows, Ctrl-C and other commands end the search, then run
      var keys = [key]
      if key == 0x1B {
        // Esc alone keeps the match for editing; Esc [ or Esc O starts an arrow or other key.
        let next = LineEditor.moreInputWaiting() ? LineEditor.readKey() : nil
        keys = next.map { $0 == 0x5B || $0 == 0x4F ? [key, $0] : [$0] } ?? []
      }
      endSearch()
      if !keys.isEmpty {
        memesh_edit_set_reader(editor) { editor, character in
          guard let character, let owner = LineEditor.owner(of: editor) else { return -1 }
          return owner.readDuringSearch(into: character)
        }
        keysAfterSearch = keys
      }
      character.pointee = LineEditor.redisplayKey
      return 1
    default:
      if let scalar = Unicode.Scalar(UInt32(bitPattern: key)) {
        state.pattern.unicodeScalars.append(scalar)
        find(&state, before: min(state.index + 1, historyEntries.count))
      }
    }
    search = state
    showSearchPrompt()
    character.pointee = LineEditor.redisplayKey
    return 1
  }

  /// Shows the newest entry before `limit` that contains the pattern, the cursor on the match.
  private func find(_ state: inout LineEditorSearch, before limit: Int) {
    guard !state.pattern.isEmpty else { return }
    var index = min(limit, historyEntries.count) - 1
    while index >= 0 {
      let entry = historyEntries[index]
      if let range = entry.range(of: state.pattern) {
        let wide = entry.unicodeScalars.map { wchar_t(bitPattern: $0.value) }
        let cursor = entry.unicodeScalars.distance(
          from: entry.unicodeScalars.startIndex, to: range.lowerBound)
        replaceLine(with: wide, cursor: cursor)
        state.index = index
        state.failed = false
        return
      }
      index -= 1
    }
    state.failed = true
  }

  private func showSearchPrompt() {
    guard let state = search else { return }
    let visible = LineEditorText.visible(state.pattern)
    setPrompt("(\(state.failed ? "failed " : "")reverse-i-search)`\(visible)': ", keep: false)
  }

  /// Gives keys back to libedit and the prompt back to the shell.
  func endSearch() {
    keysAfterSearch = []
    memesh_edit_set_reader(editor, nil)
    guard let state = search else { return }
    search = nil
    if state.index < historyEntries.count
      && currentLine().text
        == historyEntries[state.index]
        .unicodeScalars.map({ wchar_t(bitPattern: $0.value) })
    {
      if historyPosition >= historyEntries.count { typedLine = state.original }
      historyPosition = state.index
    }
    setPrompt(state.prompt)
  }

  /// Replaces the whole line with `text`, the cursor `cursor` characters in.
  func replaceLine(with text: [wchar_t], cursor: Int) {
    let (current, _) = currentLine()
    el_cursor(editor, Int32(current.count))
    if !current.isEmpty { el_deletestr(editor, Int32(current.count)) }
    var terminated = text + [0]
    if !text.isEmpty { el_winsertstr(editor, &terminated) }
    el_cursor(editor, Int32(cursor - text.count))
  }

  /// Whether more bytes follow at once (an escape sequence) rather than a lone Esc key.
  static func moreInputWaiting() -> Bool {
    var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
    return poll(&descriptor, 1, 30) > 0
  }

  /// One key from the terminal as a Unicode scalar; nil at the end of input or on a SIGINT.
  static func readKey() -> wchar_t? {
    func byte() -> UInt8? {
      var value: UInt8 = 0
      while true {
        let count = Glibc.read(STDIN_FILENO, &value, 1)
        if count == 1 { return value }
        if count < 0 && errno == EINTR && !LineEditor.interrupted { continue }
        return nil
      }
    }
    while true {
      guard let lead = byte() else { return nil }
      let length =
        lead < 0x80
        ? 1 : lead >> 5 == 0b110 ? 2 : lead >> 4 == 0b1110 ? 3 : lead >> 3 == 0b11110 ? 4 : 0
      if length == 0 { continue }
      var bytes = [lead]
      for _ in 1..<length {
        guard let next = byte() else { return nil }
        bytes.append(next)
      }
      if let scalar = String(validating: bytes, as: UTF8.self)?.unicodeScalars.first {
        return wchar_t(bitPattern: scalar.value)
      }
    }
  }
}
