import CMemeshCodec
import MemeCore

/// The glyphs of one text box, placed, ready to be drawn row by row by the C compositor
/// (`memesh_overlay_draw_row`): on each row, the outline coverage in the outline colour (the
/// maximum of every glyph's outline, so overlapping neighbours do not darken each other), then
/// the fill coverage in the fill colour, then color glyphs, so an outline never covers a letter
/// or its neighbour. Only the rectangle the glyphs reach is touched, and in it only the columns
/// a glyph reaches on a row.
///
/// No caption-sized mask is ever made: `MemeRenderer` hands the canvases to the encoder, whose
/// threads draw each caption row as they read it.
struct CaptionCanvas {
  /// A glyph bitmap placed with its pen position at (x, baseline y) in image pixels.
  struct Placement {
    var glyph: GlyphRasterizer.Glyph
    var x: Int
    var y: Int
  }

  let region: PixelRect
  let fill: TextColor
  /// Nil: no outline is drawn.
  let outline: TextColor?
  private let storage: Storage

  /// A canvas for `placements`, clipped to an image of `size`, in `fill` with an `outline`
  /// (nil for none).
  init(
    placements: [Placement], imageSize: PixelSize, fill: TextColor = .white,
    outline: TextColor? = .black
  ) {
    self.fill = fill
    self.outline = outline
    var minX = Int.max
    var minY = Int.max
    var maxX = Int.min
    var maxY = Int.min
    for placement in placements {
      let drawn =
        outline == nil ? [placement.glyph.fill] : [placement.glyph.fill, placement.glyph.outline]
      for bitmap in drawn where bitmap.width > 0 {
        minX = min(minX, placement.x + bitmap.left)
        minY = min(minY, placement.y - bitmap.top)
        maxX = max(maxX, placement.x + bitmap.left + bitmap.width)
        maxY = max(maxY, placement.y - bitmap.top + bitmap.height)
      }
    }
    let left = max(0, minX)
    let top = max(0, minY)
    let right = min(imageSize.width, maxX)
    let bottom = min(imageSize.height, maxY)
    if minX == Int.max || right <= left || bottom <= top {
      region = PixelRect(x: 0, y: 0, width: 0, height: 0)
    } else {
      region = PixelRect(x: left, y: top, width: right - left, height: bottom - top)
    }
    var outlines: [memesh_overlay_bitmap] = []
    var fills: [memesh_overlay_bitmap] = []
    var colors: [memesh_overlay_bitmap] = []
    var owners: [GlyphPixels] = []
    for placement in placements {
      let (outline, fill) = (placement.glyph.outline, placement.glyph.fill)
      if self.outline != nil, !outline.isColor,
        let placed = CaptionCanvas.placed(outline, placement)
      {
        outlines.append(placed)
        owners.append(outline.pixels)
      }
      if let placed = CaptionCanvas.placed(fill, placement) {
        if fill.isColor { colors.append(placed) } else { fills.append(placed) }
        owners.append(fill.pixels)
      }
    }
    storage = Storage(outlines: outlines, fills: fills, colors: colors, owners: owners)
  }

  /// `bitmap` at `placement` in the compositor's terms; nil when it draws nothing.
  private static func placed(_ bitmap: GlyphBitmap, _ placement: Placement)
    -> memesh_overlay_bitmap?
  {
    let bytes = bitmap.width * bitmap.height * (bitmap.isColor ? 4 : 1)
    guard bitmap.width > 0, bitmap.height > 0, bitmap.pixels.count >= bytes,
      let base = bitmap.pixels.bytes.baseAddress
    else { return nil }
    // Far-off glyphs (beyond ±2³¹ pixels) are clamped, and still lie outside the picture.
    return memesh_overlay_bitmap(
      pixels: UnsafePointer(base), x: Int32(clamping: placement.x + bitmap.left),
      y: Int32(clamping: placement.y - bitmap.top), width: Int32(clamping: bitmap.width),
      height: Int32(clamping: bitmap.height))
  }

