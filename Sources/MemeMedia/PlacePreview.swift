@preconcurrency import CChafa
import Foundation
import MemeCore

/// The frames `place N` draws while box N moves: terminal text for the meme with the box where
/// it is now, each frame drawn over the last one.
///
/// What makes a frame cheap enough to follow the keys:
/// - the picture is scaled once to the terminal's cells (a whole number of pixels per cell), and
///   the boxes drawn under box N are drawn into it once; the boxes over it are laid out once;
/// - each frame lays out box N alone and composites it over a copy of that picture;
/// - only the cells that differ from what is on screen are sent: chafa draws that rectangle of
///   cells (sixels, block symbols), which the text puts in its place; in kitty it is a small
///   picture laid over the whole one, replaced at each frame, until it would cover half the
///   picture and the whole picture is sent again;
/// - block symbols are handed to chafa as 8×8 pixels a cell, the size chafa matches symbols at,
///   so it scales nothing and a rectangle of cells comes out as those cells of a whole picture;
///   256 and 16 colours are matched in RGB, not in chafa's slower perceptual DIN99d;
/// - sixel frames use chafa's fixed 240-colour palette with ordered dithering (a palette made
///   for each picture is several times slower, and would differ from one rectangle to the
///   next); the last frame, when the box is kept or put back, is drawn with a palette of its own
///   as `preview` draws it;
/// - chafa's terminal description and canvas settings are made once.
///
/// The first frame starts on a fresh line and makes room for the picture; every later one
/// expects the cursor on the line under the picture (where the last left it) and leaves it at
/// the start of that line.
public final class PlacePreview {
  /// The cells the picture covers.
  public let cells: TerminalPreview.CellSize
  /// The mode the frames are drawn in (block symbols when chafa cannot draw the mode asked for).
  public let mode: PreviewMode
  /// The kitty image ids of the frames: the whole picture, and the changed part laid over it.
  static let kittyImage = 7_340_001
  static let kittyPatch = 7_340_002

  private let renderer: CaptionRenderer
  private let font: String
  /// The picture scaled to the cells, with the boxes under box N drawn.
  private let under: RGBAImage
  /// The boxes over box N, laid out.
  private let over: [CaptionCanvas]
  /// Pixels a cell in `under`.
  private let cellPixels: PixelSize
  private let termInfo: TerminalChafa.TermInfo
  private let chafa: TerminalChafa.CanvasConfig?
  /// The frame on screen (nil before the first).
  private var shown: RGBAImage?
  /// In kitty, the whole picture last sent, under the patch.
  private var kittyBase: RGBAImage?
  private let colorDepth: ColorDepth

