import MemeCore
import Testing

@testable import MemeMedia

/// A sixel picture keeps within the largest one the terminal draws (xterm draws nothing of a
/// larger one): the size its XTSMGRAPHICS reply gives, else 1000×1000.
@Suite struct TerminalSixelLimitTests {
  /// xterm -ti vt340's replies, XTSMGRAPHICS before DA1 as asked.
  static let xterm = Array(
    ("\u{1B}P>|XTerm(379)\u{1B}\\\u{1B}[?2;0;1000;1000S"
      + "\u{1B}[?63;1;2;4;6;9;15;16;22;28c").utf8)

  @Test func xtermSaysHowLargeASixelPictureMayBe() {
    let answers = TerminalAnswers.parse(Self.xterm)
    #expect(
      answers
        == TerminalAnswers(
          sixels: true, version: "XTerm(379)", answered: true,
          sixelGeometry: PixelSize(width: 1000, height: 1000)))
  }

  @Test(arguments: [
    // An error status (item or action not known), no reply at all, nonsense sizes.
    "\u{1B}[?2;1;0S\u{1B}[?62;4c", "\u{1B}[?62;4c", "\u{1B}[?2;0;0;1000S\u{1B}[?62;4c",
    "\u{1B}[?2;0;99999999999999999999;10S\u{1B}[?62;4c", "\u{1B}[?1;0;256S\u{1B}[?62;4c",
  ])
  func noUsableGeometryLeavesTheDefault(reply: String) {
    let answers = TerminalAnswers.parse(Array(reply.utf8))
    #expect(answers.sixelGeometry == nil)
    // DA1 is still read after another reply of the same shape.
    #expect(answers.answered && answers.sixels)
  }

  @Test func aGeometryReplyIsNotTakenForDeviceAttributes() {
    // The sizes hold a 4, yet only DA1's attributes say sixels.
    let answers = TerminalAnswers.parse(Array("\u{1B}[?2;0;4;4S\u{1B}[?62;22c".utf8))
    #expect(answers.sixelGeometry == PixelSize(width: 4, height: 4))
    #expect(answers.answered && !answers.sixels)
  }

  /// A window of `window` cells of `cell` pixels, a terminal that draws sixels up to `limit`.
  struct Box: Sendable, CustomTestStringConvertible {
    var mode: PreviewMode
    var window: [Int]
    var cell: [Int]
    var limit: [Int]
    var cells: [Int]
    var testDescription: String { "\(mode) \(window) cells of \(cell) px, limit \(limit)" }
  }

  @Test(arguments: [
    // 1200 pixels wide: 166 columns of 6 make 996. 76 rows of 13 make 988.
    Box(mode: .sixel, window: [200, 100], cell: [6, 13], limit: [1000, 1000], cells: [166, 76]),
    Box(mode: .sixel, window: [200, 56], cell: [6, 13], limit: [1000, 1000], cells: [166, 56]),
    Box(mode: .sixel, window: [100, 30], cell: [6, 13], limit: [1000, 1000], cells: [100, 30]),
    Box(mode: .sixel, window: [300, 80], cell: [10, 20], limit: [2400, 1200], cells: [240, 60]),
    Box(mode: .sixel, window: [300, 80], cell: [10, 20], limit: [1000, 1000], cells: [100, 50]),
    // A cell larger than the limit still gets one.
    Box(mode: .sixel, window: [300, 80], cell: [10, 20], limit: [8, 8], cells: [1, 1]),
    // kitty and symbols are scaled by the terminal: the window alone.
    Box(mode: .kitty, window: [300, 80], cell: [10, 20], limit: [100, 100], cells: [300, 80]),
    Box(mode: .symbols, window: [300, 80], cell: [10, 20], limit: [100, 100], cells: [300, 80]),
  ])
  func theCellsAPictureMayTake(_ box: Box) {
    let cells = TerminalPreview.cellLimit(
      mode: box.mode, maxColumns: box.window[0], maxRows: box.window[1],
      cellPixelSize: PixelSize(width: box.cell[0], height: box.cell[1]),
      sixelLimit: PixelSize(width: box.limit[0], height: box.limit[1]))
    #expect(cells == TerminalPreview.CellSize(columns: box.cells[0], rows: box.cells[1]))
  }

  @Test func aStillSixelPictureInAWideWindowFitsTheDefaultLimit() throws {
    // A wide picture in a 200-column window of 6×13 cells: 1200 pixels wide without the limit.
    let image = RGBAImage(
      width: 1600, height: 900, pixels: [UInt8](repeating: 200, count: 1600 * 900 * 4))
    let picture = TerminalPreview.draw(
      image, mode: .sixel, maxColumns: 200, maxRows: 56, environment: ["TERM": "mlterm"],
      cellPixelSize: PixelSize(width: 6, height: 13))
    #expect(picture.mode == .sixel)
    #expect(picture.cells.columns == 166)
    let size = try #require(Self.rasterSize(picture.text))
    #expect(size.width <= 1000 && size.height <= 1000, "\(size)")
    #expect(size.width == 166 * 6)
  }

  /// The pixel size a sixel sequence declares (its raster attributes, `"1;1;W;H`).
  static func rasterSize(_ text: String) -> PixelSize? {
    guard let start = text.range(of: "\"1;1;") else { return nil }
    let numbers = text[start.upperBound...].prefix { $0 == ";" || $0.isNumber }
      .split(separator: ";").compactMap { Int($0) }
    guard numbers.count >= 2 else { return nil }
    return PixelSize(width: numbers[0], height: numbers[1])
  }
}
