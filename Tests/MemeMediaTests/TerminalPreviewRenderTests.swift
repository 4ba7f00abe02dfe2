import MemeCore
import Testing

@testable import MemeMedia

@Suite struct TerminalPreviewRenderTests {
  static let xterm = ["TERM": "xterm-256color", "COLORTERM": "truecolor"]
  static let escape = "\u{1B}"

  // MARK: - Escape sequences per mode

  /// (mode, environment, a sequence the output must contain).
  static let signatures: [(PreviewMode, [String: String], String)] = [
    (.kitty, ["TERM": "xterm-kitty"], "\u{1B}_G"),
    (.iterm, ["TERM": "xterm-256color", "TERM_PROGRAM": "iTerm.app"], "\u{1B}]1337;File="),
    (.sixel, ["TERM": "mlterm"], "\u{1B}P"),
    (.symbols, ["TERM": "xterm-256color", "COLORTERM": "truecolor"], "\u{1B}[38;2;"),
    (.symbols, ["TERM": "xterm-256color"], "\u{1B}[38;5;"),
  ]

  @Test(arguments: signatures)
  func eachModeWritesItsOwnSequences(
    mode: PreviewMode, environment: [String: String], signature: String
  ) {
    let text = TerminalPreview.render(
      PreviewFixture.landscape, mode: mode, columns: 40, rows: 20, environment: environment)
    #expect(text.contains(signature))
    let others = Self.signatures.map(\.2).filter { !$0.hasPrefix("\u{1B}[38;") && $0 != signature }
    for other in others where mode != .symbols || !other.hasPrefix("\u{1B}P") {
      #expect(!text.contains(other), "\(mode) output contains \(String(reflecting: other))")
    }
  }

  @Test func sixelsAreARealSixelImage() {
    let text = TerminalPreview.render(
      PreviewFixture.landscape, mode: .sixel, columns: 40, rows: 20, environment: ["TERM": "foot"])
    // DCS P1;P2;P3 q, then raster attributes, and the string terminator at the end.
    #expect(text.contains(#/\x1BP[0-9;]*q"1;1;\d+;\d+/#))
    #expect(text.contains("\u{1B}\\"))
  }

  @Test func sixteenColorSymbolsUseOnlyTheAnsiColors() {
    let text = TerminalPreview.render(
      PreviewFixture.landscape, mode: .symbols, columns: 40, rows: 20,
      environment: ["TERM": "xterm"])
    #expect(text.contains(#/\x1B\[(3|4|9|10)[0-7](;(3|4|9|10)[0-7])?m/#))
    #expect(!text.contains("38;5;") && !text.contains("38;2;") && !text.contains("48;"))
  }

  @Test func withNoColorSymbolsHaveShapesButNoColors() {
    let environment = ["TERM": "xterm-256color", "COLORTERM": "truecolor", "NO_COLOR": "1"]
    let text = TerminalPreview.render(
      PreviewFixture.landscape, mode: .symbols, columns: 40, rows: 20, environment: environment)
    // Block symbols draw the picture; no SGR sets a color (only the closing reset is left).
    #expect(text.unicodeScalars.contains { (0x2580...0x259F).contains($0.value) })
    #expect(!text.contains(#/\x1B\[[0-9;]*[34][0-9;]*m/#))
    // A kitty picture is the picture itself: NO_COLOR leaves it in color.
    let kitty = TerminalPreview.render(
      PreviewFixture.landscape, mode: .kitty, columns: 40, rows: 20,
      environment: ["TERM": "xterm-kitty", "NO_COLOR": "1"])
    #expect(kitty.contains("\u{1B}_G"))
  }

