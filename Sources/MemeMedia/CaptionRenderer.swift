@preconcurrency import CFreeType
import Foundation
import MemeCore

/// Draws a meme's text boxes (HarfBuzz shaping, FreeType rasterizing) onto a picture.
///
/// Each box is laid out in its own rectangle: wrapped to up to three lines and shrunk to fit
/// (`CaptionLayout.fit`), in capitals (Unicode upper-casing: `straße` → `STRASSE`) or as typed,
/// its lines aligned left, centered or right, in its fill colour with an outline outside the
/// letters (or none), in its own font or the meme's, turned about its center by its angle.
/// Boxes are drawn in list order, each box's outline before its fill. Characters the font lacks
/// come from fallback fonts found through fontconfig; color emoji stay in color.
public struct CaptionRenderer: Sendable {
  public var catalog: FontCatalog

  public init(catalog: FontCatalog) {
    self.catalog = catalog
  }

  /// Opens the text libraries (`FontEngine`) on a thread of its own while the caller goes on
  /// (see `FontEngine.prepare`).
  public static func prepare() { FontEngine.prepare() }

  /// MemeMe's two captions as boxes: `top` in the top band, `bottom` in the bottom band.
  public static func boxes(top: String, bottom: String) -> [TextBox] {
    [TextBox(text: top, placement: .top), TextBox(text: bottom, placement: .bottom)]
  }

  /// Draws `top` and `bottom` onto `image` in `font`; empty captions draw nothing.
  public func render(
    onto image: RGBAImage, top: String, bottom: String, font: String
  ) throws -> (image: RGBAImage, report: CaptionReport) {
    try render(onto: image, boxes: Self.boxes(top: top, bottom: bottom), font: font)
  }

  /// Draws `boxes` onto `image`; `font` is the meme's (for boxes without one of their own).
  public func render(
    onto image: RGBAImage, boxes: [TextBox], font: String
  ) throws -> (image: RGBAImage, report: CaptionReport) {
    var output = image
    let report = try draw(into: &output, boxes: boxes, font: font)
    return (output, report)
  }

  /// Draws in place: on a 12-MP photo this saves copying 48 MB when the caller owns the image.
  public func draw(
    into output: inout RGBAImage, top: String, bottom: String, font: String
  ) throws -> CaptionReport {
    try draw(into: &output, boxes: Self.boxes(top: top, bottom: bottom), font: font)
  }

  /// Draws `boxes` in place.
  public func draw(
    into output: inout RGBAImage, boxes: [TextBox], font: String
  ) throws -> CaptionReport {
    let (canvases, report) = try canvases(boxes: boxes, font: font, imageSize: output.size)
    for canvas in canvases { canvas.composite(onto: &output) }
    return report
  }

  /// What drawing `boxes` on a picture of `imageSize` decides (lines, font sizes, warnings),
  /// without a picture: `preview --explain` reports the numbers a full-size share draws.
  public func report(
    boxes: [TextBox], font: String, imageSize: PixelSize
  ) throws -> CaptionReport {
    try canvases(boxes: boxes, font: font, imageSize: imageSize).report
  }

  /// MemeMe's two captions for a picture of `size` (see `canvases(boxes:font:imageSize:)`).
  func canvases(
    for image: PixelSize, top: String, bottom: String, font: String
  ) throws -> (canvases: [CaptionCanvas], report: CaptionReport) {
    try canvases(boxes: Self.boxes(top: top, bottom: bottom), font: font, imageSize: image)
  }

  /// The boxes for a picture of `imageSize`, laid out and rasterized but not yet composited, in
  /// drawing order, so `MemeRenderer` can draw them into the few rows they cover instead of a
  /// copy of the picture. `font` is the meme's; it must resolve (an unknown one is an error),
  /// while a box's own font that cannot be found is drawn in the meme's with a warning.
  func canvases(
    boxes: [TextBox], font: String, imageSize image: PixelSize
  ) throws -> (canvases: [CaptionCanvas], report: CaptionReport) {
    let (layers, report) = try layers(boxes: boxes, font: font, imageSize: image)
    return (layers.map(\.canvas), report)
  }

