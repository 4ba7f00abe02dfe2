@preconcurrency import CFreeType
import Foundation

/// Rasterizes glyphs with FreeType: the fill, the outline outside it (FT_Stroker, round caps
/// and joins), and color bitmaps scaled from their fixed strike. Each glyph is drawn once per
/// size and quarter-pixel offset and cached for the caption being drawn.
final class GlyphRasterizer {
  /// A fill, the outline around it (empty for color glyphs).
  struct Glyph {
    var fill: GlyphBitmap
    var outline: GlyphBitmap
  }

  private struct Key: Hashable {
    let face: ObjectIdentifier
    let glyph: UInt32
    let quarterX: Int
    let quarterY: Int
  }

  /// Quarter pixels: positions are rounded to them.
  static let subpixels = 4

  /// From this size (pixels) on, glyph bitmaps come from the arena: a 12-MP photo's captions
  /// are drawn at 200 to 500, a preview's at a tenth of that.
  static let arenaSize = 100.0

  let size: Double
  let outlineWidth: Double
  private let stroker: FT_Stroker?
  /// FreeType, for rendering outlines.
  private let library: FT_Library?
  private var cache: [Key: Glyph] = [:]
  /// Where outline fonts' bitmaps are put, at sizes from `arenaSize` on.
  private let arena: GlyphArena?

  /// A rasterizer for one font size and outline width (pixels); `stroked` false makes no
  /// outlines (a box drawn without one). `arena`, shared by a caption's boxes, holds large
  /// glyphs.
  init(
    library: FT_Library?, size: Double, outlineWidth: Double, stroked: Bool,
    arena: GlyphArena? = nil
  ) {
    self.size = size
    self.outlineWidth = outlineWidth
    self.library = library
    self.arena = size >= Self.arenaSize ? arena : nil
    var stroker: FT_Stroker?
    if stroked, let library, FT_Stroker_New(library, &stroker) == 0, let stroker {
      FT_Stroker_Set(
        stroker, FT_Fixed((outlineWidth * 64).rounded()), FT_STROKER_LINECAP_ROUND,
        FT_STROKER_LINEJOIN_ROUND, 0)
      self.stroker = stroker
    } else {
      self.stroker = nil
    }
  }

  deinit {
    if let stroker { FT_Stroker_Done(stroker) }
  }

  /// The glyph at a sub-pixel offset of `quarterX`/`quarterY` quarter pixels (0…3).
  func glyph(_ shaped: ShapedGlyph, quarterX: Int, quarterY: Int) -> Glyph {
    let key = Key(
      face: ObjectIdentifier(shaped.face), glyph: shaped.glyph, quarterX: quarterX,
      quarterY: quarterY)
    if let glyph = cache[key] { return glyph }
    let glyph =
      shaped.face.isColor
      ? colorGlyph(shaped, quarterX: quarterX, quarterY: quarterY)
      : outlineBitmaps(shaped, quarterX: quarterX, quarterY: quarterY)
    cache[key] = glyph
    return glyph
  }

  // MARK: - Outline fonts

  /// The glyph's fill and outline, drawn in place, or with `throughFreeTypeBuffer` rendered
  /// by FreeType into a buffer of its own and copied (the reference the first must equal).
  func outlineBitmaps(
    _ shaped: ShapedGlyph, quarterX: Int, quarterY: Int, throughFreeTypeBuffer: Bool = false
  ) -> Glyph {
    let face = shaped.face
    face.setPixelSize(size)
    let flags = FT_Int32(FT_LOAD_NO_HINTING) | FT_Int32(FT_LOAD_NO_BITMAP)
    guard FT_Load_Glyph(face.face, shaped.glyph, flags) == 0, let slot = face.face.pointee.glyph
    else { return Glyph(fill: .empty, outline: .empty) }
    var fill: FT_Glyph?
    guard FT_Get_Glyph(slot, &fill) == 0, fill != nil else {
      return Glyph(fill: .empty, outline: .empty)
    }
    var delta = FT_Vector(
      x: FT_Pos(quarterX * 64 / GlyphRasterizer.subpixels),
      y: FT_Pos(quarterY * 64 / GlyphRasterizer.subpixels))
    FT_Glyph_Transform(fill, nil, &delta)
    var outline: FT_Glyph?
    if let stroker, FT_Glyph_Copy(fill, &outline) == 0 {
      // 0 = the border outside the glyph; 1 = destroy the glyph it was made from.
      if FT_Glyph_StrokeBorder(&outline, stroker, 0, 1) != 0 { outline = nil }
    }
    if throughFreeTypeBuffer {
      return Glyph(fill: freeTypeBitmap(from: &fill), outline: freeTypeBitmap(from: &outline))
    }
    return Glyph(fill: bitmap(from: &fill), outline: bitmap(from: &outline))
  }