  @Test(arguments: [PreviewMode.kitty, .iterm, .sixel, .symbols])
  func noneModeAndEmptyBoxesWriteNothing(mode: PreviewMode) {
    #expect(
      TerminalPreview.render(
        PreviewFixture.landscape, mode: .none, columns: 80, rows: 24, environment: Self.xterm
      ).isEmpty)
    #expect(
      TerminalPreview.render(
        PreviewFixture.landscape, mode: mode, columns: 0, rows: 24, environment: Self.xterm
      ).isEmpty)
    #expect(
      TerminalPreview.render(
        RGBAImage(width: 0, height: 0), mode: mode, columns: 80, rows: 24,
        environment: Self.xterm
      ).isEmpty)
  }

  // MARK: - Size in cells

  /// (image, box) → the symbols picture fills the fitted cells exactly.
  static let boxes: [(RGBAImage, Int, Int)] = [
    (PreviewFixture.landscape, 80, 24), (PreviewFixture.landscape, 40, 40),
    (PreviewFixture.landscape, 7, 3), (PreviewFixture.portrait, 80, 24),
    (PreviewFixture.portrait, 30, 60), (PreviewFixture.portrait, 1, 1),
  ]

  @Test(arguments: boxes)
  func symbolsCoverTheFittedCellsAndNoMore(image: RGBAImage, columns: Int, rows: Int) {
    let text = TerminalPreview.render(
      image, mode: .symbols, columns: columns, rows: rows, environment: Self.xterm)
    let expected = TerminalPreview.fittedCells(
      imageSize: image.size, maxColumns: columns, maxRows: rows)
    let lines = VisibleText.lines(text)
    #expect(lines.count == expected.rows)
    for line in lines {
      #expect(line.unicodeScalars.count == expected.columns)
    }
    #expect(lines.count <= rows)
  }

  @Test func landscapeKeepsItsShapeInTwoToOneCells() {
    // 160×80 pixels, cells twice as tall as wide: 40 columns make 10 rows.
    let picture = TerminalPreview.draw(
      PreviewFixture.landscape, mode: .symbols, maxColumns: 40, maxRows: 40,
      environment: Self.xterm)
    #expect(picture.cells == TerminalPreview.CellSize(columns: 40, rows: 10))
  }

  @Test(arguments: [
    (["TERM": "xterm-kitty"], PreviewMode.kitty, #"c=(\d+),r=(\d+)"#),
    (
      ["TERM": "xterm-256color", "TERM_PROGRAM": "iTerm.app"], .iterm, #"width=(\d+);height=(\d+)"#
    ),
  ])
  func kittyAndItermAreToldTheFittedCells(
    environment: [String: String], mode: PreviewMode, cellsPattern: String
  ) throws {
    let pattern = try Regex(cellsPattern, as: (Substring, Substring, Substring).self)
    let text = TerminalPreview.render(
      PreviewFixture.portrait, mode: mode, columns: 80, rows: 24, environment: environment)
    let match = try #require(text.firstMatch(of: pattern))
    // 40×120 pixels in 1:2 cells at most 24 rows high: 16 columns × 24 rows.
    #expect(Int(match.1) == 16 && Int(match.2) == 24)
  }

  @Test func sixelsAreDrawnAtTheTerminalsCellPixelSize() throws {
    let picture = TerminalPreview.draw(
      PreviewFixture.landscape, mode: .sixel, maxColumns: 40, maxRows: 40,
      environment: ["TERM": "mlterm"], cellPixelSize: PixelSize(width: 8, height: 16))
    #expect(picture.cells == TerminalPreview.CellSize(columns: 40, rows: 10))
    let match = try #require(picture.text.firstMatch(of: #/"1;1;(\d+);(\d+)/#))
    let width = try #require(Int(match.1))
    let height = try #require(Int(match.2))
    // 40×10 cells of 8×16 pixels; sixel rows come in bands of six pixels.
    #expect(width == 320)
    #expect(height <= 160 && height > 150)
  }

  @Test func graphicsLeaveTheCursorAtTheEndOfTheLastRowLikeText() {
    let picture = TerminalPreview.draw(
      PreviewFixture.landscape, mode: .kitty, maxColumns: 40, maxRows: 40,
      environment: ["TERM": "xterm-kitty"])
    // Room first (9 newlines, back up 9), the image from a saved position, then down and right.
    #expect(picture.text.hasPrefix("\r" + String(repeating: "\n", count: 9) + "\u{1B}[9A\u{1B}7"))
    #expect(picture.text.hasSuffix("\u{1B}8\u{1B}[9B\u{1B}[41G"))
  }

  // MARK: - What the user sees

  @Test func symbolsUseOnlyBlockElementsAndSpace() {
    let allowed = Set((0x2580...0x259F).compactMap(Unicode.Scalar.init)).union([" ", "\n"])
    for depth in ColorDepth.allCases {
      for image in [PreviewFixture.landscape, PreviewFixture.portrait, noise] {
        let picture = TerminalPreview.draw(
          image, mode: .symbols, colorDepth: depth, maxColumns: 60, maxRows: 30,
          environment: Self.xterm)
        let outside = VisibleText.strip(picture.text).unicodeScalars.filter {
          !allowed.contains($0)
        }
        #expect(outside.isEmpty, "\(depth): \(outside.map { String($0.value, radix: 16) })")
      }
    }
  }

  @Test func skyIsOnTopAndGrassBelow() throws {
    let text = TerminalPreview.render(
      PreviewFixture.landscape, mode: .symbols, columns: 40, rows: 20, environment: Self.xterm)
    let lines = text.split(separator: "\n")
    let first = try #require(lines.first)
    let last = try #require(lines.last)
    #expect(first.contains("70;140;230") && !first.contains("40;160;60"))
    #expect(last.contains("40;160;60") && !last.contains("70;140;230"))
  }

  @Test func symbolsEndWithTheColorsReset() {
    let text = TerminalPreview.render(
      PreviewFixture.landscape, mode: .symbols, columns: 40, rows: 20, environment: Self.xterm)
    #expect(text.hasSuffix("\u{1B}[0m"))
    #expect(!text.hasSuffix("\n"))
  }

  // MARK: - Fallback

  @Test(arguments: [PreviewMode.kitty, .iterm, .sixel])
  func aGraphicsModeChafaCannotPrintFallsBackToSymbols(mode: PreviewMode) {
    // chafa prints nothing for a kitty, iTerm2 or sixel canvas on a terminal that does not
    // announce the protocol; memesh must draw symbols instead of a blank.
    let picture = TerminalPreview.draw(
      PreviewFixture.landscape, mode: mode, colorDepth: .indexed256, maxColumns: 40, maxRows: 20,
      environment: ["TERM": "xterm-256color"], cellPixelSize: nil, supplementingTermInfo: false)
    #expect(picture.mode == .symbols)
    #expect(picture.text.contains("\u{1B}[38;5;"))
    #expect(VisibleText.lines(picture.text).count == picture.cells.rows)
  }

  @Test func aForcedModeDrawsEvenWhereTheEnvironmentDoesNotAnnounceIt() {
    // `--mode kitty` over ssh, where TERM says xterm-256color.
    let picture = TerminalPreview.draw(
      PreviewFixture.landscape, mode: .kitty, maxColumns: 40, maxRows: 20,
      environment: ["TERM": "xterm-256color"])
    #expect(picture.mode == .kitty)
    #expect(picture.text.contains("\u{1B}_G"))
  }

  /// Random colors, to make chafa reach for every symbol it has.
  var noise: RGBAImage {
    var generator = SplitMix(seed: 7)
    var image = RGBAImage(width: 96, height: 96)
    for index in stride(from: 0, to: image.pixels.count, by: 4) {
      image.pixels[index] = UInt8(truncatingIfNeeded: generator.next())
      image.pixels[index + 1] = UInt8(truncatingIfNeeded: generator.next())
      image.pixels[index + 2] = UInt8(truncatingIfNeeded: generator.next())
      image.pixels[index + 3] = 255
    }
    return image
  }
}

/// A small deterministic random generator for test pictures.
struct SplitMix: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
