import Foundation
import MemeCore

extension CaptionCanvas {
  /// The corners of `rectangle` turned by `degrees` clockwise about its center (in picture
  /// pixels, y down).
  static func corners(of rectangle: CaptionLayout.Box, degrees: Double) -> [(x: Double, y: Double)]
  {
    let center = (x: rectangle.x + rectangle.width / 2, y: rectangle.y + rectangle.height / 2)
    let turn = Turn(degrees: degrees, center: center)
    return [
      (rectangle.x, rectangle.y), (rectangle.x + rectangle.width, rectangle.y),
      (rectangle.x, rectangle.maxY), (rectangle.x + rectangle.width, rectangle.maxY),
    ].map { turn.forward(x: $0.0, y: $0.1) }
  }

  /// `placements` (a box's glyphs laid out level) turned by `degrees` clockwise about `center`:
  /// the box's outline and fill coverage and its color glyphs are each gathered into one
  /// bitmap as drawn level, then turned with bilinear sampling (antialiased edges stay
  /// antialiased), and only the part inside a picture of `imageSize` is kept. The result is at
  /// most three placements: outline, fill and color, which draw like the level glyphs would.
  static func rotated(
    _ placements: [Placement], degrees: Double, center: (x: Double, y: Double),
    imageSize: PixelSize
  ) -> [Placement] {
    // The level glyphs' bounds, unclipped: a turned box may swing text in from outside.
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
    guard minX < maxX, minY < maxY else { return [] }
    let source = Layers(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    for placement in placements { source.add(placement) }
    // Where the turned bitmap lands, clipped to the picture.
    let turn = Turn(degrees: degrees, center: center)
    let level = CaptionLayout.Box(
      x: Double(minX), y: Double(minY), width: Double(source.width),
      height: Double(source.height))
    let turned = corners(of: level, degrees: 0).map { turn.forward(x: $0.x, y: $0.y) }
    let left = max(0, Int((turned.map(\.x).min() ?? 0).rounded(.down)))
    let top = max(0, Int((turned.map(\.y).min() ?? 0).rounded(.down)))
    let right = min(imageSize.width, Int((turned.map(\.x).max() ?? 0).rounded(.up)))
    let bottom = min(imageSize.height, Int((turned.map(\.y).max() ?? 0).rounded(.up)))
    guard left < right, top < bottom else { return [] }
    let target = PixelRect(x: left, y: top, width: right - left, height: bottom - top)
    let outline = source.turned(\.outline, channels: 1, into: target, by: turn)
    let fill = source.turned(\.fill, channels: 1, into: target, by: turn)
    var result = [
      Placement(
        glyph: GlyphRasterizer.Glyph(
          fill: bitmap(fill, target, isColor: false),
          outline: bitmap(outline, target, isColor: false)),
        x: target.x, y: target.y)
    ]
    if source.hasColor {
      let color = source.turned(\.color, channels: 4, into: target, by: turn)
      result.append(
        Placement(
          glyph: GlyphRasterizer.Glyph(fill: bitmap(color, target, isColor: true), outline: .empty),
          x: target.x, y: target.y))
    }
    return result
  }

  /// A bitmap covering `target`, placed at its top-left corner.
  private static func bitmap(_ pixels: GlyphPixels, _ target: PixelRect, isColor: Bool)
    -> GlyphBitmap
  {
    GlyphBitmap(
      left: 0, top: 0, width: target.width, height: target.height, pixels: pixels,
      isColor: isColor)
  }
}

/// A turn by an angle about a point, and its inverse.
private struct Turn {
  let cosine: Double
  let sine: Double
  let center: (x: Double, y: Double)

  init(degrees: Double, center: (x: Double, y: Double)) {
    let radians = degrees * .pi / 180
    cosine = cos(radians)
    sine = sin(radians)
    self.center = center
  }

  /// Where the point (x, y) goes: clockwise on screen for a positive angle, since y is down.
  func forward(x: Double, y: Double) -> (x: Double, y: Double) {
    let dx = x - center.x
    let dy = y - center.y
    return (center.x + dx * cosine - dy * sine, center.y + dx * sine + dy * cosine)
  }

  /// Where the point that goes to (x, y) came from.
  func backward(x: Double, y: Double) -> (x: Double, y: Double) {
    let dx = x - center.x
    let dy = y - center.y
    return (center.x + dx * cosine + dy * sine, center.y - dx * sine + dy * cosine)
  }
}

/// A level box's glyphs gathered into three bitmaps over one rectangle: outline and fill
/// coverage (each the maximum of its glyphs, as the compositor merges them) and color glyphs
/// (premultiplied B G R A, each drawn over the ones before).
private final class Layers {
  let x: Int
  let y: Int
  let width: Int
  let height: Int
  var outline: [UInt8]
  var fill: [UInt8]
  var color: [UInt8] = []

