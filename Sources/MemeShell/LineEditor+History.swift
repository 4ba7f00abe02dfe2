@preconcurrency import CEdit
import Foundation

// MARK: - Up and Down

extension LineEditor {
  /// Up, Ctrl-P: the previous history entry; the line being typed is kept for coming back down.
  /// After Ctrl-R it goes on from the match, as bash does.
  func previousKey() -> Int32 {
    guard historyPosition > 0 else { return CC_ERROR }
    if historyPosition >= historyEntries.count { typedLine = currentLine().text }
    historyPosition = min(historyPosition, historyEntries.count) - 1
    show(historyEntries[historyPosition])
    return CC_REFRESH
  }

  /// Down, Ctrl-N: the next history entry, then the line that was being typed.
  func nextKey() -> Int32 {
    guard historyPosition < historyEntries.count else { return CC_ERROR }
    historyPosition += 1
    if historyPosition == historyEntries.count {
      replaceLine(with: typedLine, cursor: typedLine.count)
    } else {
      show(historyEntries[historyPosition])
    }
    return CC_REFRESH
  }

  private func show(_ entry: String) {
    let wide = entry.unicodeScalars.map { wchar_t(bitPattern: $0.value) }
    replaceLine(with: wide, cursor: wide.count)
  }
}
