@preconcurrency import CChafa
import MemeCore

/// How a picture is drawn in the terminal.
public enum PreviewMode: String, Sendable, CaseIterable {
  case kitty, iterm, sixel, symbols, none
}

/// Terminal graphics through libchafa: pure functions from pixels and an environment to text.
///
/// Every picture is left where a line of text would be: it starts at the left margin of the
/// cursor's line, and the cursor ends at the right of its last row, so printing "\n" continues
/// below it. Nothing here writes to the terminal.
public enum TerminalPreview {
  /// The best mode for the terminal described by `environment` (TERM, TERM_PROGRAM, COLORTERM,
  /// KITTY_WINDOW_ID, NO_COLOR, MEMESH_PREVIEW); see `TerminalCapabilities.detect`.
  public static func detectMode(environment: [String: String]) -> PreviewMode {
    TerminalCapabilities.detect(environment: environment).mode
  }

  /// Escape sequences that draw `image` in at most `columns`×`rows` cells at its own aspect
  /// ratio; empty for `.none`. Colors follow the color depth detected from `environment`.
  public static func render(
    _ image: RGBAImage, mode: PreviewMode, columns: Int, rows: Int,
    environment: [String: String]
  ) -> String {
    let colorDepth = TerminalCapabilities.detect(environment: environment).colorDepth
    return draw(
      image, mode: mode, colorDepth: colorDepth, maxColumns: columns, maxRows: rows,
      environment: environment
    ).text
  }

  /// A picture ready to print.
  public struct Picture: Sendable, Equatable {
    /// What to print: escape sequences and block symbols, no trailing newline.
    public var text: String
    /// The mode the text uses: `symbols` when chafa could not print the mode asked for.
    public var mode: PreviewMode
    /// The cells the picture covers.
    public var cells: CellSize
  }

  /// Draws `image` fitted into `maxColumns`×`maxRows` cells.
  ///
  /// - Parameters:
  ///   - colorDepth: the colors of a symbols picture (pixel modes are always full color).
  ///   - environment: the real environment; chafa's terminal database reads it.
  ///   - cellPixelSize: the pixel size of one cell when the terminal reports it (TIOCGWINSZ);
  ///     sixels are drawn at exactly that size, and every mode uses it for the aspect ratio.
  public static func draw(
    _ image: RGBAImage, mode: PreviewMode, colorDepth: ColorDepth = .truecolor,
    maxColumns: Int, maxRows: Int, environment: [String: String],
    cellPixelSize: PixelSize? = nil
  ) -> Picture {
    var picture = draw(
      image, mode: mode, colorDepth: colorDepth, maxColumns: maxColumns, maxRows: maxRows,
      environment: environment, cellPixelSize: cellPixelSize, supplementingTermInfo: true)
    if picture.mode != .symbols && picture.mode != .none {
      picture.text = placeGraphics(picture.text, cells: picture.cells)
    }
    return picture
  }

  /// `draw` with graphics sequences as chafa prints them (not yet placed), and a switch for
  /// tests: without supplementing, chafa only knows what the environment announces, and prints
  /// nothing for a graphics mode it does not.
  static func draw(
    _ image: RGBAImage, mode: PreviewMode, colorDepth: ColorDepth,
    maxColumns: Int, maxRows: Int, environment: [String: String],
    cellPixelSize: PixelSize?, supplementingTermInfo: Bool
  ) -> Picture {
    let nothing = Picture(text: "", mode: .none, cells: CellSize(columns: 0, rows: 0))
    let box = cellLimit(
      mode: mode, maxColumns: maxColumns, maxRows: maxRows, cellPixelSize: cellPixelSize)
    let cells = fittedCells(
      imageSize: image.size, maxColumns: box.columns, maxRows: box.rows,
      cellPixelSize: cellPixelSize)
    guard mode != .none, cells.columns > 0, cells.rows > 0 else { return nothing }

    let termInfo = TerminalChafa.TermInfo(environment: environment)
    if supplementingTermInfo {
      // What the user asked for, and colors for symbols should the mode fall back to them.
      termInfo.supplement(from: TerminalChafa.TermInfo(environment: announcing(mode)))
      termInfo.supplement(from: TerminalChafa.TermInfo(environment: announcing(.symbols)))
    }
    let cellPixels = usableCellPixelSize(cellPixelSize)
    if mode == .kitty && termInfo.canStart(mode),
      let text = TerminalKitty.picture(
        image, cells: cells, cellPixels: graphicsCellPixels(mode, cellPixels, image.size, cells))
    {
      return Picture(text: text, mode: mode, cells: cells)
    }
    if mode != .symbols && mode != .kitty && termInfo.canStart(mode) {
      let spec = TerminalChafa.CanvasSpec(
        cells: cells, cellPixels: graphicsCellPixels(mode, cellPixels, image.size, cells),
        pixelMode: pixelMode(mode), canvasMode: CHAFA_CANVAS_MODE_TRUECOLOR)
      let text = TerminalChafa.Canvas(image: image, spec: spec)?.print(termInfo: termInfo) ?? ""
      if text.hasPrefix("\u{1B}") {
        return Picture(text: text, mode: mode, cells: cells)
      }
      // chafa could not draw the mode here: symbols beat a blank or a screenful of base64.
    }
    let spec = TerminalChafa.CanvasSpec(
      cells: cells, cellPixels: cellPixels, pixelMode: CHAFA_PIXEL_MODE_SYMBOLS,
      canvasMode: canvasMode(colorDepth),
      perceptualColors: colorDepth != .truecolor && colorDepth != .monochrome)
    let text = TerminalChafa.Canvas(image: image, spec: spec)?.print(termInfo: termInfo) ?? ""
    guard !text.isEmpty else { return nothing }
    return Picture(
      text: text.hasSuffix(reset) ? text : text + reset, mode: .symbols, cells: cells)
  }

