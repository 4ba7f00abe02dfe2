import CMemeshShim
import MemeCore

/// The few pixels a caption covers: an outline mask, a fill mask and color glyphs, merged and
/// then composited over the picture in one pass each (every outline before any fill, so an
/// outline never covers a letter or its neighbour). Only this rectangle of the image is touched.
struct CaptionCanvas {
  /// A glyph bitmap placed with its pen position at (x, baseline y) in image pixels.
  struct Placement {
    var glyph: GlyphRasterizer.Glyph
    var x: Int
    var y: Int
  }

  let region: PixelRect
  private var outline: [UInt8]
  private var fill: [UInt8]
  private var colors: [(bitmap: GlyphBitmap, x: Int, y: Int)] = []

  /// A canvas for `placements`, clipped to an image of `size`.
  init(placements: [Placement], imageSize: PixelSize) {
    var minX = Int.max
    var minY = Int.max
    var maxX = Int.min
    var maxY = Int.min
    for placement in placements {
      for bitmap in [placement.glyph.fill, placement.glyph.outline] where bitmap.width > 0 {
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
    outline = [UInt8](repeating: 0, count: region.width * region.height)
    fill = outline
    for placement in placements {
      merge(placement.glyph.outline, x: placement.x, y: placement.y, into: &outline)
      if placement.glyph.fill.isColor {
        colors.append((placement.glyph.fill, placement.x, placement.y))
      } else {
        merge(placement.glyph.fill, x: placement.x, y: placement.y, into: &fill)
      }
    }
  }

  /// Adds coverage by taking the maximum, so overlapping neighbours do not darken each other.
  private func merge(_ bitmap: GlyphBitmap, x: Int, y: Int, into mask: inout [UInt8]) {
    guard bitmap.width > 0, !bitmap.isColor, region.width > 0 else { return }
    let originX = x + bitmap.left - region.x
    let originY = y - bitmap.top - region.y
    // A glyph may lie wholly outside the region (found by the caption fuzz target: a combining
    // mark on a space, then a long word); then there is nothing to merge, and no range to make.
    let firstColumn = max(0, -originX)
    let endColumn = min(bitmap.width, region.width - originX)
    let firstRow = max(0, -originY)
    let endRow = min(bitmap.height, region.height - originY)
    guard firstColumn < endColumn, firstRow < endRow else { return }
    let columns = firstColumn..<endColumn
    let rows = firstRow..<endRow
    let width = region.width
    bitmap.pixels.withUnsafeBufferPointer { source in
      mask.withUnsafeMutableBufferPointer { destination in
        guard let from = source.baseAddress, let into = destination.baseAddress else { return }
        for row in rows {
          // The maximum of the two coverages, in C (vectorized) for 12-MP captions.
          memesh_max_bytes(
            into + (originY + row) * width + originX + columns.lowerBound,
            from + row * bitmap.width + columns.lowerBound, columns.count)
        }
      }
    }
  }

  /// Composites black outlines, then white fills, then color glyphs over `image`.
  func composite(onto image: inout RGBAImage) {
    composite(onto: &image, firstRow: 0)
  }

  /// Composites onto `strip`, which holds the picture's rows from `firstRow` on (full width);
  /// rows outside the strip are skipped. `MemeRenderer` draws into such strips.
  func composite(onto strip: inout RGBAImage, firstRow: Int) {
    let low = max(region.y, firstRow)
    let high = min(region.y + region.height, firstRow + strip.height)
    guard region.width > 0, low < high, region.x + region.width <= strip.width else { return }
    let visible = low..<high
    let imageWidth = strip.width
    let region = self.region
    strip.pixels.withUnsafeMutableBufferPointer { pixels in
      for (mask, color) in [(outline, UInt8(0)), (fill, UInt8(255))] {
        mask.withUnsafeBufferPointer { mask in
          guard let target = pixels.baseAddress, let coverage = mask.baseAddress else { return }
          // CaptionCanvas.blend's arithmetic, in C: millions of pixels on a 12-MP meme.
          memesh_composite_mask(
            target + ((visible.lowerBound - firstRow) * imageWidth + region.x) * 4,
            imageWidth * 4, coverage + (visible.lowerBound - region.y) * region.width,
            region.width, UInt32(region.width), UInt32(visible.count), color)
        }
      }
      for (bitmap, x, y) in colors {
        let originX = x + bitmap.left
        let originY = y - bitmap.top
        for row in 0..<bitmap.height {
          let imageY = originY + row
          guard visible.contains(imageY) else { continue }
          for column in 0..<bitmap.width {
            let imageX = originX + column
            guard imageX >= region.x, imageX < region.x + region.width else { continue }
            let source = (row * bitmap.width + column) * 4
            let alpha = Int(bitmap.pixels[source + 3])
            guard alpha > 0 else { continue }
            CaptionCanvas.blend(
              into: pixels, at: ((imageY - firstRow) * imageWidth + imageX) * 4,
              red: Int(bitmap.pixels[source + 2]), green: Int(bitmap.pixels[source + 1]),
              blue: Int(bitmap.pixels[source]), alpha: alpha, premultiplied: true)
          }
        }
      }
    }
  }

  /// Source-over in integers: straight-alpha destination, straight or premultiplied source.
  @inline(__always)
  static func blend(
    into pixels: UnsafeMutableBufferPointer<UInt8>, at index: Int, red: Int, green: Int,
    blue: Int, alpha: Int, premultiplied: Bool
  ) {
    let destinationAlpha = Int(pixels[index + 3])
    let inverse = 255 - alpha
    let source = premultiplied ? (red, green, blue) : (red * alpha, green * alpha, blue * alpha)
    let scale = premultiplied ? 255 : 1
    if destinationAlpha == 255 {
      // Opaque background, the common case: out = src + dst × (1 − a).
      pixels[index] = UInt8((source.0 * scale + Int(pixels[index]) * inverse + 127) / 255)
      pixels[index + 1] = UInt8(
        (source.1 * scale + Int(pixels[index + 1]) * inverse + 127) / 255)
      pixels[index + 2] = UInt8(
        (source.2 * scale + Int(pixels[index + 2]) * inverse + 127) / 255)
      return
    }
    // Transparent background: premultiply, add, divide by the new alpha.
    let outAlpha255 = alpha * 255 + destinationAlpha * inverse
    guard outAlpha255 > 0 else { return }
    for channel in 0..<3 {
      let sourceValue = [source.0, source.1, source.2][channel] * scale
      let premultipliedOut =
        sourceValue * 255 + Int(pixels[index + channel]) * destinationAlpha
        * inverse
      pixels[index + channel] = UInt8(
        min(255, (premultipliedOut + outAlpha255 / 2) / outAlpha255))
    }
    pixels[index + 3] = UInt8((outAlpha255 + 127) / 255)
  }
}