  /// Renders an outline glyph to 8-bit coverage and frees it.
  ///
  /// The coverage is drawn straight into the bitmap's own memory (`FT_Outline_Get_Bitmap`), in
  /// the box `FT_Glyph_To_Bitmap` gives: the control box widened to whole pixels, with the
  /// same pixels, but no buffer of FreeType's to clear and copy out of. An outline marked as
  /// overlapping itself (which FreeType renders oversampled) is left to `FT_Glyph_To_Bitmap`.
  private func bitmap(from glyph: inout FT_Glyph?) -> GlyphBitmap {
    guard let owned = glyph else { return .empty }
    defer {
      if let done = glyph { FT_Done_Glyph(done) }
      glyph = nil
    }
    guard owned.pointee.format == FT_GLYPH_FORMAT_OUTLINE, let library else {
      return freeTypeBitmap(from: &glyph)
    }
    let outline = UnsafeMutableRawPointer(owned).assumingMemoryBound(to: FT_OutlineGlyphRec.self)
    guard outline.pointee.outline.flags & FT_OUTLINE_OVERLAP == 0 else {
      return freeTypeBitmap(from: &glyph)
    }
    var box = FT_BBox()
    FT_Outline_Get_CBox(&outline.pointee.outline, &box)
    let left = Int(box.xMin) >> 6
    let bottom = Int(box.yMin) >> 6
    let right = (Int(box.xMax) + 63) >> 6
    let top = (Int(box.yMax) + 63) >> 6
    // Within the 16-bit pixel range FreeType's own rendering keeps to.
    guard left >= -0x8000, bottom >= -0x8000, right <= 0x7FFF, top <= 0x7FFF, right > left,
      top > bottom
    else { return .empty }
    let width = right - left
    let height = top - bottom
    // The bitmap's bottom-left corner at the origin.
    FT_Outline_Translate(&outline.pointee.outline, FT_Pos(-left * 64), FT_Pos(-bottom * 64))
    var rendered = true
    let pixels = GlyphPixels(zeroed: width * height, in: arena) { destination in
      var target = FT_Bitmap()
      target.rows = UInt32(height)
      target.width = UInt32(width)
      target.pitch = Int32(width)
      target.buffer = destination.baseAddress
      target.num_grays = 256
      target.pixel_mode = UInt8(FT_PIXEL_MODE_GRAY.rawValue)
      rendered = FT_Outline_Get_Bitmap(library, &outline.pointee.outline, &target) == 0
    }
    guard rendered else { return .empty }
    return GlyphBitmap(
      left: left, top: top, width: width, height: height, pixels: pixels, isColor: false)
  }

  /// Renders an outline glyph to 8-bit coverage through FreeType's buffer and frees it.
  private func freeTypeBitmap(from glyph: inout FT_Glyph?) -> GlyphBitmap {
    guard glyph != nil else { return .empty }
    defer {
      if let done = glyph { FT_Done_Glyph(done) }
      glyph = nil
    }
    guard FT_Glyph_To_Bitmap(&glyph, FT_RENDER_MODE_NORMAL, nil, 1) == 0, let rendered = glyph
    else { return .empty }
    let bitmapGlyph = UnsafeMutableRawPointer(rendered).assumingMemoryBound(
      to: FT_BitmapGlyphRec.self)
    let source = bitmapGlyph.pointee.bitmap
    let width = Int(source.width)
    let height = Int(source.rows)
    guard width > 0, height > 0, let buffer = source.buffer,
      source.pixel_mode == UInt8(FT_PIXEL_MODE_GRAY.rawValue)
    else { return .empty }
    let pitch = Int(source.pitch)
    let pixels = GlyphPixels(count: width * height, in: arena) { destination in
      guard let into = destination.baseAddress else { return }
      for row in 0..<height {
        let from = buffer + (pitch >= 0 ? row * pitch : (height - 1 - row) * -pitch)
        (into + row * width).initialize(from: from, count: width)
      }
    }
    return GlyphBitmap(
      left: Int(bitmapGlyph.pointee.left), top: Int(bitmapGlyph.pointee.top), width: width,
      height: height, pixels: pixels, isColor: false)
  }

  // MARK: - Color bitmap fonts

