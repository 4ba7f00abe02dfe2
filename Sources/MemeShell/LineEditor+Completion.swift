@preconcurrency import CEdit
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

  /// Prints `displays` in columns below the line; libedit then redraws prompt and line under
  /// the list.
  private func listCandidates(_ displays: [String], text: [wchar_t], cursor: Int) {
    let width = columns
    let rows = LineEditorText.rows(
      prompt: promptColumns, text: text, cursor: cursor, columns: width)
    // Leave the edited text: go below its last row.
    var output = String(repeating: "\n", count: rows.last - rows.cursor + 1)
    output += LineEditorText.table(displays, width: width)
    // libedit believes it is still on the cursor's row and clears from the text's last row up
    // to its first before redrawing: give it that many blank rows under the list.
    output += String(repeating: "\n", count: rows.cursor)
    LineEditor.writeToTerminal(output)
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
