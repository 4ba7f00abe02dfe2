import Foundation
import MemeCore
import MemeMedia

extension Shell {
  /// Draws labelled thumbnails as a grid, row by row as they are read, so the first row shows at
  /// once; a screenful at a time for a person (`Pager`), all of it elsewhere. An entry whose
  /// picture cannot be read (`load` gives nil) is left out with its `unreadable` warning. Needs
  /// a drawing window (the caller shows a table otherwise).
  func drawGrid(_ entries: [GridEntry]) {
    guard let window = drawingWindow else { return }
    let layout = TerminalPreview.GridLayout(columns: window.cells.columns)
    let pager = Pager(shell: self)
    var shown = 0
    var linesOnScreen = 0
    for start in stride(from: 0, to: entries.count, by: layout.perRow) {
      var items: [(label: String, image: RGBAImage)] = []
      for entry in entries[start..<min(start + layout.perRow, entries.count)] {
        guard let image = entry.load() else {
          console.warning(entry.unreadable())
          continue
        }
        items.append((entry.label, image))
      }
      if interruptRequested() {
        console.endEchoedInterrupt()
        console.note("interrupted; showed the first \(shown)")
        return
      }
      guard !items.isEmpty else { continue }
      if let pager, linesOnScreen > 0, linesOnScreen + layout.rowHeight > pager.rows - 1 {
        guard pager.more() else { return }
        linesOnScreen = 0
      }
      console.picture(
        (shown == 0 ? "" : "\n")
          + TerminalPreview.gridRow(
            items[...], mode: settings.previewMode, layout: layout, environment: environment,
            cellPixelSize: window.cellPixelSize))
      shown += items.count
      linesOnScreen += layout.rowHeight
    }
  }
}

/// One picture of a grid: its label, how to read its thumbnail, and the warning when it cannot.
struct GridEntry {
  var label: String
  var load: () -> RGBAImage?
  var unreadable: () -> String
}
