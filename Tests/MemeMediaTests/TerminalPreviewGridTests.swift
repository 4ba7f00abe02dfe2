import MemeCore
import Testing

@testable import MemeMedia

@Suite struct TerminalPreviewGridTests {
  static let xterm = ["TERM": "xterm-256color", "COLORTERM": "truecolor"]

  func items(_ count: Int) -> [(label: String, image: RGBAImage)] {
    (1...count).map {
      (
        label: "#\($0)",
        image: $0.isMultiple(of: 2) ? PreviewFixture.portrait : PreviewFixture.landscape
      )
    }
  }

  /// (window columns, thumbnails, thumbnails per row): 20-column tiles, 2 columns apart.
  static let widths: [(Int, Int, Int)] = [
    (80, 7, 3), (64, 7, 3), (63, 7, 2), (120, 7, 5), (20, 3, 1), (12, 2, 1), (200, 4, 4),
  ]

  @Test(arguments: widths)
  func asManyThumbnailsPerRowAsTheWidthAllows(columns: Int, count: Int, perRow: Int) throws {
    let text = TerminalPreview.grid(
      items(count), mode: .symbols, columns: columns, environment: Self.xterm)
    let lines = VisibleText.lines(text)
    for line in lines {
      #expect(line.unicodeScalars.count <= columns, "\(String(reflecting: line))")
    }
    // Each label line holds one row's labels, in order, beneath their pictures.
    let labelLines = lines.filter { $0.contains("#") }
    let rows = (count + perRow - 1) / perRow
    #expect(labelLines.count == rows)
    for (row, line) in labelLines.enumerated() {
      let expected = (row * perRow + 1...min(count, (row + 1) * perRow)).map { "#\($0)" }
      #expect(line.split(separator: " ").map(String.init) == expected)
    }
    // Above the first label line: the tallest picture of the row (the portrait fills the
    // 10-row tile; alone, the landscape is only as tall as it is at the tile's width).
    let firstLabel = try #require(lines.firstIndex { $0.contains("#") })
    let landscape = TerminalPreview.fittedCells(
      imageSize: PreviewFixture.landscape.size, maxColumns: min(20, columns), maxRows: 10)
    #expect(firstLabel == (perRow >= 2 ? 10 : landscape.rows))
  }

  @Test func labelsAreCenteredUnderTheirPictures() throws {
    let text = TerminalPreview.grid(
      [
        (label: "7f3a", image: PreviewFixture.landscape),
        (label: "b2", image: PreviewFixture.portrait),
      ],
      mode: .symbols, columns: 80, environment: Self.xterm)
    let lines = VisibleText.lines(text)
    let labels = try #require(lines.last)
    #expect(labels.hasPrefix(String(repeating: " ", count: 8) + "7f3a"))
    #expect(Array(labels)[22 + 9..<22 + 11] == ["b", "2"])
    // The portrait picture is 7 columns wide (40×120 pixels in 10 rows of 1:2 cells),
    // centered in its tile from column 22+6.
    // The landscape (20×5) stands on the label line: its tile is plain (uncolored) spaces
    // above it, and so is the portrait's tile left of the centered picture.
    let raw = text.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(raw[0].hasPrefix(String(repeating: " ", count: 28) + "\u{1B}["))
    #expect(raw[4].hasPrefix(String(repeating: " ", count: 28) + "\u{1B}["))
    #expect(raw[5].hasPrefix("\u{1B}["))
    #expect(raw[9].hasPrefix("\u{1B}["))
    #expect(lines[0].unicodeScalars.count == 42)
  }

  @Test func longLabelsAreCutToTheTile() {
    let text = TerminalPreview.grid(
      [(label: String(repeating: "x", count: 50), image: PreviewFixture.landscape)],
      mode: .symbols, columns: 80, environment: Self.xterm)
    #expect(VisibleText.lines(text).last == String(repeating: "x", count: 20))
  }

  @Test(arguments: [
    (PreviewMode.kitty, ["TERM": "xterm-kitty"], "\u{1B}_Ga=T"),
    (.iterm, ["TERM": "xterm-256color", "TERM_PROGRAM": "iTerm.app"], "\u{1B}]1337;File="),
    (.sixel, ["TERM": "foot"], "\u{1B}P"),
  ])
  func graphicsGridsDrawEveryThumbnailAndEveryLabel(
    mode: PreviewMode, environment: [String: String], start: String
  ) {
    let text = TerminalPreview.grid(items(5), mode: mode, columns: 80, environment: environment)
    #expect(text.components(separatedBy: start).count - 1 == 5)
    // Each picture from a saved cursor position, moved to its tile's column.
    #expect(text.components(separatedBy: "\u{1B}7").count - 1 == 5)
    for column in [1, 23, 45] {
      #expect(text.contains("\u{1B}[\(column)G") || text.contains("\u{1B}[\(column + 8)G"))
    }
    for label in ["#1", "#2", "#3", "#4", "#5"] {
      #expect(text.contains(label))
    }
  }

  @Test func noneModeOrNoItemsDrawNothing() {
    #expect(
      TerminalPreview.grid(items(3), mode: .none, columns: 80, environment: Self.xterm).isEmpty)
    #expect(TerminalPreview.grid([], mode: .symbols, columns: 80, environment: Self.xterm).isEmpty)
  }
}
