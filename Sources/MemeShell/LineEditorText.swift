@preconcurrency import CEdit
import CMemeshEdit
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Terminal columns of text, the way libedit draws it: prompts, candidate lists and where a
/// long line wraps. Needs the UTF-8 `LC_CTYPE` that `LineEditor` sets up (`wcwidth`).
enum LineEditorText {
  /// Columns `scalar` takes on the terminal (0 for combining marks, 2 for CJK and emoji).
  static func width(_ scalar: Unicode.Scalar) -> Int {
    max(0, Int(memesh_wcwidth(wchar_t(bitPattern: scalar.value))))
  }

  /// Columns `text` takes once made visible.
  static func width(_ text: String) -> Int {
    visible(text).unicodeScalars.reduce(0) { $0 + width($1) }
  }

  /// `text` with control characters shown as `^X` and other unprintable ones as U+FFFD, so user
  /// data never reaches the terminal as an escape sequence.
  static func visible(_ text: String) -> String {
    var result = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      switch scalar.value {
      case 0..<0x20:
        result.append("^")
        result.append(Unicode.Scalar(UInt8(scalar.value + 0x40)))
      case 0x7F:
        result.append(contentsOf: "^?".unicodeScalars)
      case 0x80..<0xA0, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069:
        result.append("\u{FFFD}")
      default:
        result.append(scalar)
      }
    }
    return String(result)
  }

  // MARK: - Prompt

  /// The wide prompt for libedit and the columns of each character it draws. CSI escape
  /// sequences (colours) are wrapped in `LineEditor.literalMark` so they take no columns;
  /// other control characters are made visible.
  static func prompt(_ prompt: String) -> (wide: [wchar_t], columns: [Int]) {
    var wide: [wchar_t] = []
    var columns: [Int] = []
    var pendingLiteral: [wchar_t] = []
    var scalars = Array(prompt.unicodeScalars)[...]
    while let scalar = scalars.first {
      if scalar == "\u{1B}", let sequence = csiSequence(scalars) {
        pendingLiteral += sequence.map { wchar_t(bitPattern: $0.value) }
        scalars = scalars.dropFirst(sequence.count)
        continue
      }
      scalars = scalars.dropFirst()
      for visibleScalar in visible(String(scalar)).unicodeScalars {
        // libedit loses zero-width characters of a prompt (a combining accent, a virama): sent
        // as a literal before the next character, the terminal still joins them to the last.
        if width(visibleScalar) == 0 && !wide.isEmpty {
          pendingLiteral.append(wchar_t(bitPattern: visibleScalar.value))
          continue
        }
        // libedit draws a literal together with the character after it, in that one's columns.
        if !pendingLiteral.isEmpty {
          wide.append(LineEditor.literalMark)
          wide += pendingLiteral
          wide.append(LineEditor.literalMark)
          pendingLiteral = []
        }
        wide.append(wchar_t(bitPattern: visibleScalar.value))
        columns.append(width(visibleScalar))
      }
    }
    // A trailing sequence (a colour reset) needs a character after it: put it before the last.
    if !pendingLiteral.isEmpty, let last = wide.last, last != LineEditor.literalMark {
      wide.removeLast()
      wide += [LineEditor.literalMark] + pendingLiteral + [LineEditor.literalMark, last]
    }
    return (wide, columns)
  }

  /// The CSI sequence (`ESC [ … final`) at the start of `scalars`, if there is one.
  private static func csiSequence(_ scalars: ArraySlice<Unicode.Scalar>) -> [Unicode.Scalar]? {
    var sequence: [Unicode.Scalar] = []
    for (index, scalar) in scalars.prefix(32).enumerated() {
      sequence.append(scalar)
      switch index {
      case 0: continue
      case 1: if scalar != "[" { return nil }
      default:
        if (0x40...0x7E).contains(scalar.value) { return sequence }
        if !(0x20...0x3F).contains(scalar.value) { return nil }
      }
    }
    return nil
  }

  // MARK: - Wrapping

  /// Rows of the cursor and of the end of the text when libedit draws `prompt` (columns per
  /// character) and `text` on a terminal `columns` wide; mirrors libedit's refresh.
  static func rows(prompt: [Int], text: [wchar_t], cursor: Int, columns: Int)
    -> (cursor: Int, last: Int)
  {
    var row = 0
    var column = 0
    func put(_ width: Int) {
      while column + width > columns {
        put(1)
        if column == 0 { break }
      }
      column += width
      if column >= columns {
        column = 0
        row += 1
      }
    }
    for width in prompt { put(width) }
    var cursorPosition: (Int, Int)?
    for (index, character) in text.enumerated() {
      let drawn = drawnWidths(character, column: column)
      if index == cursor {
        cursorPosition = (row, column)
        if let first = drawn.first, first > 1, column + first > columns {
          cursorPosition = (row + 1, 0)
        }
      }
      if character == 10 {
        row += 1
        column = 0
        continue
      }
      for width in drawn { put(width) }
    }
    return (cursorPosition?.0 ?? row, row)
  }

  /// The columns of each glyph libedit draws for one buffer character.
  private static func drawnWidths(_ character: wchar_t, column: Int) -> [Int] {
    if character == 9 { return Array(repeating: 1, count: 8 - column % 8) }
    if character == 10 { return [] }
    if character < 0x100 && iswcntrl(wint_t(character)) != 0 { return [1, 1] }
    if iswprint(wint_t(character)) != 0 { return [max(0, Int(memesh_wcwidth(character)))] }
    let digits = String(UInt32(bitPattern: character), radix: 16).count
    return Array(repeating: 1, count: 3 + max(4, digits))
  }

  // MARK: - Candidate lists

  /// `items` in columns that fit `width`, filled top to bottom then left to right, each line
  /// ending in a newline.
  static func table(_ items: [String], width terminalWidth: Int) -> String {
    tableRows(items, width: terminalWidth).map { $0 + "\n" }.joined()
  }

  /// The rows of `table(_:width:)`, without newlines. Cells are measured and cut by
  /// `Display.columns` (grapheme clusters, as the terminal draws them), never inside a cluster.
  static func tableRows(_ items: [String], width terminalWidth: Int) -> [String] {
    let available = max(1, terminalWidth - 1)
    let cells = items.map { Display.truncated(visible($0), toColumns: available) }
    let widths = cells.map(Display.columns)
    guard let widest = widths.max() else { return [] }
    let gap = 2
    let columnCount = max(1, (available - widest) / (widest + gap) + 1)
    let rowCount = (cells.count + columnCount - 1) / columnCount
    var rows: [String] = []
    rows.reserveCapacity(rowCount)
    for row in 0..<rowCount {
      var line = ""
      for column in 0..<columnCount {
        let index = column * rowCount + row
        guard index < cells.count else { break }
        let isLast = (column + 1) * rowCount + row >= cells.count
        line += cells[index]
        if !isLast { line += String(repeating: " ", count: widest + gap - widths[index]) }
      }
      rows.append(line)
    }
    return rows
  }
}
