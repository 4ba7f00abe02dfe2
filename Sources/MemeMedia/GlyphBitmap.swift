/// A small rasterized glyph: 8-bit coverage, or premultiplied BGRA for color emoji.
struct GlyphBitmap {
  /// Pixels from the pen position to the left edge (x right) and to the top edge (y up).
  var left: Int
  var top: Int
  var width: Int
  var height: Int
  /// `width * height` coverage bytes, or `width * height * 4` premultiplied B G R A bytes.
  var pixels: GlyphPixels
  var isColor: Bool

  static let empty = GlyphBitmap(
    left: 0, top: 0, width: 0, height: 0, pixels: GlyphPixels(count: 0), isColor: false)
}
