import Foundation
import MemeCore
import MemeMedia

extension FuzzTarget {
  /// Small limits, so that a file claiming many frames or a large canvas is refused quickly.
  static let animationLimits = AnimationLimits(
    still: limits, maxFrames: 200, maxCanvasPixels: 1_000_000, maxTotalPixels: 4_000_000)

  /// The animation decoders' targets (`imageTargets` lists them).
  static let animationTargets: [FuzzTarget] = [gifAnimation, webpAnimation]

  /// GIF bytes read frame by frame (records, disposal, palettes, transparency, loop count,
  /// recipe comment), then written again as an animated GIF (quantizer, frame optimizer).
  static let gifAnimation = FuzzTarget(
    name: "gif-animation", summary: "animated GIF file bytes"
  ) { data in
    readAndWriteAnimation(data, name: "fuzz.gif", as: .gif)
  }

  /// WebP bytes read frame by frame through libwebpdemux, then written as an animated WebP.
  static let webpAnimation = FuzzTarget(
    name: "webp-animation", summary: "animated WebP file bytes"
  ) { data in
    readAndWriteAnimation(data, name: "fuzz.webp", as: .webp)
  }

  private static func readAndWriteAnimation(_ data: Data, name: String, as format: ImageFormat) {
    guard let decoder = try? ImageCodec.openAnimation(data, name: name, limits: animationLimits)
    else { return }
    let info = decoder.info
    precondition(info.frameCount <= animationLimits.maxFrames, "frame count over the limit")
    precondition(info.delays.allSatisfy { $0 > 10 }, "a delay browsers would not play")
    var count = 0
    while let frame = try? decoder.next() {
      precondition(frame.image.size == info.canvas, "frame size")
      count += 1
    }
    precondition(count <= info.frameCount, "more frames than counted")
    let renderer = AnimationRenderer(
      catalog: .standard(), settings: EncodeSettings(effort: 0), limits: animationLimits)
    if let output = try? renderer.render(data, name: name, boxes: [], font: "Anton", format: format)
    {
      let again = try? ImageCodec.animationInfo(output.data, name: "again", limits: animationLimits)
      precondition(again?.canvas == info.canvas, "the written animation does not read back")
    }
  }
}
