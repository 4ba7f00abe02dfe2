import MemeCore

extension TerminalPreview {
  /// A size in terminal character cells.
  public struct CellSize: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// Width in columns.
    public var columns: Int
    /// Height in rows (lines).
    public var rows: Int

    /// A size of `columns`×`rows` cells.
    public init(columns: Int, rows: Int) {
      self.columns = columns
      self.rows = rows
    }

    /// For example `40×12 cells`.
    public var description: String { "\(columns)×\(rows) cells" }
  }

  /// The pixel size of one cell assumed when the terminal does not report it: cells about twice
  /// as tall as wide, the shape of common monospace fonts.
  public static let defaultCellPixelSize = PixelSize(width: 10, height: 20)

  /// The largest cell size, at most `maxColumns`×`maxRows`, that shows an image of `imageSize`
  /// at its own aspect ratio, given cells of `cellPixelSize` pixels (the window's pixel size
  /// divided by its cells, from TIOCGWINSZ; about 1:2 when unknown). Small images are scaled up
  /// to fill the box. Zero cells for an empty image or an empty box.
  public static func fittedCells(
    imageSize: PixelSize, maxColumns: Int, maxRows: Int,
    cellPixelSize: PixelSize? = nil
  ) -> CellSize {
    guard imageSize.width > 0, imageSize.height > 0, maxColumns > 0, maxRows > 0 else {
      return CellSize(columns: 0, rows: 0)
    }
    let cell = usableCellPixelSize(cellPixelSize)
    // The image's size measured in cells at scale 1; only its shape matters.
    let widthInCells = Double(imageSize.width) / Double(cell.width)
    let heightInCells = Double(imageSize.height) / Double(cell.height)
    if widthInCells / heightInCells >= Double(maxColumns) / Double(maxRows) {
      let rows = (Double(maxColumns) * heightInCells / widthInCells).rounded()
      return CellSize(columns: maxColumns, rows: min(maxRows, max(1, Int(rows))))
    } else {
      let columns = (Double(maxRows) * widthInCells / heightInCells).rounded()
      return CellSize(columns: min(maxColumns, max(1, Int(columns))), rows: maxRows)
    }
  }

  /// The largest sixel picture drawn when the terminal did not say how large it may be
  /// (XTSMGRAPHICS): xterm's default `maxGraphicSize`. xterm draws nothing of a larger one.
  public static let defaultSixelLimit = PixelSize(width: 1000, height: 1000)

  /// The most cells, within `maxColumns`×`maxRows`, a picture in `mode` may cover. A sixel
  /// picture is drawn pixel for pixel (`cellPixelSize` a cell), so it also keeps within
  /// `sixelLimit` pixels (the terminal's answer, else `defaultSixelLimit`); chafa draws whole
  /// sixel bands of 6 pixel rows, never more rows than the cells have. Other modes are scaled
  /// by the terminal and take the box.
  public static func cellLimit(
    mode: PreviewMode, maxColumns: Int, maxRows: Int, cellPixelSize: PixelSize?,
    sixelLimit: PixelSize = TerminalCapabilities.sixelLimit
  ) -> CellSize {
    guard mode == .sixel else { return CellSize(columns: maxColumns, rows: maxRows) }
    let cell = usableCellPixelSize(cellPixelSize)
    return CellSize(
      columns: min(maxColumns, max(1, sixelLimit.width / cell.width)),
      rows: min(maxRows, max(1, sixelLimit.height / cell.height)))
  }

  /// `cellPixelSize` when it is a plausible cell (some terminals report 0×0), else the default.
  public static func usableCellPixelSize(_ cellPixelSize: PixelSize?) -> PixelSize {
    guard let size = cellPixelSize, size.width > 0, size.height > 0 else {
      return defaultCellPixelSize
    }
    return size
  }
}
