import Foundation
import MemeCore
import MemeMedia

/// What a share writes: the rendered meme in its format, a thumbnail, and what captioning decided.
struct RenderedMeme {
  var data: Data
  var thumbnail: Data
  var size: PixelSize
  var report: CaptionReport
}

/// Every full-resolution render memesh does goes through `MemeRendering.render` — ONE function,
/// so the renderer behind it can change in one place.
enum MemeRendering {
  /// The longest side of a stored thumbnail.
  static let thumbnailDimension = MemeRenderer.thumbnailDimension

  /// Crops, captions and encodes `state`'s picture at full resolution, with the recipe embedded
  /// in the file and in the thumbnail. MemeRenderer does it in one pass without copying the
  /// picture (the caption rows are drawn into strips; the thumbnail is made alongside).
  /// `lossless` asks for a lossless WebP. `whenEncoded` is given the meme's bytes and size as
  /// soon as they exist, when that is before the thumbnail is made (a spliced JPEG).
  static func render(
    _ state: EditorState, picture: SourcePicture, format: ImageFormat, lossless: Bool = false,
    catalog: FontCatalog, whenEncoded: (@Sendable (Data, PixelSize) -> Void)? = nil
  ) throws -> RenderedMeme {
    // A GIF, or a WebP of an animation, moves: every frame captioned (Shell+Animation.swift).
    if try format == .gif || (format == .webp && Animations.info(of: picture) != nil) {
      return try Animations.render(
        state, picture: picture, format: format, lossless: lossless, catalog: catalog)
    }
    var drawn = state
    drawn.picture = picture
    var renderer = MemeRenderer(catalog: catalog, settings: EncodeSettings(lossless: lossless))
    renderer.whenEncoded = whenEncoded
    let output = try renderer.render(drawn, format: format)
    return RenderedMeme(
      data: output.data, thumbnail: output.thumbnail, size: output.size, report: output.report)
  }

  /// A quick render from the picture's preview proxy (for `preview` in the terminal): the same
  /// crop, scaled to the proxy, and the same captions. With `fullSizeReport`, the report (and
  /// its warnings) is laid out at the picture's real size, so its numbers are the ones `share`
  /// draws, not the proxy's.
  static func preview(
    _ state: EditorState, picture: SourcePicture, catalog: FontCatalog,
    fullSizeReport: Bool = false
  ) throws -> (image: RGBAImage, report: CaptionReport) {
    let cropped = try croppedProxy(state, picture: picture)
    let renderer = CaptionRenderer(catalog: catalog)
    var drawn = try renderer.render(
      onto: cropped, boxes: state.recipe.boxes, font: state.recipe.font)
    if fullSizeReport {
      let full = try state.recipe.crop.resolved(in: try picture.size).size
      drawn.report = try renderer.report(
        boxes: state.recipe.boxes, font: state.recipe.font, imageSize: full)
    }
    // Whether a JPEG share splices the captions into the photo, or why not.
    if let splice = JPEGSplice.explanation(for: picture, crop: state.recipe.crop) {
      drawn.report.explanation += "\n" + splice
    }
    return drawn
  }

  /// The picture's preview proxy with the recipe's crop, scaled to the proxy.
  static func croppedProxy(_ state: EditorState, picture: SourcePicture) throws -> RGBAImage {
    let full = try picture.size
    let rect = try state.recipe.crop.resolved(in: full)
    let proxy = try picture.proxy
    let scaleX = Double(proxy.width) / Double(max(1, full.width))
    let scaleY = Double(proxy.height) / Double(max(1, full.height))
    let scaled = PixelRect(
      x: Int((Double(rect.x) * scaleX).rounded(.down)),
      y: Int((Double(rect.y) * scaleY).rounded(.down)),
      width: max(1, Int((Double(rect.width) * scaleX).rounded())),
      height: max(1, Int((Double(rect.height) * scaleY).rounded())))
    return ImageOps.crop(proxy, to: scaled)
  }
}
