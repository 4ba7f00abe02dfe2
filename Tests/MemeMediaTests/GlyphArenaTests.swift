import Foundation
import MemeCore
import Testing

@testable import MemeMedia

/// Large captions' glyphs come from `GlyphArena`'s blocks: the letters must be the very pixels
/// a glyph of its own would hold, at every size, across blocks, and after the arena is gone.
@Suite struct GlyphArenaTests {
  /// Every glyph of `text` in Anton at `size`, rasterized through `arena` (or none), as their
  /// metrics and bytes, fill then outline.
  func glyphs(_ text: String, size: Double, arena: GlyphArena?) throws -> [[Int]] {
    let path = try FontCatalog.standard().resolve("Anton").path
    return try FontEngine.shared.withLock { engine in
      let face = try engine.face(path: path)
      let shaper = TextShaper(primary: face, engine: engine)
      let rasterizer = GlyphRasterizer(
        library: engine.freeTypeLibrary, size: size, outlineWidth: size * 0.07, stroked: true,
        arena: arena)
      return shaper.shape(text).glyphs.flatMap { shaped in
        let glyph = rasterizer.glyph(shaped, quarterX: 0, quarterY: 0)
        return [glyph.fill, glyph.outline].map { bitmap in
          [bitmap.left, bitmap.top, bitmap.width, bitmap.height] + bitmap.pixels.bytes.map(Int.init)
        }
      }
    }
  }

  @Test(arguments: [120.0, 450.0, 1800.0])
  func arenaGlyphsAreTheGlyphsThemselves(size: Double) throws {
    // At 450 px the letters fill more than one 2-MB block; at 1800 an outline is larger than a
    // block and gets memory of its own.
    let text = "ONE DOES NOT SIMPLY BENCHMARK MEMES"
    let own = try glyphs(text, size: size, arena: nil)
    let fromArena = try glyphs(text, size: size, arena: GlyphArena())
    #expect(own.count == fromArena.count)
    #expect(own == fromArena)
    #expect(own.contains { $0.count > 4 && $0[4...].contains(255) }, "solid letters were drawn")
  }

  @Test func arenaHandsOutAlignedMemoryAcrossBlocks() throws {
    let arena = GlyphArena()
    var blocks: [GlyphArena.Block] = []
    var taken = 0
    while taken < 3 * GlyphArena.blockSize {
      let (bytes, block) = try #require(arena.take(300_001))
      #expect(Int(bitPattern: bytes.baseAddress) % 16 == 0)
      #expect(bytes.count == 300_001)
      if !blocks.contains(where: { $0 === block }) { blocks.append(block) }
      taken += bytes.count
    }
    #expect(blocks.count == 4, "6 bitmaps to a 2-MB block")
    #expect(Set(blocks.map { Int(bitPattern: $0.start) % GlyphArena.blockSize }) == [0])
    #expect(arena.take(GlyphArena.blockSize + 1) == nil, "too large: the caller allocates it")
  }

  /// A 12-MP photo's captions are drawn from the arena and stay whole after the renderer that
  /// made them has returned: the same pixels as the rows drawn at once on the picture.
  @Test func largeCaptionsDrawTheSameThroughCanvases() throws {
    let renderer = CaptionRenderer(catalog: .standard())
    let size = PixelSize(width: 2400, height: 1800)
    let boxes = CaptionRenderer.boxes(top: "one does not simply", bottom: "benchmark memes")
    let (canvases, _) = try renderer.canvases(boxes: boxes, font: "Anton", imageSize: size)
    var picture = RGBAImage(width: size.width, height: size.height, fill: RGBA(40, 90, 160))
    for canvas in canvases { canvas.composite(onto: &picture) }
    var again = RGBAImage(width: size.width, height: size.height, fill: RGBA(40, 90, 160))
    _ = try renderer.draw(into: &again, boxes: boxes, font: "Anton")
    #expect(picture.pixels == again.pixels)
    #expect(picture.pixels.contains(255), "white letters were drawn")
  }
}
