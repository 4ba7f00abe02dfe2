import MemeCore
import Testing

@testable import MemeMedia

@Suite struct TerminalPreviewGeometryTests {
  typealias Cells = TerminalPreview.CellSize

  /// (image, box, cell pixels, expected cells).
  static let cases: [(PixelSize, Cells, PixelSize?, Cells)] = [
    // A square photo in an 80×24 window: limited by height; cells are twice as tall as wide.
    (
      PixelSize(width: 1000, height: 1000), Cells(columns: 80, rows: 24), nil,
      Cells(columns: 48, rows: 24)
    ),
    // A 2:1 panorama: limited by width, 80 columns × 20 rows.
    (
      PixelSize(width: 4000, height: 2000), Cells(columns: 80, rows: 40), nil,
      Cells(columns: 80, rows: 20)
    ),
    // A 4:3 12-MP photo in a 120×35 window.
    (
      PixelSize(width: 4000, height: 3000), Cells(columns: 120, rows: 35), nil,
      Cells(columns: 93, rows: 35)
    ),
    // Portrait 3:4.
    (
      PixelSize(width: 3000, height: 4000), Cells(columns: 80, rows: 24), nil,
      Cells(columns: 36, rows: 24)
    ),
    // A small thumbnail is scaled up to the box.
    (
      PixelSize(width: 64, height: 64), Cells(columns: 20, rows: 10), nil,
      Cells(columns: 20, rows: 10)
    ),
    // Square cells (8×8 pixels, reported by the terminal): a square image stays square.
    (
      PixelSize(width: 500, height: 500), Cells(columns: 80, rows: 24),
      PixelSize(width: 8, height: 8),
      Cells(columns: 24, rows: 24)
    ),
    // 9×18 cells, as TIOCGWINSZ reports for a 9-pixel font.
    (
      PixelSize(width: 1600, height: 900), Cells(columns: 100, rows: 30),
      PixelSize(width: 9, height: 18),
      Cells(columns: 100, rows: 28)
    ),
    // A reported 0×0 cell falls back to 1:2.
    (
      PixelSize(width: 1000, height: 1000), Cells(columns: 80, rows: 24),
      PixelSize(width: 0, height: 0),
      Cells(columns: 48, rows: 24)
    ),
    // A very wide strip keeps at least one row; a very tall one at least one column.
    (
      PixelSize(width: 10000, height: 10), Cells(columns: 80, rows: 24), nil,
      Cells(columns: 80, rows: 1)
    ),
    (
      PixelSize(width: 10, height: 10000), Cells(columns: 80, rows: 24), nil,
      Cells(columns: 1, rows: 24)
    ),
    // Nothing to draw, or nowhere to draw it.
    (PixelSize(width: 0, height: 0), Cells(columns: 80, rows: 24), nil, Cells(columns: 0, rows: 0)),
    (
      PixelSize(width: 100, height: 100), Cells(columns: 0, rows: 24), nil,
      Cells(columns: 0, rows: 0)
    ),
  ]

  @Test(arguments: cases)
  func fitsTheImageInTheBoxAtItsAspectRatio(
    image: PixelSize, box: Cells, cellPixels: PixelSize?, expected: Cells
  ) {
    let cells = TerminalPreview.fittedCells(
      imageSize: image, maxColumns: box.columns, maxRows: box.rows, cellPixelSize: cellPixels)
    #expect(cells == expected)
  }

  @Test func fittedCellsNeverExceedTheBoxAndTouchOneSide() {
    for width in stride(from: 1, to: 3000, by: 137) {
      for height in stride(from: 1, to: 3000, by: 149) {
        let cells = TerminalPreview.fittedCells(
          imageSize: PixelSize(width: width, height: height), maxColumns: 77, maxRows: 21)
        #expect(cells.columns <= 77 && cells.rows <= 21)
        #expect(cells.columns == 77 || cells.rows == 21, "\(width)×\(height) → \(cells)")
      }
    }
  }
}
