import CMemeshCodec
import Foundation
import MemeCore
import MemeSystem

extension MemeRenderer {
  /// A JPEG meme of a JPEG photo spliced into the photo's own coded data (`JPEGSplice`): the
  /// blocks no caption touches are kept exactly, and the photo is never decoded whole. Its
  /// thumbnail comes from the DC coefficients (a free 1/8-scale picture) or, for a small photo,
  /// from the preview proxy. It is made after the splice, once `whenEncoded` has the meme's
  /// bytes written on other threads: the splice keeps both cores busy, the writing does not.
  /// The failure says why the photo must be encoded whole.
  func spliced(
    _ state: EditorState, picture: SourcePicture, recipe: EmbeddedRecipe
  ) throws -> Result<Output, JPEGSplice.Refusal> {
    guard picture.format == .jpeg else { return .failure(.notJPEG) }
    let bytes = try picture.originalBytes
    let plan: JPEGSplice.Plan
    switch JPEGSplice.plan(bytes, crop: state.recipe.crop) {
    case .success(let found): plan = found
    case .failure(let refusal): return .failure(refusal)
    }
    let rect = plan.rect
    let (boxes, font) = (state.recipe.boxes, state.recipe.font)
    let (canvases, report) = try captions.canvases(boxes: boxes, font: font, imageSize: rect.size)
    let thumbnailSize = ImageOps.fittedSize(
      of: rect.size, toFit: MemeRenderer.thumbnailDimension, MemeRenderer.thumbnailDimension)
    let source: JPEGSplice.Source
    switch JPEGSplice.source(
      for: bytes, sha256: picture.sha256, maxPixels: DecodeLimits.default.maxPixels)
    {
    case .success(let opened): source = opened
    case .failure(let refusal): return .failure(refusal)
    }
    let spliced: JPEGSplice.Spliced
    switch JPEGSplice.splice(source, plan: plan, canvases: canvases, recipe: recipe.encoded()) {
    case .success(let made): spliced = made
    case .failure(let refusal): return .failure(refusal)
    }
    whenEncoded?(spliced.jpeg, rect.size)
    let small = try MemeRenderer.uncaptionedThumbnail(
      source: source, picture: picture, rect: rect, size: thumbnailSize)
    let drawn = try captions.render(onto: small, boxes: boxes, font: font)
    let thumbnail = try ImageCodec.encode(
      drawn.image, as: .png, settings: EncodeSettings(recipe: recipe))
    var explained = report
    explained.explanation += "\n" + JPEGSplice.explanation(spliced)
    return .success(
      Output(
        data: spliced.jpeg, format: .jpeg, size: rect.size, thumbnail: thumbnail,
        thumbnailSize: thumbnailSize, report: explained))
  }