  // MARK: - Details

  /// SGR reset: a symbols picture never leaves its colors on the text that follows.
  static let reset = "\u{1B}[0m"

  /// An environment chafa recognizes as a terminal that has `mode`'s sequences.
  static func announcing(_ mode: PreviewMode) -> [String: String] {
    switch mode {
    case .kitty: ["TERM": "xterm-kitty"]
    case .iterm: ["TERM": "xterm-256color", "TERM_PROGRAM": "iTerm.app"]
    case .sixel: ["TERM": "mlterm"]
    case .symbols, .none: ["TERM": "xterm-256color", "COLORTERM": "truecolor"]
    }
  }

  private static func pixelMode(_ mode: PreviewMode) -> ChafaPixelMode {
    switch mode {
    case .kitty: CHAFA_PIXEL_MODE_KITTY
    case .iterm: CHAFA_PIXEL_MODE_ITERM2
    case .sixel: CHAFA_PIXEL_MODE_SIXELS
    case .symbols, .none: CHAFA_PIXEL_MODE_SYMBOLS
    }
  }

  static func canvasMode(_ depth: ColorDepth) -> ChafaCanvasMode {
    switch depth {
    case .truecolor: CHAFA_CANVAS_MODE_TRUECOLOR
    // 240, not 256: the first 16 palette entries are themed by the user and unreliable.
    case .indexed256: CHAFA_CANVAS_MODE_INDEXED_240
    case .indexed16: CHAFA_CANVAS_MODE_INDEXED_16
    case .monochrome: CHAFA_CANVAS_MODE_FGBG
    }
  }

  /// Pixels per cell for a graphics canvas. Sixels are drawn pixel for pixel, so they need the
  /// real cell size. kitty and iTerm2 scale the picture to the cells they are told, so the
  /// canvas need not be larger than the image: fewer bytes to send.
  private static func graphicsCellPixels(
    _ mode: PreviewMode, _ cell: PixelSize, _ image: PixelSize, _ cells: CellSize
  ) -> PixelSize {
    guard mode != .sixel else { return cell }
    let scale = min(
      1,
      Double(image.width) / Double(cells.columns * cell.width),
      Double(image.height) / Double(cells.rows * cell.height))
    return PixelSize(
      width: max(1, Int(Double(cell.width) * scale)),
      height: max(1, Int(Double(cell.height) * scale)))
  }

  /// Wraps a graphics sequence so the cursor ends like after symbols: terminals leave it in
  /// different places after an image (kitty right of the last row, sixel terminals often below
  /// it). Newlines first make room, so the picture never scrolls the saved position away.
  static func placeGraphics(_ sequence: String, cells: CellSize) -> String {
    var text = "\r"
    if cells.rows > 1 {
      text += String(repeating: "\n", count: cells.rows - 1) + csi("\(cells.rows - 1)A")
    }
    text += saveCursor + sequence + restoreCursor
    if cells.rows > 1 { text += csi("\(cells.rows - 1)B") }
    return text + csi("\(cells.columns + 1)G")
  }

  /// DECSC: saves the cursor position.
  static let saveCursor = "\u{1B}7"
  /// DECRC: restores the cursor position DECSC saved.
  static let restoreCursor = "\u{1B}8"

  /// A control sequence introducer followed by `body`.
  static func csi(_ body: String) -> String { "\u{1B}[" + body }
}
