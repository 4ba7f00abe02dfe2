import MemeCore

extension TerminalPreview {
  /// The default tile of a grid: 20×10 cells, a square at the usual 1:2 cell shape.
  public static let defaultGridTile = CellSize(columns: 20, rows: 10)

  /// How a grid's tiles fit a window: how wide each is and how many share a row.
  public struct GridLayout: Sendable, Equatable {
    /// The tile each thumbnail is fitted into.
    public var tile: CellSize
    /// Thumbnails per row (at least one).
    public var perRow: Int
    /// Columns between tiles.
    public var gap: Int

    /// Tiles of `tile` (narrowed to the window) in `columns` columns.
    public init(columns: Int, tile: CellSize = defaultGridTile) {
      gap = 2
      self.tile = CellSize(columns: max(1, min(tile.columns, columns)), rows: max(1, tile.rows))
      perRow = max(1, (columns + gap) / (self.tile.columns + gap))
    }

    /// The screen lines one row of tiles takes, its labels and the blank line after it
    /// included.
    public var rowHeight: Int { tile.rows + 2 }
  }

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
    guard columns > 0 else { return "" }
    let layout = GridLayout(columns: columns, tile: tile)
    return stride(from: 0, to: items.count, by: layout.perRow).map {
      gridRow(
        items[$0..<min($0 + layout.perRow, items.count)], mode: mode, layout: layout,
        environment: environment, cellPixelSize: cellPixelSize)
    }.joined(separator: "\n\n")
  }

  /// One row of a grid (at most `layout.perRow` items), so a long grid can be printed row by row
  /// as its thumbnails are read. Empty for `.none` or no items. No trailing newline.
  public static func gridRow(
    _ items: ArraySlice<(label: String, image: RGBAImage)>, mode: PreviewMode,
    layout: GridLayout, environment: [String: String], cellPixelSize: PixelSize? = nil
  ) -> String {
    guard mode != .none, !items.isEmpty else { return "" }
    let colorDepth = TerminalCapabilities.detect(environment: environment).colorDepth
    let pictures = items.map {
      draw(
        $0.image, mode: mode, colorDepth: colorDepth, maxColumns: layout.tile.columns,
        maxRows: layout.tile.rows, environment: environment, cellPixelSize: cellPixelSize,
        supplementingTermInfo: true)
    }
    let labels = items.map { centered($0.label, width: layout.tile.columns) }
    return gridRow(pictures, labels: labels, tileColumns: layout.tile.columns, gap: layout.gap)
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