  /// The drawn boxes' canvases as `canvases(boxes:font:imageSize:)` makes them, each with the
  /// index in `boxes` of the box it draws (an empty box has none), so an animation can show each
  /// box on its own frames.
  func layers(
    boxes: [TextBox], font: String, imageSize image: PixelSize
  ) throws -> (layers: [(box: Int, canvas: CaptionCanvas)], report: CaptionReport) {
    let memeFont = try catalog.resolve(font)
    var report = CaptionReport()
    // Each box's own font, resolved once per name before taking the engine.
    var ownFonts: [String: FontInfo] = [:]
    for (index, box) in boxes.enumerated() {
      guard let name = box.font, ownFonts[name] == nil else { continue }
      do {
        ownFonts[name] = try catalog.resolve(name)
      } catch {
        ownFonts[name] = memeFont
        report.warnings.append(
          "\(BoxLabel(box, number: index + 1).subject)'s font '\(name)' is not available: "
            + "drawn in \(memeFont.name)")
      }
    }
    return try FontEngine.shared.withLock { engine in
      let arena = GlyphArena()
      var layers: [(box: Int, canvas: CaptionCanvas)] = []
      var explanations: [String] = []
      for (index, box) in boxes.enumerated() {
        let label = BoxLabel(box, number: index + 1)
        let info = box.font.flatMap { ownFonts[$0] } ?? memeFont
        let caption = CaptionLayout.normalize(box.text, uppercased: box.textCase == .upper)
        guard !caption.isEmpty else {
          explanations.append("\(label.heading): (empty)")
          continue
        }
        let rectangle = box.placement.box(in: image)
        guard rectangle.height >= 3, rectangle.width >= 3 else {
          explanations.append("\(label.heading): not drawn (its rectangle is under 3 pixels)")
          report.warnings.append(
            "\(label.subject) not drawn: its rectangle on the \(image) picture is under 3 pixels")
          continue
        }
        let primary = try engine.face(path: info.path)
        let (canvas, drawn) = layOut(
          box, caption: caption, in: rectangle, primary: primary, engine: engine,
          fontName: info.name, imageSize: image, arena: arena)
        layers.append((index, canvas))
        explanations.append(drawn.explain(heading: label.heading, box: box, in: rectangle))
        report.warnings += drawn.warnings(label)
        if Self.reachesOutside(rectangle, degrees: box.angle, imageSize: image) {
          report.warnings.append(
            "\(label.subject) reaches outside the picture: the part outside is cut off")
        }
      }
      report.explanation = explanations.joined(separator: "\n")
      return (layers, report)
    }
  }

  /// True when `rectangle` turned by `degrees` about its center reaches past the picture's
  /// edges (by more than half a pixel).
  static func reachesOutside(
    _ rectangle: CaptionLayout.Box, degrees: Double, imageSize: PixelSize
  ) -> Bool {
    let corners = CaptionCanvas.corners(of: rectangle, degrees: degrees)
    let slack = 0.5
    return corners.contains { corner in
      corner.x < -slack || corner.y < -slack || corner.x > Double(imageSize.width) + slack
        || corner.y > Double(imageSize.height) + slack
    }
  }

  /// A strip showing `FontInfo.sampleText` in `font`, for the `fonts` listing.
  public func sample(font: String, height: Int = 40) throws -> RGBAImage {
    let info = try catalog.resolve(font)
    return try FontEngine.shared.withLock { engine in
      let primary = try engine.face(path: info.path)
      let style = CaptionRenderer.style(for: primary)
      let size = Double(max(height, 8)) * 0.8 / (style.inkHeight(lines: 1) + 2 * style.outline)
      let shaper = TextShaper(
        primary: primary, engine: engine, preferredFallbacks: { preferredFallbacks(engine) })
      let line = shaper.shape(FontInfo.sampleText)
      let outline = style.outlineWidth(at: size)
      let width = Int((line.width * size + 2 * outline + Double(height) * 0.4).rounded(.up))
      var image = RGBAImage(width: width, height: height, fill: RGBA(72, 72, 72))
      let blockTop = (Double(height) - style.height(lines: 1, size: size)) / 2
      let rasterizer = GlyphRasterizer(
        library: engine.freeTypeLibrary, size: size, outlineWidth: outline, stroked: true)
      let placements = CaptionRenderer.place(
        [line], size: size, blockTop: blockTop,
        box: CaptionLayout.Box(
          x: 0, y: 0, width: Double(width), height: Double(height)),
        style: style, rasterizer: rasterizer)
      CaptionCanvas(placements: placements, imageSize: image.size).composite(onto: &image)
      return image
    }
  }

  // MARK: - Drawing one caption

  /// The bundled DejaVu Sans Bold, when it can be found and opened.
  private func preferredFallbacks(_ engine: FontEngine) -> [FontFace] {
    guard let directory = catalog.bundledDirectory else { return [] }
    let path = directory.appendingPathComponent("DejaVuSans-Bold.ttf").path
    return (try? engine.face(path: path)).map { [$0] } ?? []
  }