  /// Frames of `picture` (the displayed picture at any size) with `boxes`, box `index` moving;
  /// `font` is the meme's (an error when it cannot be found). The rest as for
  /// `TerminalPreview.draw`. Nil when there is nothing to draw (an empty picture or window).
  public init?(
    picture: RGBAImage, boxes: [TextBox], font: String, index: Int, catalog: FontCatalog,
    mode: PreviewMode, colorDepth: ColorDepth, maxColumns: Int, maxRows: Int,
    environment: [String: String], cellPixelSize: PixelSize?
  ) throws {
    let box = TerminalPreview.cellLimit(
      mode: mode, maxColumns: maxColumns, maxRows: maxRows, cellPixelSize: cellPixelSize)
    cells = TerminalPreview.fittedCells(
      imageSize: picture.size, maxColumns: box.columns, maxRows: box.rows,
      cellPixelSize: cellPixelSize)
    guard cells.columns > 0, cells.rows > 0, boxes.indices.contains(index) else { return nil }
    termInfo = TerminalChafa.TermInfo(environment: environment)
    termInfo.supplement(from: TerminalChafa.TermInfo(environment: TerminalPreview.announcing(mode)))
    termInfo.supplement(
      from: TerminalChafa.TermInfo(environment: TerminalPreview.announcing(.symbols)))
    let drawn: PreviewMode =
      mode == .none || !termInfo.canStart(mode) || mode == .iterm ? .symbols : mode
    self.mode = drawn
    let cell = TerminalPreview.usableCellPixelSize(cellPixelSize)
    switch drawn {
    case .kitty:
      // kitty scales the picture to the cells: no more pixels than the picture has.
      let fitted = ImageOps.fittedSize(
        of: picture.size, toFit: cells.columns * cell.width, cells.rows * cell.height)
      cellPixels = PixelSize(
        width: max(1, fitted.width / cells.columns), height: max(1, fitted.height / cells.rows))
      chafa = nil
    case .sixel:
      // Sixels are drawn pixel for pixel.
      cellPixels = cell
      chafa = TerminalChafa.CanvasConfig(
        cellPixels: cell, pixelMode: CHAFA_PIXEL_MODE_SIXELS,
        canvasMode: CHAFA_CANVAS_MODE_INDEXED_240, ditherMode: CHAFA_DITHER_MODE_ORDERED)
    default:
      cellPixels = cell
      chafa = TerminalChafa.CanvasConfig(
        cellPixels: cell, pixelMode: CHAFA_PIXEL_MODE_SYMBOLS,
        canvasMode: TerminalPreview.canvasMode(colorDepth))
    }
    renderer = CaptionRenderer(catalog: catalog)
    self.font = font
    self.colorDepth = colorDepth
    var under = ImageOps.resized(
      picture,
      to: PixelSize(
        width: cells.columns * cellPixels.width, height: cells.rows * cellPixels.height))
    _ = try renderer.draw(into: &under, boxes: Array(boxes[..<index]), font: font)
    self.under = under
    over = try renderer.canvases(
      boxes: Array(boxes[(index + 1)...]), font: font, imageSize: under.size
    ).canvases
  }

  /// The text that shows `box` in place of box N, with a dashed frame around it when `framed`:
  /// the whole picture the first time, then only what changed (nothing when nothing did).
  public func frame(_ box: TextBox, framed: Bool = true) -> String {
    let image = composed(box, framed: framed)
    defer { shown = image }
    guard let shown else {
      return mode == .kitty ? kittyFrame(image) : draw(image, cells: whole)
    }
    let back = "\r" + TerminalPreview.csi("\(cells.rows)A")
    // kitty's frame finds its own changed cells, against the whole picture last sent.
    if mode == .kitty { return image == shown ? "" : back + kittyFrame(image) }
    guard let changed = Self.changedCells(image, from: shown, cellPixels: cellPixels) else {
      return ""
    }
    return back + draw(image, cells: aligned(changed)) + "\r"
  }

  /// The last frame: `box` without its frame, drawn as `preview` draws a picture (in kitty a
  /// picture of its own, the frames' images deleted; sixels with a palette of their own), so it
  /// stays on screen as the meme is.
  public func finish(_ box: TextBox) -> String {
    guard shown != nil, mode != .symbols else { return frame(box, framed: false) }
    let image = composed(box, framed: false)
    shown = image
    let picture = TerminalPreview.draw(
      image, mode: mode, colorDepth: colorDepth, maxColumns: cells.columns, maxRows: cells.rows,
      environment: [:], cellPixelSize: cellPixels, supplementingTermInfo: true)
    let delete = mode == .kitty ? Self.deleteKittyFrames : ""
    return "\r" + TerminalPreview.csi("\(cells.rows)A") + delete
      + TerminalPreview.placeGraphics(picture.text, cells: picture.cells) + "\r\n"
  }

  /// The picture with `box` as box N, and its frame when `framed`.
  private func composed(_ box: TextBox, framed: Bool) -> RGBAImage {
    var image = under
    if let laidOut = try? renderer.canvases(boxes: [box], font: font, imageSize: image.size) {
      laidOut.canvases.forEach { $0.composite(onto: &image) }
    }
    over.forEach { $0.composite(onto: &image) }
    if framed { Self.outline(box, on: &image) }
    return image
  }

  /// Deletes the frames' kitty images and their data.
  static let deleteKittyFrames =
    TerminalKitty.delete(id: kittyPatch) + TerminalKitty.delete(id: kittyImage)

