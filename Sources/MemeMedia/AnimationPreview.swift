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
  private let layers: [(caption: AnimationCaption, canvas: CaptionCanvas)]
  private let starts: [Double]

  /// Opens `data` (a GIF or WebP) with `captions` in `font`, cropped by `crop`, each frame
  /// scaled to fit `maxSize`.
  public init(
    _ data: Data, name: String, captions: [AnimationCaption], font: String, crop: Crop,
    fitting maxSize: PixelSize, catalog: FontCatalog, limits: AnimationLimits = .default
  ) throws {
    decoder = try ImageCodec.openAnimation(data, name: name, limits: limits)
    info = decoder.info
    rect = try crop.resolved(in: info.canvas)
    size = ImageOps.fittedSize(
      of: rect.size, toFit: max(1, maxSize.width), max(1, maxSize.height))
    let renderer = CaptionRenderer(catalog: catalog)
    var layers: [(caption: AnimationCaption, canvas: CaptionCanvas)] = []
    for caption in captions where !caption.text.isEmpty {
      let (canvases, _) = try renderer.canvases(
        for: size, top: caption.atTop ? caption.text : "",
        bottom: caption.atTop ? "" : caption.text, font: font)
      layers += canvases.map { (caption, $0) }
    }
    self.layers = layers
    starts = info.startFractions
  }

  /// The next frame, captioned, with its delay as browsers play it; nil after the last.
  public func next() throws -> (image: RGBAImage, delay: Int)? {
    guard let frame = try decoder.next() else { return nil }
    let whole = PixelRect(x: 0, y: 0, width: info.canvas.width, height: info.canvas.height)
    let cropped = rect == whole ? frame.image : ImageOps.crop(frame.image, to: rect)
    var image = ImageOps.scaled(cropped, toFit: size.width, size.height)
    let fraction = frame.index < starts.count ? starts[frame.index] : 0
    for layer in layers where layer.caption.shows(at: fraction) {
      layer.canvas.composite(onto: &image)
    }
    return (image, frame.delay)
  }

  /// Skips `count` frames without captioning or scaling them.
  public func skip(_ count: Int) throws {
    for _ in 0..<count { _ = try decoder.next() }
  }
}