  /// Vertical metrics from the font: ascent is the capital height plus room for accents.
  static func style(for face: FontFace) -> CaptionLayout.Style {
    let metrics = face.verticalMetrics
    let capital = face.inkExtent(of: "H")?.top ?? metrics.ascent * 0.75
    return CaptionLayout.Style(
      lineHeight: capital + 0.25, ascent: capital + 0.06, descent: 0.12, outline: 0.07)
  }

  /// Fits `caption` (the box's text as drawn) in `rectangle` and rasterizes it, turned by the
  /// box's angle when it has one.
  private func layOut(
    _ box: TextBox, caption: String, in rectangle: CaptionLayout.Box, primary: FontFace,
    engine: FontEngine, fontName: String, imageSize: PixelSize, arena: GlyphArena
  ) -> (CaptionCanvas, CaptionSummary) {
    let style = CaptionRenderer.style(for: primary)
    let limits = CaptionLayout.sizeLimits(for: rectangle, imageSize: imageSize, style: style)
    let shaper = TextShaper(
      primary: primary, engine: engine, preferredFallbacks: { preferredFallbacks(engine) },
      rightToLeft: TextShaper.paragraphIsRightToLeft(caption))
    var shaped: [String: ShapedLine] = [:]
    let result = CaptionLayout.fit(
      caption, breaks: LineBreaker.shared.breaks(in: caption), in: rectangle, style: style,
      minimumSize: limits.minimum, maximumSize: limits.maximum
    ) { text in
      if let line = shaped[text] { return line.width }
      let line = shaper.shape(text)
      shaped[text] = line
      return line.width
    }
    let lines = result.lines.map { shaped[$0] ?? shaper.shape($0) }
    let size = result.size
    let outline = style.outlineWidth(at: size)
    let height = style.height(lines: lines.count, size: size)
    // MemeMe's bands keep their text against the picture's edge; any other box centers it.
    let blockTop: Double
    switch box.placement {
    case .top: blockTop = rectangle.y
    case .bottom: blockTop = rectangle.maxY - height
    default: blockTop = rectangle.y + (rectangle.height - height) / 2
    }
    let rasterizer = GlyphRasterizer(
      library: engine.freeTypeLibrary, size: size, outlineWidth: outline,
      stroked: box.outlineColor != nil, arena: arena)
    var placements = CaptionRenderer.place(
      lines, size: size, blockTop: blockTop, box: rectangle, alignment: box.alignment,
      style: style, rasterizer: rasterizer)
    let turn = box.angle.truncatingRemainder(dividingBy: 360)
    if turn != 0 {
      placements = CaptionCanvas.rotated(
        placements, degrees: turn,
        center: (rectangle.x + rectangle.width / 2, rectangle.y + rectangle.height / 2),
        imageSize: imageSize)
    }
    let canvas = CaptionCanvas(
      placements: placements, imageSize: imageSize, fill: box.fill, outline: box.outlineColor)
    let summary = CaptionSummary(
      caption: caption, fontName: fontName, result: result, shaped: lines,
      minimumSize: limits.minimum)
    return (canvas, summary)
  }

  /// Positions every glyph: lines aligned in `box` (left and right ones an outline's width in
  /// from its edge, so the outline stays inside), the first baseline below `blockTop`.
  static func place(
    _ lines: [ShapedLine], size: Double, blockTop: Double, box: CaptionLayout.Box,
    alignment: TextAlignment = .center, style: CaptionLayout.Style, rasterizer: GlyphRasterizer
  ) -> [CaptionCanvas.Placement] {
    let outline = style.outlineWidth(at: size)
    // Quarter-pixel positions keep small text evenly spaced; big text needs no more than whole
    // pixels, and then each repeated letter is rasterized once.
    let quarters = size < 48 ? Double(GlyphRasterizer.subpixels) : 1
    var placements: [CaptionCanvas.Placement] = []
    for (number, line) in lines.enumerated() {
      let baseline =
        blockTop + outline + style.ascent * size + Double(number) * style.lineHeight * size
      let left: Double
      switch alignment {
      case .left: left = box.x + outline
      case .center: left = box.x + (box.width - line.width * size) / 2
      case .right: left = box.x + box.width - outline - line.width * size
      }
      for glyph in line.glyphs {
        let x = Int(((left + glyph.x * size) * quarters).rounded())
        let y = Int(((baseline - glyph.y * size) * quarters).rounded())
        let steps = Int(quarters)
        let pixelX = x >= 0 ? x / steps : (x - steps + 1) / steps
        let pixelY = y >= 0 ? y / steps : (y - steps + 1) / steps
        let bitmaps = rasterizer.glyph(
          glyph, quarterX: x - pixelX * steps, quarterY: -(y - pixelY * steps))
        placements.append(CaptionCanvas.Placement(glyph: bitmaps, x: pixelX, y: pixelY))
      }
    }
    return placements
  }
}
