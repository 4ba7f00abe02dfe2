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
  static let thumbnailDimension = 256

  /// Crops, captions and encodes `state`'s picture at full resolution, with the recipe embedded
  /// in the file and in the thumbnail.
  static func render(
    _ state: EditorState, picture: SourcePicture, format: ImageFormat, catalog: FontCatalog
  ) throws -> RenderedMeme {
    var image = try ImageOps.crop(picture.image, state.crop)
    let report = try CaptionRenderer(catalog: catalog).draw(
      into: &image, top: state.top, bottom: state.bottom, font: state.font)
    let recipe = MemeRecipe(
      top: state.top, bottom: state.bottom, font: state.font, crop: state.crop,
      originalSHA256: picture.sha256)
    let options = EncodeOptions(recipe: recipe)
    let data = try ImageCodec.encode(image, as: format, options: options)
    let small = ImageOps.scaled(image, toFit: thumbnailDimension, thumbnailDimension)
    let thumbnail = try ImageCodec.encode(small, as: .png, options: options)
    return RenderedMeme(data: data, thumbnail: thumbnail, size: image.size, report: report)
  }

  /// A quick render from the picture's preview proxy (for `preview` in the terminal): the same
  /// crop, scaled to the proxy, and the same captions.
  static func preview(
    _ state: EditorState, picture: SourcePicture, catalog: FontCatalog
  ) throws -> (image: RGBAImage, report: CaptionReport) {
    let full = picture.size
    let rect = try state.crop.resolved(in: full)
    let proxy = picture.proxy
    let scaleX = Double(proxy.width) / Double(max(1, full.width))
    let scaleY = Double(proxy.height) / Double(max(1, full.height))
    let scaled = PixelRect(
      x: Int((Double(rect.x) * scaleX).rounded(.down)),
      y: Int((Double(rect.y) * scaleY).rounded(.down)),
      width: max(1, Int((Double(rect.width) * scaleX).rounded())),
      height: max(1, Int((Double(rect.height) * scaleY).rounded())))
    let cropped = ImageOps.crop(proxy, to: scaled)
    return try CaptionRenderer(catalog: catalog).render(
      onto: cropped, top: state.top, bottom: state.bottom, font: state.font)
  }
}
