import CMemeshShim
import Foundation
import MemeCore

extension MemeRenderer {
  /// A JPEG meme of a JPEG photo spliced into the photo's own coded data (`JPEGSplice`): the
  /// blocks no caption touches are kept exactly, and the photo is never decoded whole. Its
  /// thumbnail comes from the DC coefficients (a free 1/8-scale picture) or, for a small photo,
  /// from the preview proxy. The failure says why the photo must be encoded whole.
  func spliced(
    _ state: EditorState, picture: SourcePicture, recipe: MemeRecipe
  ) throws -> Result<Output, JPEGSplice.Refusal> {
    guard picture.format == .jpeg else { return .failure(.notJPEG) }
    let bytes = try picture.originalBytes
    let plan: JPEGSplice.Plan
    switch JPEGSplice.plan(bytes, crop: state.crop) {
    case .success(let found): plan = found
    case .failure(let refusal): return .failure(refusal)
    }
    let rect = plan.rect
    let (canvases, report) = try captions.canvases(
      for: rect.size, top: state.top, bottom: state.bottom, font: state.font)
    let thumbnailSize = ImageOps.fittedSize(
      of: rect.size, toFit: MemeRenderer.thumbnailDimension, MemeRenderer.thumbnailDimension)
    let spliced: JPEGSplice.Spliced
    switch JPEGSplice.splice(
      bytes, plan: plan, canvases: canvases, recipe: recipe.encoded(),
      maxPixels: DecodeLimits.default.maxPixels,
      preview: rect.width / 8 >= thumbnailSize.width && rect.height / 8 >= thumbnailSize.height)
    {
    case .success(let made): spliced = made
    case .failure(let refusal): return .failure(refusal)
    }
    let small: RGBAImage
    if let preview = spliced.preview {
      small = MemeRenderer.resized(preview, to: thumbnailSize)
    } else {
      small = try MemeRenderer.proxyThumbnail(picture, rect: rect, size: thumbnailSize)
    }
    let drawn = try captions.render(
      onto: small, top: state.top, bottom: state.bottom, font: state.font)
    let thumbnail = try ImageCodec.encode(
      drawn.image, as: .png, options: EncodeOptions(recipe: recipe))
    var explained = report
    explained.explanation += "\n" + JPEGSplice.explanation(spliced)
    return .success(
      Output(
        data: spliced.jpeg, format: .jpeg, size: rect.size, thumbnail: thumbnail,
        thumbnailSize: thumbnailSize, report: explained))
  }

  /// `picture`'s preview proxy, cropped to `rect` (in the picture) and reduced to `size`.
  private static func proxyThumbnail(_ picture: SourcePicture, rect: PixelRect, size: PixelSize)
    throws -> RGBAImage
  {
    let proxy = try picture.proxy
    let full = try picture.size
    let scaleX = Double(proxy.width) / Double(max(1, full.width))
    let scaleY = Double(proxy.height) / Double(max(1, full.height))
    let scaled = PixelRect(
      x: Int(Double(rect.x) * scaleX), y: Int(Double(rect.y) * scaleY),
      width: max(1, Int((Double(rect.width) * scaleX).rounded())),
      height: max(1, Int((Double(rect.height) * scaleY).rounded())))
    let cropped = ImageOps.crop(proxy, to: scaled)
    if cropped.width < size.width || cropped.height < size.height {
      return ImageOps.scaled(cropped, toFit: size.width, size.height)
    }
    return resized(cropped, to: size)
  }

  /// `image` box-filtered down to exactly `size` (no larger than the image).
  private static func resized(_ image: RGBAImage, to size: PixelSize) -> RGBAImage {
    guard size != image.size else { return image }
    let count = size.width * size.height * 4
    let pixels = [UInt8](unsafeUninitializedCapacity: count) { into, initialized in
      image.pixels.withUnsafeBufferPointer { source in
        guard let base = source.baseAddress else { return }
        let rows = (0..<image.height).map { base + $0 * image.width * 4 }
        rows.map { Optional($0) }.withUnsafeBufferPointer { pointers in
          var whole = memesh_rows(
            rows: pointers.baseAddress, width: UInt32(image.width), height: UInt32(image.height),
            opaque: 1, overlay: nil)
          memesh_downscale_rows(&whole, UInt32(size.width), UInt32(size.height), into.baseAddress)
        }
      }
      initialized = count
    }
    return RGBAImage(width: size.width, height: size.height, pixels: pixels)
  }
}

extension JPEGSplice {
  /// The `preview --explain` line for a spliced meme.
  static func explanation(_ spliced: Spliced) -> String {
    "jpeg: spliced into the photo's own data; \(spliced.touchedRows) of \(spliced.mcuRows) "
      + "block rows re-encoded, the rest copied unchanged"
  }

  /// The `preview --explain` line for sharing `state` as a JPEG: spliced, or why not.
  public static func explanation(for state: EditorState) -> String? {
    guard let picture = state.picture, picture.format == .jpeg,
      let bytes = try? picture.originalBytes
    else { return nil }
    switch plan(bytes, crop: state.crop) {
    case .success:
      return "jpeg: a JPEG share is spliced into the photo's own data (only the block rows the "
        + "captions touch are re-encoded)"
    case .failure(let refusal):
      return refusal.explanation
    }
  }
}