  /// Loads the BGRA strike (FT_LOAD_COLOR), outlines its alpha, and scales both from the
  /// strike size to `size`.
  ///
  /// The outline is grown around the emoji's alpha at strike resolution, where its radius is
  /// always about 7.6 px (7 % of 109), so it costs the same at every size.
  private func colorGlyph(_ shaped: ShapedGlyph, quarterX: Int, quarterY: Int) -> Glyph {
    let face = shaped.face
    guard FT_Load_Glyph(face.face, shaped.glyph, FT_Int32(FT_LOAD_COLOR)) == 0,
      let slot = face.face.pointee.glyph
    else { return Glyph(fill: .empty, outline: .empty) }
    let source = slot.pointee.bitmap
    let sourceWidth = Int(source.width)
    let sourceHeight = Int(source.rows)
    guard sourceWidth > 0, sourceHeight > 0, let buffer = source.buffer,
      source.pixel_mode == UInt8(FT_PIXEL_MODE_BGRA.rawValue), face.strikeSize > 0
    else { return Glyph(fill: .empty, outline: .empty) }
    let scale = size / face.strikeSize
    let radius = outlineWidth / scale
    let pad = Int(radius.rounded(.up)) + 1
    let width = sourceWidth + 2 * pad
    let height = sourceHeight + 2 * pad
    // The strike, copied into a padded premultiplied BGRA buffer.
    var color = [UInt8](repeating: 0, count: width * height * 4)
    let pitch = Int(source.pitch)
    for row in 0..<sourceHeight {
      for column in 0..<sourceWidth * 4 {
        color[((row + pad) * width + pad) * 4 + column] = buffer[row * pitch + column]
      }
    }
    let outline = GlyphRasterizer.dilate(
      alphaOf: color, width: width, height: height, radius: radius)
    let offsetX = Double(quarterX) / Double(GlyphRasterizer.subpixels)
    let offsetY = Double(quarterY) / Double(GlyphRasterizer.subpixels)
    let left = Int((Double(Int(slot.pointee.bitmap_left) - pad) * scale + offsetX).rounded())
    let top = Int((Double(Int(slot.pointee.bitmap_top) + pad) * scale + offsetY).rounded())
    let scaledColor = GlyphRasterizer.resample(
      color, width: width, height: height, channels: 4, scale: scale)
    let scaledOutline = GlyphRasterizer.resample(
      outline, width: width, height: height, channels: 1, scale: scale)
    return Glyph(
      fill: GlyphBitmap(
        left: left, top: top, width: scaledColor.width, height: scaledColor.height,
        pixels: GlyphPixels(scaledColor.pixels), isColor: true),
      outline: GlyphBitmap(
        left: left, top: top, width: scaledOutline.width, height: scaledOutline.height,
        pixels: GlyphPixels(scaledOutline.pixels), isColor: false))
  }

  /// The alpha channel of a BGRA buffer grown by a disk of `radius` pixels, antialiased.
  static func dilate(alphaOf color: [UInt8], width: Int, height: Int, radius: Double) -> [UInt8] {
    let reach = Int(radius.rounded(.up))
    var offsets: [(dx: Int, dy: Int, weight: Double)] = []
    for dy in -reach...reach {
      for dx in -reach...reach {
        let distance = (Double(dx * dx + dy * dy)).squareRoot()
        let weight = min(1, max(0, radius + 0.5 - distance))
        if weight > 0 { offsets.append((dx, dy, weight)) }
      }
    }
    // Nearest first: inside the emoji the first offset already gives full alpha, and once the
    // remaining weights cannot beat the best value the search stops.
    offsets.sort {
      ($0.weight, $1.dx * $1.dx + $1.dy * $1.dy) > ($1.weight, $0.dx * $0.dx + $0.dy * $0.dy)
    }
    var result = [UInt8](repeating: 0, count: width * height)
    color.withUnsafeBufferPointer { color in
      result.withUnsafeMutableBufferPointer { result in
        for y in 0..<height {
          for x in 0..<width {
            var best = 0.0
            for offset in offsets {
              let sourceX = x + offset.dx
              let sourceY = y + offset.dy
              guard sourceX >= 0, sourceX < width, sourceY >= 0, sourceY < height else {
                continue
              }
              if 255 * offset.weight <= best { break }
              let alpha = Double(color[(sourceY * width + sourceX) * 4 + 3]) * offset.weight
              if alpha > best { best = alpha }
            }
            result[y * width + x] = UInt8(best.rounded())
          }
        }
      }
    }
    return result
  }

