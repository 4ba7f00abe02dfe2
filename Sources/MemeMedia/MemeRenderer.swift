import CMemeshCodec
import Dispatch
import Foundation
import MemeCore

/// Renders a meme at full resolution, encodes it and makes its thumbnail, in one pass.
///
/// The picture is never copied: the encoder reads rows straight from the decoded (and cropped)
/// photo; a row a caption covers is copied into the reading thread's scratch row and the
/// caption drawn on it there. So a 12-MP share needs the decoded 48 MB plus the encoded file,
/// the caption work runs on the encoder's threads, and the thumbnail is reduced on another
/// thread while they encode.
public struct MemeRenderer: Sendable {
  /// A rendered meme: the encoded file and its PNG thumbnail.
  public struct Output: Sendable {
    public var data: Data
    public var format: ImageFormat
    /// Size of the meme (the crop's size).
    public var size: PixelSize
    /// PNG, longest side at most `MemeRenderer.thumbnailDimension`, with the same recipe.
    public var thumbnail: Data
    public var thumbnailSize: PixelSize
    /// What the captions did (shrunk, wrapped, cut, fallback fonts).
    public var report: CaptionReport
  }

  /// The longest side of a thumbnail.
  public static let thumbnailDimension = 256

  public var captions: CaptionRenderer
  /// How the meme is written; `render(_:format:settings:)` adds the recipe and colour profile.
  public var settings: EncodeSettings
  /// Called with a spliced JPEG meme and its size as soon as its bytes exist, before its
  /// thumbnail is made: a share starts writing it meanwhile.
  public var whenEncoded: (@Sendable (Data, PixelSize) -> Void)?

  public init(catalog: FontCatalog, settings: EncodeSettings = EncodeSettings()) {
    self.captions = CaptionRenderer(catalog: catalog)
    self.settings = settings
  }

  /// Renders what the editor holds; the recipe (captions, font, crop, original's SHA-256) is
  /// embedded so the file can be edited again, with the photo's colour profile. A JPEG of a
  /// JPEG photo is spliced into the photo's own data when it can be (`JPEGSplice`); a quality
  /// other than the default encodes the whole picture at that quality.
  public func render(_ state: EditorState, format: ImageFormat) throws -> Output {
    guard let picture = state.picture else {
      throw MediaError.noPicture
    }
    var settings = self.settings
    settings.recipe = EmbeddedRecipe(recipe: state.recipe, originalSHA256: picture.sha256)
    var refusal: JPEGSplice.Refusal?
    if format == .jpeg, let recipe = settings.recipe {
      let splice =
        settings.quality == EncodeSettings().quality
        ? try spliced(state, picture: picture, recipe: recipe) : .failure(.explicitQuality)
      switch splice {
      case .success(let output): return output
      case .failure(let why): refusal = why
      }
    }
    // The photo's colour profile rides along (read from the original's header, ~0.1 ms).
    settings.iccProfile = ImageCodec.iccProfile(of: try picture.originalBytes)
    // A decoded JPEG is opaque, and captions drawn on opaque pixels keep it so: no need to
    // look at 12 million alpha bytes.
    var output = try render(
      picture.image, boxes: state.recipe.boxes, font: state.recipe.font, crop: state.recipe.crop,
      format: format, settings: settings,
      isOpaque: ImageCodec.isAlwaysOpaque(picture.format) ? true : nil)
    if let refusal, refusal != .notJPEG { output.report.explanation += "\n" + refusal.explanation }
    return output
  }

  /// Renders MemeMe's two captions (see `render(_:boxes:font:crop:format:settings:isOpaque:)`).
  public func render(
    _ image: RGBAImage, top: String, bottom: String, font: String, crop: Crop = .off,
    format: ImageFormat, settings: EncodeSettings? = nil, isOpaque: Bool? = nil
  ) throws -> Output {
    try render(
      image, boxes: CaptionRenderer.boxes(top: top, bottom: bottom), font: font, crop: crop,
      format: format, settings: settings, isOpaque: isOpaque)
  }