  /// A spliced meme's thumbnail before its captions: `rect` of `picture` at 1/8 scale from the
  /// DC coefficients when that is at least `size`, else from the preview proxy, reduced to
  /// `size`.
  private static func uncaptionedThumbnail(
    source: JPEGSplice.Source, picture: SourcePicture, rect: PixelRect, size: PixelSize
  ) throws -> RGBAImage {
    if rect.width / 8 >= size.width && rect.height / 8 >= size.height,
      let preview = source.preview(of: rect)
    {
      return resized(preview, to: size)
    }
    return try proxyThumbnail(picture, rect: rect, size: size)
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

/// What `load` says about a picture besides its size: warnings from decoding it, the recipe of a
/// meme memesh made, and the EXIF orientation it was turned upright by.
public struct LoadedFacts: Sendable {
  public var warnings: [String]
  public var recipe: RecipeReading?
  public var orientation: Int
}

extension MemeRenderer {
  /// Loads `path` as the editor's picture. A JPEG that can be spliced (`JPEGSplice.plan`) is
  /// read and its coded data indexed (which proves it whole) while its SHA-256 is computed on a
  /// second core, and is not decoded: its preview proxy comes from a reduced DCT decode
  /// (`jpegProxy`, 1/4 scale for a 12-MP photo) the first time a preview needs it, its full
  /// pixels the first time something needs them (a PNG share), and a JPEG share needs neither
  /// (its thumbnail comes from the DC coefficients). Any other picture is decoded at once
  /// (`loadPicture`).
  ///
  /// A loaded picture gets captioned: when its read and decode outlast opening the text
  /// libraries (`ImageFile.outlastsTextLibraries`), those are opened beside them, on a thread
  /// of its own (`CaptionRenderer.prepare`), first on the core the read leaves idle.
  public static func loadForEditing(
    path: String, displayPath: String? = nil, limits: DecodeLimits = .default
  ) throws -> (picture: SourcePicture, decoded: LoadedFacts) {
    if ImageFile.outlastsTextLibraries(path: path) { CaptionRenderer.prepare() }
    return try loadForEditing(
      bytes: ImageFile.read(path: path), name: path, displayPath: displayPath, limits: limits)
  }

  /// `loadForEditing(path:)` for bytes already read (`load -`); `name` is used in messages.
  public static func loadForEditing(
    bytes: Data, name path: String, displayPath: String? = nil, limits: DecodeLimits = .default
  ) throws -> (picture: SourcePicture, decoded: LoadedFacts) {
    if let indexed = indexedJPEG(bytes, path: path, displayPath: displayPath ?? path, limits: limits)
    {
      return indexed
    }
    let (picture, decoded) = try loadPicture(
      bytes: bytes, name: path, displayPath: displayPath, limits: limits)
    return (
      picture,
      LoadedFacts(
        warnings: decoded.warnings, recipe: decoded.recipe, orientation: decoded.orientation)
    )
  }

  /// `bytes` as a picture decoded on demand, when they are a JPEG that can be spliced and whose
  /// coded data is whole; nil otherwise (the caller decodes it, and words any problem).
  private static func indexedJPEG(
    _ bytes: Data, path: String, displayPath: String, limits: DecodeLimits
  ) -> (picture: SourcePicture, decoded: LoadedFacts)? {
    guard ImageCodec.sniff(bytes) == .jpeg, case .success(let plan) = JPEGSplice.plan(bytes, crop: .off),
      plan.size.width * plan.size.height <= limits.maxPixels
    else { return nil }
    let hashing = Concurrently { Checksum.sha256(bytes) }
    let opened = JPEGSplice.Source.open(bytes, maxPixels: limits.maxPixels)
    let sha256 = hashing.result()
    JPEGSplice.remember(opened, sha256: sha256)
    guard case .success = opened else { return nil }
    let picture = SourcePicture(
      path: displayPath, originalBytes: bytes, sha256: sha256, format: .jpeg, size: plan.size,
      proxy: { bytes in try jpegProxy(bytes, name: path, limits: limits) }
    ) { bytes in
      let decoded = try ImageCodec.decode(bytes, name: path, limits: limits)
      return SourcePicture.Pixels(
        image: decoded.image,
        proxy: reduced(decoded.image, toFit: ImageFile.proxyDimension, isOpaque: true, threads: 2))
    }
    return (picture, LoadedFacts(warnings: [], recipe: plan.recipe, orientation: 1))
  }
}

extension JPEGSplice {
  /// The `preview --explain` line for a spliced meme.
  static func explanation(_ spliced: Spliced) -> String {
    "jpeg: spliced into the photo's own data; \(spliced.touchedRows) of \(spliced.mcuRows) "
      + "block rows re-encoded, the rest copied unchanged"
  }

  /// The `preview --explain` line for sharing `picture` cropped by `crop` as a JPEG: spliced,
  /// or why not (nil for a picture that is not a JPEG).
  public static func explanation(for picture: SourcePicture, crop: Crop) -> String? {
    guard picture.format == .jpeg, let bytes = try? picture.originalBytes else { return nil }
    switch plan(bytes, crop: crop) {
    case .success:
      // Coded data that does not add up is found by indexing it, which `load` did.
      if let refusal = knownRefusal(sha256: picture.sha256) { return refusal.explanation }
      return "jpeg: a JPEG share is spliced into the photo's own data (only the block rows the "
        + "captions touch are re-encoded)"
    case .failure(let refusal):
      return refusal.explanation
    }
  }
}