  /// The caption as a C layer; its pointers are valid while this canvas lives.
  var layer: memesh_caption_layer {
    memesh_caption_layer(
      outlines: storage.outlines.baseAddress, outline_count: UInt32(storage.outlines.count),
      fills: storage.fills.baseAddress, fill_count: UInt32(storage.fills.count),
      colors: storage.colors.baseAddress, color_count: UInt32(storage.colors.count),
      left: Int32(clamping: region.x), top: Int32(clamping: region.y),
      right: Int32(clamping: region.x + region.width),
      bottom: Int32(clamping: region.y + region.height), fill_color: CaptionCanvas.packed(fill),
      outline_color: CaptionCanvas.packed(outline ?? .black))
  }

  /// 0xRRGGBB.
  private static func packed(_ color: TextColor) -> UInt32 {
    UInt32(color.red) << 16 | UInt32(color.green) << 8 | UInt32(color.blue)
  }

  /// Calls `body` with `canvases` as one C overlay (drawn in order), or nil when there are none.
  static func withOverlay<Result>(
    _ canvases: [CaptionCanvas], _ body: (UnsafePointer<memesh_overlay>?) throws -> Result
  ) rethrows -> Result {
    let layers = canvases.filter { $0.region.width > 0 && $0.region.height > 0 }.map(\.layer)
    guard !layers.isEmpty else { return try body(nil) }
    return try withExtendedLifetime(canvases) {
      try layers.withUnsafeBufferPointer { pointers in
        var overlay = memesh_overlay(layers: pointers.baseAddress, count: UInt32(pointers.count))
        return try body(&overlay)
      }
    }
  }

  /// Composites the outlines, then the fills, then color glyphs over `image`.
  func composite(onto image: inout RGBAImage) {
    guard region.width > 0, region.height > 0, region.x + region.width <= image.width,
      region.y + region.height <= image.height
    else { return }
    let width = image.width
    var masks = [UInt8](repeating: 0, count: width * 2)
    CaptionCanvas.withOverlay([self]) { overlay in
      guard let overlay else { return }
      image.pixels.withUnsafeMutableBufferPointer { pixels in
        masks.withUnsafeMutableBufferPointer { masks in
          guard let base = pixels.baseAddress, let scratch = masks.baseAddress else { return }
          for row in region.y..<(region.y + region.height) {
            memesh_overlay_draw_row(
              overlay, UInt32(row), base + row * width * 4, UInt32(width), scratch)
          }
        }
      }
    }
  }
}

extension CaptionCanvas {
  /// The placed bitmaps as C arrays at fixed addresses, and the glyph bytes they point into.
  fileprivate final class Storage {
    let outlines: UnsafeMutableBufferPointer<memesh_overlay_bitmap>
    let fills: UnsafeMutableBufferPointer<memesh_overlay_bitmap>
    let colors: UnsafeMutableBufferPointer<memesh_overlay_bitmap>
    private let owners: [GlyphPixels]

    init(
      outlines: [memesh_overlay_bitmap], fills: [memesh_overlay_bitmap],
      colors: [memesh_overlay_bitmap], owners: [GlyphPixels]
    ) {
      func pinned(_ array: [memesh_overlay_bitmap]) -> UnsafeMutableBufferPointer<
        memesh_overlay_bitmap
      > {
        let buffer = UnsafeMutableBufferPointer<memesh_overlay_bitmap>.allocate(
          capacity: max(1, array.count))
        _ = buffer.initialize(from: array)
        return UnsafeMutableBufferPointer(rebasing: buffer[..<array.count])
      }
      self.outlines = pinned(outlines)
      self.fills = pinned(fills)
      self.colors = pinned(colors)
      self.owners = owners
    }

    deinit {
      outlines.baseAddress?.deallocate()
      fills.baseAddress?.deallocate()
      colors.baseAddress?.deallocate()
    }
  }
}