  /// Crops `image`, draws the text boxes (`font` for those without their own), encodes as
  /// `format` and makes the thumbnail (on a second thread while the meme is encoded).
  /// `isOpaque` says whether every pixel of `image` is opaque, when the caller knows.
  public func render(
    _ image: RGBAImage, boxes: [TextBox], font: String, crop: Crop = .off,
    format: ImageFormat, settings: EncodeSettings? = nil, isOpaque: Bool? = nil
  ) throws -> Output {
    let settings = settings ?? self.settings
    let rect = try crop.resolved(in: image.size)
    guard rect.width > 0, rect.height > 0 else {
      throw MediaError.emptyPicture
    }
    // The libraries' own words for this (libjpeg's "Maximum supported image dimension is 65500
    // pixels") say nothing of the way out.
    if let limit = format.maxDimension, max(rect.width, rect.height) > limit {
      throw MediaError.tooLarge(format: format, size: rect.size, limit: limit, animated: false)
    }
    let (canvases, report) = try captions.canvases(
      boxes: boxes, font: font, imageSize: rect.size)
    let thumbnailSize = ImageOps.fittedSize(
      of: rect.size, toFit: MemeRenderer.thumbnailDimension, MemeRenderer.thumbnailDimension)
    let thumbnailCount = thumbnailSize.width * thumbnailSize.height * 4
    let (data, thumbnailPixels) = try MemeRenderer.withRows(
      of: image, in: rect, captions: canvases, isOpaque: isOpaque
    ) { rows in
      // Each task only reads the rows; the thumbnail task writes its own buffer.
      nonisolated(unsafe) let rows = rows
      let results = EncodeResults()
      let thumbnail = [UInt8](unsafeUninitializedCapacity: thumbnailCount) { buffer, count in
        nonisolated(unsafe) let buffer = buffer
        DispatchQueue.concurrentPerform(iterations: 2) { task in
          if task == 0 {
            results.encoded = Result {
              try ImageCodec.encode(rows: rows, as: format, settings: settings)
            }
          } else if thumbnailCount > 0 {
            memesh_downscale_rows(
              rows, UInt32(thumbnailSize.width), UInt32(thumbnailSize.height), buffer.baseAddress)
          }
        }
        count = thumbnailCount
      }
      return (try results.data(), thumbnail)
    }
    let thumbnailImage = RGBAImage(
      width: thumbnailSize.width, height: thumbnailSize.height, pixels: thumbnailPixels)
    // The recipe rides in the thumbnail too, like in the meme.
    let thumbnail = try ImageCodec.encode(
      thumbnailImage, as: .png, settings: EncodeSettings(recipe: settings.recipe))
    return Output(
      data: data, format: format, size: rect.size, thumbnail: thumbnail,
      thumbnailSize: thumbnailSize, report: report)
  }

  // MARK: - Rows

  /// Calls `body` with the meme as row pointers into the photo (offset by the crop), with the
  /// captions as an overlay that each reader (encoder threads, thumbnail) draws into its own
  /// scratch row: the photo is never copied, and the caption work is spread over the threads.
  static func withRows<Result>(
    of image: RGBAImage, in rect: PixelRect, captions: [CaptionCanvas], isOpaque: Bool?,
    _ body: (UnsafePointer<memesh_rows>) throws -> Result
  ) throws -> Result {
    try image.pixels.withUnsafeBufferPointer { photo in
      guard let photoBase = photo.baseAddress else {
        throw MediaError.emptyPicture
      }
      let rows = (0..<rect.height).map { row -> UnsafePointer<UInt8>? in
        photoBase + ((rect.y + row) * image.width + rect.x) * 4
      }
      return try CaptionCanvas.withOverlay(captions) { overlay in
        try rows.withUnsafeBufferPointer { pointers in
          // Captions drawn on opaque pixels keep them opaque, so a known answer stands.
          var meme = memesh_rows(
            rows: pointers.baseAddress, width: UInt32(rect.width), height: UInt32(rect.height),
            opaque: isOpaque.map { $0 ? 1 : 0 } ?? -1, overlay: overlay)
          // Looked up once here rather than by each consumer (encoder, thumbnail).
          meme.opaque = memesh_rows_opaque(&meme)
          return try body(&meme)
        }
      }
    }
  }
}

/// The encoder's result, handed from its task to the renderer (each written once, read after
/// the tasks are done).
private final class EncodeResults: @unchecked Sendable {
  var encoded: Result<Data, any Error>?

  func data() throws -> Data {
    guard let encoded else { throw MediaError.encoderDidNotRun }
    return try encoded.get()
  }
}
