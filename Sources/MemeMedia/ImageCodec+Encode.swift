import CMemeshCodec
import Foundation
import MemeCore

/// How a picture is written: one value for every format, each encoder reading what it uses.
public struct EncodeSettings: Sendable, Equatable {
  /// How PNG pixels are compressed. `PNGCompression.standard` is the measured default.
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

    /// zlib level 1, the Up filter, two threads, run-length matching: the choice measured in
    /// README's speed section (a 12-MP PNG meme in about 0.6 s, 90 % of libpng's default size,
    /// while staying under 2.5× the decoded picture in memory). `strategy: 0` gives files a
    /// fifth smaller for about 110 ms more on 12 MP.
    public static let standard = PNGCompression(
      useLibdeflate: false, level: 1, filter: 2, threads: 2, strategy: 3)
  }

  /// JPEG and lossy WebP quality, 1–100.
  public var quality: Int
  /// WebP: lossless instead of lossy (sharp text, flat colours).
  public var lossless: Bool
  /// WebP: libwebp's effort, 0 (fastest) to 6 (smallest).
  public var effort: Int
  public var png: PNGCompression
  /// Embedded so `load` can edit the meme again: a PNG iTXt chunk, a JPEG COM segment, a WebP
  /// XMP packet, each under `MEMESH_RECIPE_KEYWORD`.
  public var recipe: EmbeddedRecipe?
  /// The photo's RGB colour profile (ICC), embedded so viewers show the photo's colours.
  public var iccProfile: Data?

  public init(
    quality: Int = 90, lossless: Bool = false, effort: Int = 2,
    png: PNGCompression = .standard, recipe: EmbeddedRecipe? = nil, iccProfile: Data? = nil
  ) {
    self.quality = quality
    self.lossless = lossless
    self.effort = effort
    self.png = png
    self.recipe = recipe
    self.iccProfile = iccProfile
  }

  /// Calls `body` with these settings as the C encoders take them (valid during the call).
  func withC<Result>(
    _ body: (UnsafePointer<memesh_encode_settings>) throws -> Result
  ) rethrows -> Result {
    let recipeText = recipe?.encoded()
    let xmp = recipeText.map(RecipeXMP.packet(for:))
    let icc = [UInt8](iccProfile ?? Data())
    return try withOptionalCString(recipeText) { recipe in
      try withOptionalCString(xmp) { xmp in
        try icc.withUnsafeBufferPointer { icc in
          var settings = memesh_encode_settings(
            quality: Int32(min(100, max(1, quality))), lossless: lossless ? 1 : 0,
            effort: Int32(min(6, max(0, effort))),
            png: memesh_png_compression(
              use_libdeflate: png.useLibdeflate ? 1 : 0, level: Int32(png.level),
              filter: Int32(png.filter), threads: Int32(png.threads),
              strategy: Int32(png.strategy)),
            recipe: recipe, recipe_xmp: xmp, icc: icc.isEmpty ? nil : icc.baseAddress,
            icc_size: icc.count)
          return try body(&settings)
        }
      }
    }
  }

  private func withOptionalCString<Result>(
    _ text: String?, _ body: (UnsafePointer<CChar>?) throws -> Result
  ) rethrows -> Result {
    guard let text else { return try body(nil) }
    return try text.withCString { try body($0) }
  }
}

extension ImageCodec {
  /// Encodes a whole picture (a thumbnail, a test's image) through the same row encoder a meme
  /// goes through.
  public static func encode(
    _ image: RGBAImage, as format: ImageFormat, settings: EncodeSettings = EncodeSettings()
  ) throws -> Data {
    guard image.width > 0, image.height > 0 else {
      throw MediaError.emptyEncode
    }
    return try image.pixels.withUnsafeBufferPointer { pixels in
      guard let base = pixels.baseAddress else {
        throw MediaError.emptyEncode
      }
      let rows = (0..<image.height).map { row -> UnsafePointer<UInt8>? in
        base + row * image.width * 4
      }
      return try rows.withUnsafeBufferPointer { pointers in
        var whole = memesh_rows(
          rows: pointers.baseAddress, width: UInt32(image.width), height: UInt32(image.height),
          opaque: -1, overlay: nil)
        whole.opaque = memesh_rows_opaque(&whole)
        return try encode(rows: &whole, as: format, settings: settings)
      }
    }
  }

  /// Encodes `rows` (with their captions drawn) with `format`'s encoder.
  static func encode(
    rows: UnsafePointer<memesh_rows>, as format: ImageFormat, settings: EncodeSettings
  ) throws(MediaError) -> Data {
    // GIF is written frame by frame (GIFWriter); a still picture is one frame.
    if format == .gif {
      do {
        try SharedLibrary.load([.gif])
      } catch {
        throw .cannotEncode(format: .gif, .libraryMissing(error))
      }
      return try GIFWriter.still(rows: rows, settings: settings)
    }
    guard let adapter = adapter(for: format), let encoder = adapter.encoder else {
      throw .cannotEncode(format: format, .notWritten)
    }
    do {
      try SharedLibrary.load(adapter.libraries)
    } catch {
      throw .cannotEncode(format: format, .libraryMissing(error))
    }
    var out: UnsafeMutablePointer<UInt8>?
    var size = 0
    var message = [CChar](repeating: 0, count: 256)
    let status = settings.withC { settings in
      message.withUnsafeMutableBufferPointer { buffer in
        guard let base = buffer.baseAddress else { return Int32(MEMESH_ERROR) }
        return encoder(rows, settings, &out, &size, base, buffer.count)
      }
    }
    guard status == Int32(MEMESH_OK), let out else {
      let reason = String(
        decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      throw .cannotEncode(format: format, .library(reason: userWording(reason)))
    }
    return Data(bytesNoCopy: out, count: size, deallocator: .free)
  }
}
