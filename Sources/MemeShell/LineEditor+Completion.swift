@preconcurrency import CEdit
import CMemeshEdit
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

// MARK: - Tab

extension LineEditor {
  /// Tab: asks the completer about the text before the cursor. One candidate replaces the
  /// partial word (plus a space when it asks for one); several insert their longest common
  /// prefix, and when there is nothing more to insert (a second Tab) they are listed.
  func completeKey() -> Int32 {
    let (text, cursor) = currentLine()
    let before = LineEditor.scalars(text, upTo: cursor)
    var beforeText = ""
    beforeText.unicodeScalars.append(contentsOf: before)
    let result = completer(beforeText)
    let candidates = result.candidates
    if candidates.isEmpty { return CC_ERROR }
    let replaced = min(max(0, result.replacedScalars), before.count)
    let partial = before.suffix(replaced)
    if candidates.count == 1, let only = candidates.first {
      var insertion = only.insertion
      let nextIsSpace = cursor < text.count && text[cursor] == 32
      if only.appendSpace && !nextIsSpace { insertion += " " }
      replaceBeforeCursor(replaced, with: insertion)
      return CC_REFRESH
    }
    let prefix = LineEditor.commonPrefix(candidates.map { Array($0.insertion.unicodeScalars) })
    if prefix.count > partial.count {
      var insertion = ""
      insertion.unicodeScalars.append(contentsOf: prefix)
      replaceBeforeCursor(replaced, with: insertion)
      return CC_REFRESH
    }
    listCandidates(candidates.map(\.display), text: text, cursor: cursor)
    return CC_REDISPLAY
  }

  /// Above this many candidates Tab asks before listing them (bash's default,
  /// `completion-query-items`).
  static let listQuestionThreshold = 100

  /// Prints `displays` in columns below the line; libedit then redraws prompt and line under
  /// the list. More than `listQuestionThreshold` are listed only after "y" to
  /// "Display all N possibilities? (y or n)"; a list taller than the screen stops at each
  /// screenful with `--More--`, as readline does.
  private func listCandidates(_ displays: [String], text: [wchar_t], cursor: Int) {
    let width = columns
    let rows = LineEditorText.rows(
      prompt: promptColumns, text: text, cursor: cursor, columns: width)
    // Leave the edited text: go below its last row.
    LineEditor.writeToTerminal(String(repeating: "\n", count: rows.last - rows.cursor + 1))
    var listed = true
    if displays.count > LineEditor.listQuestionThreshold {
      LineEditor.writeToTerminal("Display all \(displays.count) possibilities? (y or n)")
      listed = LineEditor.answer(yes: ["y", "Y", " "], no: ["n", "N", "q", "Q", "\u{7F}"])
      LineEditor.writeToTerminal("\n")
    }
    if listed { page(LineEditorText.tableRows(displays, width: width)) }
    // libedit believes it is still on the cursor's row and clears from the text's last row up
    // to its first before redrawing: give it that many blank rows under the list.
    LineEditor.writeToTerminal(String(repeating: "\n", count: rows.cursor))
  }

  /// Writes `lines`, a screenful at a time when there are more than the screen holds:
  /// `--More--` then waits for Space (a screenful more), Enter or y (one line more), or n, q,
  /// Esc, Ctrl-C, Ctrl-G (stop).
  private func page(_ lines: [String]) {
    let screenful = max(1, Int(memesh_edit_lines(editor)) - 1)
    var next = 0
    var allowed = lines.count > screenful ? screenful : lines.count
    while next < lines.count {
      let end = min(lines.count, next + allowed)
      LineEditor.writeToTerminal(lines[next..<end].map { $0 + "\n" }.joined())
      next = end
      guard next < lines.count else { return }
      LineEditor.writeToTerminal("--More--")
      let key = LineEditor.answerKey(
        among: [" ", "\r", "\n", "y", "Y", "n", "N", "q", "Q", "\u{7F}"])
      // Erase the marker where the next line goes.
      LineEditor.writeToTerminal("\r\u{1B}[K")
      switch key {
      case " ": allowed = screenful
      case "\r", "\n", "y", "Y": allowed = 1
      default: return
      }
    }
  }

  /// Waits for a key in `yes` (true) or `no` (false); Esc, Ctrl-C, Ctrl-G and the end of input
  /// count as no; other keys ring the bell.
  static func answer(yes: Set<Unicode.Scalar>, no: Set<Unicode.Scalar>) -> Bool {
    guard let key = answerKey(among: yes.union(no)) else { return false }
    return yes.contains(key)
  }

  /// The next key that is one of `keys`; nil for Esc (with the rest of its sequence), Ctrl-C,
  /// Ctrl-G or the end of input. Other keys ring the bell and are ignored.
  static func answerKey(among keys: Set<Unicode.Scalar>) -> Unicode.Scalar? {
    while true {
      guard let wide = readKey(), let key = Unicode.Scalar(UInt32(bitPattern: wide)) else {
        return nil
      }
      if keys.contains(key) { return key }
      switch key.value {
      case 0x03, 0x07: return nil
      case 0x1B:
        // An arrow or function key sends more after Esc: swallow it with the Esc.
        while moreInputWaiting() { _ = readKey() }
        return nil
      default:
        writeToTerminal("\u{07}")
      }
    }
  }

  /// The scalars of `text` before `cursor`.
  static func scalars(_ text: [wchar_t], upTo cursor: Int) -> [Unicode.Scalar] {
    text.prefix(cursor).compactMap { Unicode.Scalar(UInt32(bitPattern: $0)) }
  }

  /// The longest run of scalars every one of `words` starts with.
  static func commonPrefix(_ words: [[Unicode.Scalar]]) -> [Unicode.Scalar] {
    guard var prefix = words.first else { return [] }
    for word in words.dropFirst() {
      var length = 0
      while length < prefix.count, length < word.count, prefix[length] == word[length] {
        length += 1
      }
      prefix.removeLast(prefix.count - length)
    }
    return prefix
  }
}