  /// A kitty frame: the cells that differ from the whole picture last sent, as a picture laid
  /// over it (replacing the last one); the whole picture again when they would cover half of it.
  private func kittyFrame(_ image: RGBAImage) -> String {
    if let base = kittyBase {
      let patch = Self.changedCells(image, from: base, cellPixels: cellPixels)
      guard patch.map({ $0.count * 2 <= whole.count }) ?? true else { return kittyWhole(image) }
      var text = TerminalKitty.delete(id: Self.kittyPatch)
      if let patch, let png = try? ImageCodec.encode(crop(image, to: patch), as: .png) {
        let size = TerminalPreview.CellSize(columns: patch.columns, rows: patch.rows)
        text +=
          down(patch.row) + TerminalPreview.csi("\(patch.column + 1)G")
          + TerminalPreview.saveCursor
          + TerminalKitty.sequences(png: png, cells: size, id: Self.kittyPatch, layer: 1)
          + TerminalPreview.restoreCursor + down(cells.rows - patch.row)
      } else {
        text += down(cells.rows)
      }
      return text + "\r"
    }
    return kittyWhole(image)
  }

  /// The whole picture in kitty, replacing the frames' images.
  private func kittyWhole(_ image: RGBAImage) -> String {
    guard let png = try? ImageCodec.encode(image, as: .png) else { return "" }
    kittyBase = image
    let delete = shown == nil ? "" : Self.deleteKittyFrames
    let sequences = TerminalKitty.sequences(png: png, cells: cells, id: Self.kittyImage)
    return delete + TerminalPreview.placeGraphics(sequences, cells: cells) + "\r\n"
  }

  // MARK: - What changed

  /// A rectangle of cells.
  struct CellRect: Equatable {
    var column: Int
    var row: Int
    var columns: Int
    var rows: Int

    var count: Int { columns * rows }
  }

  /// Every cell of the picture.
  private var whole: CellRect {
    CellRect(column: 0, row: 0, columns: cells.columns, rows: cells.rows)
  }

  /// The cells where `image` differs from `shown` (two pictures of the same size, cells of
  /// `cellPixels`), as one rectangle; nil when none does.
  static func changedCells(_ image: RGBAImage, from shown: RGBAImage, cellPixels: PixelSize)
    -> CellRect?
  {
    let cells = TerminalPreview.CellSize(
      columns: image.width / cellPixels.width, rows: image.height / cellPixels.height)
    guard shown.size == image.size, cells.columns > 0, cells.rows > 0 else { return nil }
    var (top, bottom, left, right) = (Int.max, -1, Int.max, -1)
    let rowBytes = image.width * 4
    let cellBytes = cellPixels.width * 4
    image.pixels.withUnsafeBufferPointer { new in
      shown.pixels.withUnsafeBufferPointer { old in
        guard let new = new.baseAddress, let old = old.baseAddress else { return }
        for cellRow in 0..<cells.rows {
          let first = cellRow * cellPixels.height * rowBytes
          let length = cellPixels.height * rowBytes
          guard memcmp(new + first, old + first, length) != 0 else { continue }
          top = min(top, cellRow)
          bottom = cellRow
          for column in 0..<cells.columns where column < left || column > right {
            for line in 0..<cellPixels.height {
              let start = first + line * rowBytes + column * cellBytes
              if memcmp(new + start, old + start, cellBytes) != 0 {
                left = min(left, column)
                right = max(right, column)
                break
              }
            }
          }
        }
      }
    }
    guard bottom >= 0 else { return nil }
    return CellRect(column: left, row: top, columns: right - left + 1, rows: bottom - top + 1)
  }

  // MARK: - Drawing through chafa

  /// `part` grown left and up so that its pixels start where the whole picture's ordered
  /// dithering pattern (8×8) starts again: a sixel rectangle then dithers as the whole would.
  private func aligned(_ part: CellRect) -> CellRect {
    guard mode == .sixel else { return part }
    func step(_ cell: Int) -> Int {
      var (a, b) = (cell, 8)
      while b != 0 { (a, b) = (b, a % b) }
      return 8 / max(1, a)
    }
    let column = part.column - part.column % step(cellPixels.width)
    let row = part.row - part.row % step(cellPixels.height)
    return CellRect(
      column: column, row: row, columns: part.columns + part.column - column,
      rows: part.rows + part.row - row)
  }

