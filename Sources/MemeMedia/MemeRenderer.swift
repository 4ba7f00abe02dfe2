import CMemeshShim
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

  /// How PNG pixels are compressed. `MemeRenderer.pngCompression` is the measured default.
  public struct PNGCompression: Sendable, Equatable {
    /// libdeflate over the whole image at once, or zlib streamed (split over `threads`).
    public var useLibdeflate: Bool
    /// zlib 0–9 or libdeflate 0–12.
    public var level: Int
    /// 0 None, 1 Sub, 2 Up, 3 Average, 4 Paeth, 5 per row the best of Sub/Up/Paeth.
    public var filter: Int
    /// 1 or 2.
    public var threads: Int
    /// zlib strategy: 0 default, 1 filtered, 2 Huffman only, 3 RLE (libdeflate ignores it).
    public var strategy: Int

    public init(useLibdeflate: Bool, level: Int, filter: Int, threads: Int, strategy: Int = 0) {
      self.useLibdeflate = useLibdeflate
      self.level = level
      self.filter = filter
      self.threads = threads
      self.strategy = strategy
    }
  }

  /// The longest side of a thumbnail.
  public static let thumbnailDimension = 256

  /// The PNG settings chosen by measurement: the 12-MP bench photo as a meme, render only
  /// (memesh-render-bench --png METHOD:LEVEL:FILTER:THREADS), medians of 3, machine quiet:
  ///
  ///     zlib 1, Up, 2 threads (pigz-style)  326 ms  16.33 MB  peak 115 MB   ← chosen
  ///     zlib 2, Up, 2 threads               357 ms  16.28 MB  peak 115 MB
  ///     zlib 1, Paeth, 2 threads            398 ms  16.56 MB
  ///     libdeflate 1, Up (2 filter threads)  374 ms  17.22 MB  peak 142 MB (needs every
  ///                                                             filtered row at once: +36 MB)
  ///     zlib 6, Up, 2 threads               955 ms  16.37 MB  (the size reference)
  ///     libpng + zlib 6, adaptive filters  3426 ms  22.02 MB  (bench/floor.c)
  ///
  /// Under heavy load from other processes libdeflate's single thread was faster (its total CPU
  /// is lower), but zlib streams rows straight from the picture, so a 12-MP PNG share stays
  /// under 2.5× the decoded picture.
  ///
  /// 2026-11-25 08:26 UTC, whole render-bench run (decode + captions + PNG), 3 interleaved
  /// runs, machine shared: zlib 1 Up default strategy 728–738 ms 16.33 MB; with Z_RLE (strategy
  /// 3) 599–631 ms, 19.81 MB (Paeth + RLE 18.18 MB but 796 ms; Sub + RLE 20.14 MB). Issue 8's
  /// size budget is 15 % over "zlib level 6" as the floor makes it (libpng defaults, 22.02 MB):
  /// Z_RLE's 19.81 MB is 90 % of that. Against zlib 6 with our Up filter (16.37 MB) it is
  /// 121 %; set `strategy: 0` to get back to 16.3 MB for about 110 ms more on 12 MP.
  public static let pngCompression = PNGCompression(
    useLibdeflate: false, level: 1, filter: 2, threads: 2, strategy: 3)

  public var captions: CaptionRenderer
  public var pngCompression: PNGCompression

  public init(catalog: FontCatalog, pngCompression: PNGCompression = MemeRenderer.pngCompression) {
    self.captions = CaptionRenderer(catalog: catalog)
    self.pngCompression = pngCompression
  }

  /// The longest side libjpeg writes (JPEG_MAX_DIMENSION).
  public static let jpegMaxDimension = 65500

  /// Renders what the editor holds; the recipe (captions, font, crop, original's SHA-256) is
  /// embedded so the file can be edited again. A JPEG of a JPEG photo is spliced into the
  /// photo's own data when it can be (`JPEGSplice`); an explicit `jpegQuality` (default 90)
  /// encodes the whole picture at that quality.
  public func render(_ state: EditorState, format: ImageFormat, jpegQuality: Int? = nil) throws
    -> Output
  {
    guard let picture = state.picture else {
      throw MemeError("cannot render: no picture loaded (try 'load FILE')")
    }
    let recipe = MemeRecipe(
      top: state.top, bottom: state.bottom, font: state.font, crop: state.crop,
      originalSHA256: picture.sha256)
    var refusal: JPEGSplice.Refusal?
    if format == .jpeg {
      let splice =
        jpegQuality == nil
        ? try spliced(state, picture: picture, recipe: recipe) : .failure(.explicitQuality)
      switch splice {
      case .success(let output): return output
      case .failure(let why): refusal = why
      }
    }
    // The photo's colour profile rides along (read from the original's header, ~0.1 ms).
    let options = EncodeOptions(
      jpegQuality: jpegQuality ?? 90, recipe: recipe,
      iccProfile: ImageCodec.iccProfile(of: try picture.originalBytes))
    // A decoded JPEG is opaque, and captions drawn on opaque pixels keep it so: no need to
    // look at 12 million alpha bytes.
    var output = try render(
      picture.image, top: state.top, bottom: state.bottom, font: state.font, crop: state.crop,
      format: format, options: options,
      isOpaque: picture.format == .jpeg ? true : nil)
    if let refusal, refusal != .notJPEG { output.report.explanation += "\n" + refusal.explanation }
    return output
  }

  /// Crops `image`, draws the captions, encodes as `format` and makes the thumbnail.
  /// `isOpaque` says whether every pixel of `image` is opaque, when the caller knows.
  public func render(
    _ image: RGBAImage, top: String, bottom: String, font: String, crop: Crop = .off,
    format: ImageFormat, options: EncodeOptions = EncodeOptions(), isOpaque: Bool? = nil
  ) throws -> Output {
    let rect = try crop.resolved(in: image.size)
    guard rect.width > 0, rect.height > 0 else {
      throw MemeError("cannot render: the picture is empty")
    }
    // libjpeg's own words for this ("Maximum supported image dimension is 65500 pixels") say
    // nothing of the way out.
    if format == .jpeg, max(rect.width, rect.height) > MemeRenderer.jpegMaxDimension {
      throw MemeError(
        "cannot write a JPEG of \(rect.width)×\(rect.height) pixels: a JPEG is at most "
          + "\(MemeRenderer.jpegMaxDimension) pixels on a side; PNG has no such limit")
    }
    let (canvases, report) = try captions.canvases(
      for: rect.size, top: top, bottom: bottom, font: font)
    let thumbnailSize = ImageOps.fittedSize(
      of: rect.size, toFit: MemeRenderer.thumbnailDimension, MemeRenderer.thumbnailDimension)
    var thumbnailPixels = [UInt8](
      repeating: 0, count: thumbnailSize.width * thumbnailSize.height * 4)
    let recipe = options.recipe?.encoded()
    let settings = memesh_png_options(
      use_libdeflate: pngCompression.useLibdeflate ? 1 : 0, level: Int32(pngCompression.level),
      filter: Int32(pngCompression.filter), threads: Int32(pngCompression.threads),
      strategy: Int32(pngCompression.strategy))
    let icc = [UInt8](options.iccProfile ?? Data())
    let data = try MemeRenderer.withRows(
      of: image, in: rect, captions: canvases, isOpaque: isOpaque
    ) { rows in
      try thumbnailPixels.withUnsafeMutableBufferPointer { thumbnail in
        try MemeRenderer.withOptionalCString(recipe) { recipe in
          try icc.withUnsafeBufferPointer { icc in
            let keepAlpha: Int32 = format == .png && memesh_rows_opaque(rows) == 0 ? 1 : 0
            var request = memesh_render_request(
              png: format == .png ? 1 : 0,
              jpeg_quality: Int32(min(100, max(1, options.jpegQuality))), keep_alpha: keepAlpha,
              png_options: settings, recipe: recipe, icc: icc.baseAddress, icc_size: icc.count,
              thumbnail_width: UInt32(thumbnailSize.width),
              thumbnail_height: UInt32(thumbnailSize.height), thumbnail: thumbnail.baseAddress)
            return try MemeRenderer.encoded(format) { out, size, message, messageSize in
              memesh_render_rows(rows, &request, out, size, message, messageSize)
            }
          }
        }
      }
    }
    let thumbnailImage = RGBAImage(
      width: thumbnailSize.width, height: thumbnailSize.height, pixels: thumbnailPixels)
    // The recipe rides in the thumbnail too, like in the meme.
    let thumbnail = try ImageCodec.encode(
      thumbnailImage, as: .png, options: EncodeOptions(recipe: options.recipe))
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
        throw MemeError("cannot render: the picture is empty")
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

  // MARK: - C calls

  /// Runs one shim encoder and hands its malloc'd buffer to `Data` without copying.
  static func encoded(
    _ format: ImageFormat,
    _ body: (
      UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, UnsafeMutablePointer<Int>,
      UnsafeMutablePointer<CChar>, Int
    ) -> Int32
  ) throws -> Data {
    var out: UnsafeMutablePointer<UInt8>?
    var size = 0
    var message = [CChar](repeating: 0, count: 256)
    let status = message.withUnsafeMutableBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return Int32(MEMESH_ERROR) }
      return body(&out, &size, base, buffer.count)
    }
    guard status == Int32(MEMESH_OK), let out else {
      let reason = String(
        decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      throw MemeError("cannot encode \(format.name): \(reason)")
    }
    return Data(bytesNoCopy: out, count: size, deallocator: .free)
  }

  static func withOptionalCString<Result>(
    _ text: String?, _ body: (UnsafePointer<CChar>?) throws -> Result
  ) rethrows -> Result {
    guard let text else { return try body(nil) }
    return try text.withCString { try body($0) }
  }
}
