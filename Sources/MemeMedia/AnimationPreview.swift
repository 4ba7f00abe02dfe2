import Foundation
import MemeCore

/// An animation's frames made small for the terminal: each cropped, scaled to fit a size and
/// captioned (the captions laid out once at that size), one at a time.
public final class AnimationPreview {
  public let info: AnimationInfo
  /// The size of every frame it gives.
  public let size: PixelSize
  private let decoder: AnimationDecoder
  private let rect: PixelRect
  private let layers: AnimationCaptions
  private let starts: [Double]

  /// Opens `data` (a GIF or WebP) with its text `boxes` (`font` for those without their own),
  /// cropped by `crop`, each frame scaled to fit `maxSize`.
  public init(
    _ data: Data, name: String, boxes: [TextBox], font: String, crop: Crop,
    fitting maxSize: PixelSize, catalog: FontCatalog, limits: AnimationLimits = .default
  ) throws {
    decoder = try ImageCodec.openAnimation(data, name: name, limits: limits)
    info = decoder.info
    rect = try crop.resolved(in: info.canvas)
    // A small animation is enlarged to the size it is shown at, so its captions are drawn at
    // that size and stay sharp (the terminal would otherwise enlarge them, blurred).
    let scale = min(
      8, Double(max(1, maxSize.width)) / Double(rect.width),
      Double(max(1, maxSize.height)) / Double(rect.height))
    size = PixelSize(
      width: max(1, Int(Double(rect.width) * scale)), height: max(1, Int(Double(rect.height) * scale)))
    layers = try AnimationCaptions(
      boxes: boxes, font: font, size: size, renderer: CaptionRenderer(catalog: catalog))
    starts = info.startFractions
  }

  /// The next frame, captioned, with its delay as browsers play it; nil after the last.
  public func next() throws -> (image: RGBAImage, delay: Int)? {
    guard let frame = try decoder.next() else { return nil }
    let whole = PixelRect(x: 0, y: 0, width: info.canvas.width, height: info.canvas.height)
    let cropped = rect == whole ? frame.image : ImageOps.crop(frame.image, to: rect)
    var image =
      size.width > cropped.width
      ? AnimationPreview.enlarged(cropped, to: size)
      : ImageOps.scaled(cropped, toFit: size.width, size.height)
    let fraction = frame.index < starts.count ? starts[frame.index] : 0
    for canvas in layers.canvases(at: fraction) { canvas.composite(onto: &image) }
    return (image, frame.delay)
  }

  /// `image` enlarged to `size` by repeating pixels (GIFs are often pixel art; a smooth filter
  /// would blur them).
  static func enlarged(_ image: RGBAImage, to size: PixelSize) -> RGBAImage {
    let columns = (0..<size.width).map { min(image.width - 1, $0 * image.width / size.width) }
    var pixels = [UInt8](repeating: 0, count: size.width * size.height * 4)
    image.pixels.withUnsafeBufferPointer { source in
      pixels.withUnsafeMutableBufferPointer { target in
        for y in 0..<size.height {
          let from = min(image.height - 1, y * image.height / size.height) * image.width
          for x in 0..<size.width {
            let (s, t) = ((from + columns[x]) * 4, (y * size.width + x) * 4)
            target[t] = source[s]
            target[t + 1] = source[s + 1]
            target[t + 2] = source[s + 2]
            target[t + 3] = source[s + 3]
          }
        }
      }
    }
    return RGBAImage(width: size.width, height: size.height, pixels: pixels)
  }

  /// Starts again from the first frame.
  public func rewind() throws {
    try decoder.rewind()
  }

  /// Skips `count` frames without captioning or scaling them.
  public func skip(_ count: Int) throws {
    for _ in 0..<count { _ = try decoder.next() }
  }
}