  /// Scales a `channels`-byte-per-pixel buffer by `scale` with area averaging: each result
  /// pixel is the mean of the source square it covers, a proper filter when shrinking (the
  /// usual case) and a soft nearest neighbour when enlarging.
  static func resample(
    _ pixels: [UInt8], width sourceWidth: Int, height sourceHeight: Int, channels: Int,
    scale: Double
  ) -> (pixels: [UInt8], width: Int, height: Int) {
    let width = max(1, Int((Double(sourceWidth) * scale).rounded(.up)))
    let height = max(1, Int((Double(sourceHeight) * scale).rounded(.up)))
    if scale > 1 {
      return (
        enlarge(
          pixels, width: sourceWidth, height: sourceHeight, channels: channels, to: (width, height)),
        width, height
      )
    }
    var result = [UInt8](repeating: 0, count: width * height * channels)
    let step = 1 / scale
    let sums = UnsafeMutableBufferPointer<Double>.allocate(capacity: channels)
    defer { sums.deallocate() }
    pixels.withUnsafeBufferPointer { source in
      result.withUnsafeMutableBufferPointer { destination in
        for y in 0..<height {
          let sourceTop = Double(y) * step
          let sourceBottom = min(Double(sourceHeight), sourceTop + max(step, 1))
          for x in 0..<width {
            let sourceLeft = Double(x) * step
            let sourceRight = min(Double(sourceWidth), sourceLeft + max(step, 1))
            for channel in 0..<channels { sums[channel] = 0 }
            var total = 0.0
            var row = Int(sourceTop)
            while Double(row) < sourceBottom && row < sourceHeight {
              let rowWeight = min(Double(row + 1), sourceBottom) - max(Double(row), sourceTop)
              var column = Int(sourceLeft)
              while Double(column) < sourceRight && column < sourceWidth {
                let weight =
                  rowWeight
                  * (min(Double(column + 1), sourceRight) - max(Double(column), sourceLeft))
                let index = (row * sourceWidth + column) * channels
                for channel in 0..<channels {
                  sums[channel] += weight * Double(source[index + channel])
                }
                total += weight
                column += 1
              }
              row += 1
            }
            guard total > 0 else { continue }
            let index = (y * width + x) * channels
            for channel in 0..<channels {
              destination[index + channel] = UInt8(min(255, (sums[channel] / total).rounded()))
            }
          }
        }
      }
    }
    return (result, width, height)
  }

  /// Bilinear enlargement in 8-bit fixed point, sampling at pixel centres.
  static func enlarge(
    _ pixels: [UInt8], width sourceWidth: Int, height sourceHeight: Int, channels: Int,
    to size: (width: Int, height: Int)
  ) -> [UInt8] {
    var result = [UInt8](repeating: 0, count: size.width * size.height * channels)
    let ratioX = Double(sourceWidth) / Double(size.width)
    let ratioY = Double(sourceHeight) / Double(size.height)
    // Per column: the left source column and the weight of the right one (0…256).
    let columns: [(Int, Int)] = (0..<size.width).map { x in
      let position = max(0, (Double(x) + 0.5) * ratioX - 0.5)
      let left = min(Int(position), sourceWidth - 1)
      return (left, Int(((position - Double(left)) * 256).rounded()))
    }
    pixels.withUnsafeBufferPointer { source in
      result.withUnsafeMutableBufferPointer { destination in
        for y in 0..<size.height {
          let position = max(0, (Double(y) + 0.5) * ratioY - 0.5)
          let top = min(Int(position), sourceHeight - 1)
          let bottom = min(top + 1, sourceHeight - 1)
          let weightY = Int(((position - Double(top)) * 256).rounded())
          for x in 0..<size.width {
            let (left, weightX) = columns[x]
            let right = min(left + 1, sourceWidth - 1)
            for channel in 0..<channels {
              let topLeft = Int(source[(top * sourceWidth + left) * channels + channel])
              let topRight = Int(source[(top * sourceWidth + right) * channels + channel])
              let bottomLeft = Int(source[(bottom * sourceWidth + left) * channels + channel])
              let bottomRight = Int(source[(bottom * sourceWidth + right) * channels + channel])
              let upper = topLeft * (256 - weightX) + topRight * weightX
              let lower = bottomLeft * (256 - weightX) + bottomRight * weightX
              let value = (upper * (256 - weightY) + lower * weightY + 32768) >> 16
              destination[(y * size.width + x) * channels + channel] = UInt8(min(255, value))
            }
          }
        }
      }
    }
    return result
  }
}
