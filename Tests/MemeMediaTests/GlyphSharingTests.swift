import Foundation
import MemeCore
import Testing

@testable import MemeMedia

/// A caption's repeated letters share one bitmap each, and its bitmaps are drawn straight into
/// their own memory: every letter must still be the very pixels FreeType draws for it alone.
@Suite struct GlyphSharingTests {
  /// What a user sees of a glyph: its box and every coverage byte.
  static func pixels(_ bitmap: GlyphBitmap) -> [Int] {
    [bitmap.left, bitmap.top, bitmap.width, bitmap.height] + bitmap.pixels.bytes.map(Int.init)
  }

  /// True when both glyphs have the same fill and outline, box and bytes.
  static func same(_ one: GlyphRasterizer.Glyph, _ other: GlyphRasterizer.Glyph) -> Bool {
    pixels(one.fill) == pixels(other.fill) && pixels(one.outline) == pixels(other.outline)
  }

  /// Two lines with repeated and distinct letters, at two sizes (the smaller one under the
  /// whole-pixel threshold in the first case, so quarter-pixel offsets are in play), drawn
  /// through one shared rasterizer per size and one arena: each placed letter must be what a
  /// rasterizer of its own draws for it alone (and, at whole-pixel sizes, FreeType's own bitmap
  /// for it, no cache involved), and the picture the same as drawing each letter separately.
  @Test(arguments: [(31.0, 45.0), (130.0, 131.0), (449.0, 450.0)])
  func sharedBitmapsAreEachGlyphsOwn(sizes: (Double, Double)) throws {
    let path = try FontCatalog.standard().resolve("Anton").path
    let picture = PixelSize(width: Int(sizes.1 * 9), height: Int(sizes.1 * 3))
    let lines = [("ONE DOES NOT SIMPLY", sizes.0), ("BENCHMARK MEMES", sizes.1)]
    var shared: [CaptionCanvas.Placement] = []
    var separate: [CaptionCanvas.Placement] = []
    var direct: [GlyphRasterizer.Glyph?] = []
    try FontEngine.shared.withLock { engine in
      let face = try engine.face(path: path)
      let style = CaptionRenderer.style(for: face)
      let shaper = TextShaper(primary: face, engine: engine)
      let arena = GlyphArena()
      for (number, (text, size)) in lines.enumerated() {
        let line = shaper.shape(text)
        let outline = style.outlineWidth(at: size)
        let box = CaptionLayout.Box(
          x: 0, y: Double(number) * sizes.1 * 1.4, width: Double(picture.width),
          height: sizes.1 * 1.4)
        func rasterizer(arena: GlyphArena? = nil) -> GlyphRasterizer {
          GlyphRasterizer(
            library: engine.freeTypeLibrary, size: size, outlineWidth: outline, stroked: true,
            arena: arena)
        }
        shared += CaptionRenderer.place(
          [line], size: size, blockTop: box.y, box: box, style: style,
          rasterizer: rasterizer(arena: arena))
        for glyph in line.glyphs {
          // Alone: a one-glyph line at the glyph's place in the whole line.
          var alone = line
          alone.glyphs = [glyph]
          separate += CaptionRenderer.place(
            [alone], size: size, blockTop: box.y, box: box, style: style,
            rasterizer: rasterizer())
          direct.append(
            size < 48
              ? nil
              : rasterizer().outlineBitmaps(
                glyph, quarterX: 0, quarterY: 0, throughFreeTypeBuffer: true))
        }
      }
    }
    #expect(shared.count == 34, "every letter and space placed")
    #expect(separate.count == shared.count && direct.count == shared.count)
    // Glyphs that differ, by place in the caption (a short message, not the bytes).
    var wrong: [String] = []
    for (place, ((one, other), reference)) in zip(zip(shared, separate), direct).enumerated() {
      if one.x != other.x || one.y != other.y { wrong.append("\(place): placed elsewhere") }
      if !Self.same(one.glyph, other.glyph) { wrong.append("\(place): not the glyph alone") }
      if let reference, !Self.same(one.glyph, reference) {
        wrong.append("\(place): not FreeType's glyph")
      }
    }
    #expect(wrong.isEmpty, "\(wrong.prefix(8))")
    // Sharing happened: repeated letters of a line hold one bitmap.
    let distinct = Set(shared.map { ObjectIdentifier($0.glyph.fill.pixels) })
    #expect(distinct.count < shared.count - 4)

    let background = RGBA(40, 90, 160)
    var drawn = RGBAImage(width: picture.width, height: picture.height, fill: background)
    CaptionCanvas(placements: shared, imageSize: picture).composite(onto: &drawn)
    var expected = RGBAImage(width: picture.width, height: picture.height, fill: background)
    CaptionCanvas(placements: separate, imageSize: picture).composite(onto: &expected)
    let samePicture = drawn.pixels == expected.pixels
    #expect(samePicture, "the caption differs from its letters drawn one by one")
    #expect(drawn.pixels.contains(255), "white letters were drawn")
  }

  /// Every glyph of the bundled fonts, filled and outlined, at small and large sizes and at
  /// each quarter-pixel offset: drawn in place, the pixels and box FreeType's own bitmap has.
  @Test(arguments: [
    "Anton-Regular.ttf", "BebasNeue-Regular.ttf", "Oswald-Variable.ttf", "DejaVuSans-Bold.ttf",
  ])
  func glyphsDrawnInPlaceAreFreeTypesOwn(file: String) throws {
    let directory = try #require(FontCatalog.standard().bundledDirectory)
    let path = directory.appendingPathComponent(file).path
    try FontEngine.shared.withLock { engine in
      let face = try engine.face(path: path)
      let text = "AÉgjQ@ 0%&Wß"
      let shaper = TextShaper(primary: face, engine: engine)
      var compared = 0
      var wrong: [String] = []
      for size in [13.0, 47.5, 160.0] {
        let rasterizer = GlyphRasterizer(
          library: engine.freeTypeLibrary, size: size, outlineWidth: size * 0.07, stroked: true,
          arena: GlyphArena())
        for glyph in shaper.shape(text).glyphs {
          for quarter in 0..<GlyphRasterizer.subpixels {
            let (x, y) = (quarter, GlyphRasterizer.subpixels - 1 - quarter)
            let inPlace = rasterizer.outlineBitmaps(glyph, quarterX: x, quarterY: y)
            let freeType = rasterizer.outlineBitmaps(
              glyph, quarterX: x, quarterY: y, throughFreeTypeBuffer: true)
            if !Self.same(inPlace, freeType) {
              wrong.append("glyph \(glyph.glyph) at \(size) px, quarters \(x) \(y)")
            }
            if inPlace.fill.width > 0 { compared += 1 }
          }
        }
      }
      #expect(wrong.isEmpty, "\(wrong.prefix(8))")
      #expect(compared >= 3 * 11 * 4, "the letters were drawn")
    }
  }
}
