import MemeCore

extension TerminalPreview {
  /// The default tile of a grid: 20×10 cells, a square at the usual 1:2 cell shape.
  public static let defaultGridTile = CellSize(columns: 20, rows: 10)

  /// Thumbnails side by side with their labels centered beneath, as many per row as fit in
  /// `columns` (at least one), rows of thumbnails separated by a blank line.
  ///
  /// Each thumbnail is fitted into `tile` at its own aspect ratio, centered across and standing
  /// on its label. Symbols are combined line by line; kitty, iTerm2 and sixel pictures are put in
  /// place with cursor movements. Empty for `.none` or no items. No trailing newline.
  public static func grid(
    _ items: [(label: String, image: RGBAImage)], mode: PreviewMode, columns: Int,
    environment: [String: String], tile: CellSize = defaultGridTile,
    cellPixelSize: PixelSize? = nil
  ) -> String {
    guard mode != .none, !items.isEmpty, columns > 0, tile.columns > 0, tile.rows > 0 else {
      return ""
    }
    let gap = 2
    let tileColumns = min(tile.columns, columns)
    let perRow = max(1, (columns + gap) / (tileColumns + gap))
    let colorDepth = TerminalCapabilities.detect(environment: environment).colorDepth

    var rows: [String] = []
    for start in stride(from: 0, to: items.count, by: perRow) {
      let chunk = items[start..<min(start + perRow, items.count)]
      let pictures = chunk.map {
        draw(
          $0.image, mode: mode, colorDepth: colorDepth, maxColumns: tileColumns,
          maxRows: tile.rows, environment: environment, cellPixelSize: cellPixelSize,
          supplementingTermInfo: true)
      }
      let labels = chunk.map { centered($0.label, width: tileColumns) }
      rows.append(
        gridRow(pictures, labels: labels, tileColumns: tileColumns, gap: gap))
    }
    return rows.joined(separator: "\n\n")
  }

  // MARK: - Layout

  /// One row of tiles: the picture lines (all pictures standing on one baseline), then labels.
  private static func gridRow(
    _ pictures: [Picture], labels: [String], tileColumns: Int, gap: Int
  ) -> String {
    let height = pictures.map(\.cells.rows).max() ?? 0
    let gapText = String(repeating: " ", count: gap)
    let labelLine = labels.joined(separator: gapText)
    guard height > 0 else { return labelLine }

    if pictures.allSatisfy({ $0.mode == .symbols || $0.mode == .none }) {
      var lines = [String](repeating: "", count: height)
      for (index, picture) in pictures.enumerated() {
        let left = (tileColumns - picture.cells.columns) / 2
        let right = tileColumns - picture.cells.columns - left
        let top = height - picture.cells.rows
        let pictureLines = picture.text.split(separator: "\n", omittingEmptySubsequences: false)
        for line in 0..<height {
          var segment = String(repeating: " ", count: left)
          if line >= top, line - top < pictureLines.count, picture.mode == .symbols {
            // Each line resets its colors, so the padding around it stays plain.
            var text = String(pictureLines[line - top])
            if !text.hasSuffix(reset) { text += reset }
            segment += text + String(repeating: " ", count: right)
          } else {
            segment += String(repeating: " ", count: picture.cells.columns + right)
          }
          lines[line] += (index == 0 ? "" : gapText) + segment
        }
      }
      return (lines + [labelLine]).joined(separator: "\n")
    }

    // Graphics: make room for the row, then draw each picture from a saved position.
    var text = "\r" + String(repeating: "\n", count: height) + csi("\(height)A")
    for (index, picture) in pictures.enumerated() where !picture.text.isEmpty {
      let column = index * (tileColumns + gap) + (tileColumns - picture.cells.columns) / 2
      let top = height - picture.cells.rows
      text += saveCursor
      if top > 0 { text += csi("\(top)B") }
      text += csi("\(column + 1)G")
      if picture.mode == .symbols {
        // A fallback to symbols: each line starts again at the tile's column.
        text += picture.text.replacingNewlines(with: "\n" + csi("\(column + 1)G"))
      } else {
        text += picture.text
      }
      text += restoreCursor
    }
    return text + csi("\(height)B") + "\r" + labelLine
  }

  /// `label` cut to `width` characters and centered in spaces.
  static func centered(_ label: String, width: Int) -> String {
    let cut = label.count > width ? String(label.prefix(width)) : label
    let left = (width - cut.count) / 2
    return String(repeating: " ", count: left) + cut
      + String(repeating: " ", count: width - cut.count - left)
  }
}

extension String {
  /// Every "\n" replaced by `replacement`.
  fileprivate func replacingNewlines(with replacement: String) -> String {
    split(separator: "\n", omittingEmptySubsequences: false).joined(separator: replacement)
  }
}