  /// The pixels of `part` of `image`.
  private func crop(_ image: RGBAImage, to part: CellRect) -> RGBAImage {
    ImageOps.crop(
      image,
      to: PixelRect(
        x: part.column * cellPixels.width, y: part.row * cellPixels.height,
        width: part.columns * cellPixels.width, height: part.rows * cellPixels.height))
  }

  /// The text that draws `cells` of `image` where they are on screen, from the start of the
  /// picture's first row (or, for the first frame, from a fresh line) to the start of the line
  /// under the picture.
  private func draw(_ image: RGBAImage, cells part: CellRect) -> String {
    guard let chafa else { return "" }
    var pixels = crop(image, to: part)
    let size = TerminalPreview.CellSize(columns: part.columns, rows: part.rows)
    if mode == .symbols {
      pixels = ImageOps.resized(
        pixels,
        to: PixelSize(
          width: part.columns * Self.symbolCellPixels, height: part.rows * Self.symbolCellPixels))
    }
    let printed = chafa.canvas(image: pixels, cells: size)?.print(termInfo: termInfo) ?? ""
    if mode == .sixel {
      if shown == nil {
        return TerminalPreview.placeGraphics(printed, cells: cells) + "\r\n"
      }
      return down(part.row) + TerminalPreview.csi("\(part.column + 1)G")
        + TerminalPreview.saveCursor + printed + TerminalPreview.restoreCursor
        + down(cells.rows - part.row)
    }
    let lines = printed.split(separator: "\n", omittingEmptySubsequences: false)
    if shown == nil {
      return "\r" + lines.map { $0 + TerminalPreview.reset }.joined(separator: "\r\n") + "\r\n"
    }
    var text = down(part.row)
    for line in lines {
      text += TerminalPreview.csi("\(part.column + 1)G") + line + TerminalPreview.reset + down(1)
    }
    return text + down(cells.rows - part.row - lines.count)
  }

  /// chafa matches block symbols on 8×8 pixels a cell.
  static let symbolCellPixels = 8

  /// The cursor `rows` rows down (nothing for 0).
  private func down(_ rows: Int) -> String {
    rows > 0 ? TerminalPreview.csi("\(rows)B") : ""
  }

  // MARK: - The frame around the box

  /// A thin frame (yellow, dashed) around `box`, turned as it is.
  static func outline(_ box: TextBox, on image: inout RGBAImage) {
    let rectangle = box.placement.box(in: image.size)
    let center = (x: rectangle.x + rectangle.width / 2, y: rectangle.y + rectangle.height / 2)
    let radians = box.angle * .pi / 180
    let (cosine, sine) = (cos(radians), sin(radians))
    func turned(_ x: Double, _ y: Double) -> (Double, Double) {
      let (dx, dy) = (x - center.x, y - center.y)
      return (center.x + dx * cosine - dy * sine, center.y + dx * sine + dy * cosine)
    }
    let corners = [
      turned(rectangle.x, rectangle.y), turned(rectangle.x + rectangle.width, rectangle.y),
      turned(rectangle.x + rectangle.width, rectangle.maxY), turned(rectangle.x, rectangle.maxY),
    ]
    for index in 0..<4 {
      let (from, to) = (corners[index], corners[(index + 1) % 4])
      let steps = Int(max(abs(to.0 - from.0), abs(to.1 - from.1)).rounded(.up)) + 1
      for step in 0...steps {
        let t = Double(step) / Double(steps)
        let x = Int((from.0 + (to.0 - from.0) * t).rounded(.down))
        let y = Int((from.1 + (to.1 - from.1) * t).rounded(.down))
        // Dashes: four pixels on, two off.
        guard step % 6 < 4, x >= 0, y >= 0, x < image.width, y < image.height else { continue }
        image[x, y] = RGBA(255, 214, 0)
      }
    }
  }
}