  init(x: Int, y: Int, width: Int, height: Int) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
    outline = [UInt8](repeating: 0, count: width * height)
    fill = [UInt8](repeating: 0, count: width * height)
  }

  var hasColor: Bool { !color.isEmpty }

  func add(_ placement: CaptionCanvas.Placement) {
    let glyph = placement.glyph
    if glyph.outline.width > 0, !glyph.outline.isColor {
      merge(glyph.outline, at: placement, into: &outline)
    }
    guard glyph.fill.width > 0 else { return }
    if glyph.fill.isColor {
      if color.isEmpty { color = [UInt8](repeating: 0, count: width * height * 4) }
      over(glyph.fill, at: placement)
    } else {
      merge(glyph.fill, at: placement, into: &fill)
    }
  }

  /// mask = max(mask, coverage) under `bitmap`.
  private func merge(
    _ bitmap: GlyphBitmap, at placement: CaptionCanvas.Placement, into mask: inout [UInt8]
  ) {
    let originX = placement.x + bitmap.left - x
    let originY = placement.y - bitmap.top - y
    mask.withUnsafeMutableBufferPointer { mask in
      for row in 0..<bitmap.height {
        let targetRow = (originY + row) * width + originX
        let sourceRow = row * bitmap.width
        for column in 0..<bitmap.width {
          let value = bitmap.pixels[sourceRow + column]
          if value > mask[targetRow + column] { mask[targetRow + column] = value }
        }
      }
    }
  }

  /// Premultiplied source-over of a color glyph.
  private func over(_ bitmap: GlyphBitmap, at placement: CaptionCanvas.Placement) {
    let originX = placement.x + bitmap.left - x
    let originY = placement.y - bitmap.top - y
    color.withUnsafeMutableBufferPointer { color in
      for row in 0..<bitmap.height {
        for column in 0..<bitmap.width {
          let source = (row * bitmap.width + column) * 4
          let alpha = Int(bitmap.pixels[source + 3])
          guard alpha > 0 else { continue }
          let target = ((originY + row) * width + originX + column) * 4
          for channel in 0..<4 {
            let mixed =
              Int(bitmap.pixels[source + channel])
              + (Int(color[target + channel]) * (255 - alpha)
                + 127) / 255
            color[target + channel] = UInt8(min(255, mixed))
          }
        }
      }
    }
  }

  /// The layer at `keyPath` (`channels` bytes a pixel) turned by `turn`, for the pixels of
  /// `target` (picture coordinates): each target pixel's center is taken back through the turn
  /// and sampled bilinearly, nothing outside the layer.
  func turned(
    _ keyPath: KeyPath<Layers, [UInt8]>, channels: Int, into target: PixelRect, by turn: Turn
  ) -> GlyphPixels {
    let layer = self[keyPath: keyPath]
    let (width, height, originX, originY) = (self.width, self.height, Double(x), Double(y))
    return GlyphPixels(count: target.width * target.height * channels) { output in
      output.initialize(repeating: 0)
      layer.withUnsafeBufferPointer { source in
        /// The layer's value at whole pixel (column, row), 0 outside.
        func value(_ column: Int, _ row: Int, _ channel: Int) -> Double {
          guard column >= 0, column < width, row >= 0, row < height else { return 0 }
          return Double(source[(row * width + column) * channels + channel])
        }
        for row in 0..<target.height {
          for column in 0..<target.width {
            let from = turn.backward(
              x: Double(target.x + column) + 0.5, y: Double(target.y + row) + 0.5)
            // In the layer's pixels, measured from pixel centers.
            let u = from.x - originX - 0.5
            let v = from.y - originY - 0.5
            guard u > -1, v > -1, u < Double(width), v < Double(height) else { continue }
            let left = Int(u.rounded(.down))
            let upper = Int(v.rounded(.down))
            let fx = u - Double(left)
            let fy = v - Double(upper)
            let index = (row * target.width + column) * channels
            for channel in 0..<channels {
              let top =
                value(left, upper, channel) * (1 - fx) + value(left + 1, upper, channel) * fx
              let bottom =
                value(left, upper + 1, channel) * (1 - fx)
                + value(left + 1, upper + 1, channel) * fx
              output[index + channel] = UInt8(min(255, (top * (1 - fy) + bottom * fy).rounded()))
            }
          }
        }
      }
    }
  }
}
