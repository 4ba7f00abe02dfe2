import Foundation
import MemeCore

/// Limits that keep hostile files from eating memory or time.
public struct DecodeLimits: Sendable, Equatable {
  /// Largest width × height accepted (decompression bombs are refused before allocation).
  public var maxPixels: Int
  /// Largest number of progressive JPEG scans accepted (encoders write about 10). The shim
  /// also stops at 1.6 billion scan-pixels, so a big picture is allowed fewer.
  public var maxJPEGScans: Int

  /// The value of `MEMESH_MAX_MEGAPIXELS` when it was set but not a whole number of megapixels
  /// in `megapixelRange` (the cap error then says so instead of how to raise the cap).
  public var ignoredSetting: String?

  /// The environment variable that raises (or lowers) the pixel cap, in megapixels.
  public static let megapixelsVariable = "MEMESH_MAX_MEGAPIXELS"
  /// What `MEMESH_MAX_MEGAPIXELS` may ask for: up to 4,000 MP (16 GB of decoded pixels).
  public static let megapixelRange = 1...4000

  /// Longest time a decode may take before it stops, checked where decoders work in steps
  /// (a grid's tiles, libpng's and libjpeg's reading); a 12-MP photo takes well under a second.
  public var maxDecodeSeconds: Double
  /// The value of `MEMESH_MAX_DECODE_SECONDS` when it was set but not a number of seconds in
  /// `secondsRange` (the time-limit error then says so).
  public var ignoredSecondsSetting: String?

  /// The environment variable that changes the time limit, in seconds.
  public static let secondsVariable = "MEMESH_MAX_DECODE_SECONDS"
  /// What `MEMESH_MAX_DECODE_SECONDS` may ask for.
  public static let secondsRange = 0.001...3600.0
  /// The time limit unless `MEMESH_MAX_DECODE_SECONDS` says otherwise.
  public static let defaultDecodeSeconds = 20.0

  public init(
    maxPixels: Int = 100_000_000, maxJPEGScans: Int = 100,
    maxDecodeSeconds: Double = DecodeLimits.defaultDecodeSeconds
  ) {
    self.maxPixels = maxPixels
    self.maxJPEGScans = maxJPEGScans
    self.maxDecodeSeconds = maxDecodeSeconds
  }

  /// The default limits, with the pixel cap from `MEMESH_MAX_MEGAPIXELS` when `setting` (its
  /// value, nil when unset) is a whole number of megapixels in `megapixelRange`, and the time
  /// limit from `MEMESH_MAX_DECODE_SECONDS` when `secondsSetting` is a number in `secondsRange`.
  public init(megapixelSetting setting: String?, secondsSetting: String? = nil) {
    self.init()
    if let secondsSetting {
      if let seconds = DecodeLimits.seconds(secondsSetting) {
        maxDecodeSeconds = seconds
      } else {
        ignoredSecondsSetting = secondsSetting
      }
    }
    guard let setting else { return }
    let trimmed = setting.trimmingCharacters(in: .whitespaces)
    if let megapixels = Int(trimmed), DecodeLimits.megapixelRange.contains(megapixels) {
      maxPixels = megapixels * 1_000_000
    } else {
      ignoredSetting = setting
    }
  }

  /// `setting` as a number of seconds in `secondsRange` ("20", "0.5"), or nil.
  public static func seconds(_ setting: String) -> Double? {
    let trimmed = setting.trimmingCharacters(in: .whitespaces)
    guard !trimmed.isEmpty, trimmed.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
      let seconds = Double(trimmed), secondsRange.contains(seconds)
    else { return nil }
    return seconds
  }

  /// What every load uses: 100 megapixels and 20 seconds unless `MEMESH_MAX_MEGAPIXELS` and
  /// `MEMESH_MAX_DECODE_SECONDS` say otherwise (read once, at the first load, so start-up does
  /// not pay for it).
  public static let `default` = DecodeLimits(
    megapixelSetting: getenv(megapixelsVariable).map { String(cString: $0) },
    secondsSetting: getenv(secondsVariable).map { String(cString: $0) })

  /// What the cap error adds: how to raise the cap, or why the setting was not used.
  var capHint: String {
    guard let ignoredSetting else {
      return "set \(DecodeLimits.megapixelsVariable) to allow more"
    }
    let range = DecodeLimits.megapixelRange
    return "\(DecodeLimits.megapixelsVariable)='\(ImageCodec.displayName(ignoredSetting))' was "
      + "ignored: not a whole number of megapixels from \(range.lowerBound) to \(range.upperBound)"
  }
}

/// A decoded picture, upright.
public struct DecodedImage: Sendable {
  public var image: RGBAImage
  public var format: ImageFormat
  /// EXIF orientation found (1 when none), already applied to `image`.
  public var orientation: Int
  /// Non-fatal problems the user should see (a truncated JPEG).
  public var warnings: [String]
  /// The memesh recipe embedded in the file, when memesh wrote it.
  public var recipe: RecipeReading?

  public init(
    image: RGBAImage, format: ImageFormat, orientation: Int = 1, warnings: [String] = [],
    recipe: RecipeReading? = nil
  ) {
    self.image = image
    self.format = format
    self.orientation = orientation
    self.warnings = warnings
    self.recipe = recipe
  }
}

/// Decoding and encoding pictures, one adapter per format (`ImageCodec.adapters`): PNG and
/// JPEG through libpng and libjpeg-turbo (CMemeshCodec), WebP through libwebp, GIF through
/// giflib.
public enum ImageCodec {
  /// Decodes a picture to upright RGBA, its format judged by content. `name` is used in error
  /// messages.
  public static func decode(
    _ data: Data, name: String, limits: DecodeLimits = .default
  ) throws -> DecodedImage {
    try decode(data, name: name, limits: limits, watch: nil)
  }

  /// `decode(_:name:limits:)`, followed from another thread by `watch`.
  static func decode(
    _ data: Data, name: String, limits: DecodeLimits, watch: DecodeWatch?
  ) throws -> DecodedImage {
    let format = try format(of: data, name: name)
    let raw = try decodeRaw(data, format: format, name: name, limits: limits, watch: watch)
    return DecodedImage(
      image: ImageOps.oriented(raw.image, orientation: raw.orientation), format: format,
      orientation: raw.orientation, warnings: raw.warnings, recipe: raw.recipe)
  }

  /// The RGB colour profile (ICC) embedded in a picture, read from the header alone; nil when
  /// there is none, when it is not a whole RGB profile, or when the header is unreadable.
  public static func iccProfile(of data: Data) -> Data? {
    guard let format = sniff(data), let adapter = adapter(for: format),
      (try? SharedLibrary.load(adapter.libraries)) != nil
    else { return nil }
    return data.withUnsafeBytes { bytes in
      (try? adapter.open(bytes, limits: .default))?.iccProfile
    }
  }

  /// The displayed size (EXIF orientation applied) from the header alone, decoding no pixels;
  /// nil when the header cannot be read (a decode then says why).
  public static func displayedSize(of data: Data) -> PixelSize? {
    guard let format = sniff(data), let adapter = adapter(for: format),
      (try? SharedLibrary.load(adapter.libraries)) != nil
    else { return nil }
    return data.withUnsafeBytes { bytes -> PixelSize? in
      guard let decoder = try? adapter.open(bytes, limits: .default) else { return nil }
      let size = decoder.size
      // Orientations 5 to 8 turn the picture a quarter: width and height trade places.
      return (5...8).contains(decoder.orientation)
        ? PixelSize(width: size.height, height: size.width) : size
    }
  }

  /// A small upright copy whose longest side is at most about `maxDimension`, using libjpeg's
  /// DCT scaling where possible (much faster than decoding fully and scaling).
  public static func decodeProxy(
    _ data: Data, name: String, maxDimension: Int, limits: DecodeLimits = .default
  ) throws -> RGBAImage {
    let format = try format(of: data, name: name)
    let limit = max(1, maxDimension)
    let raw = try decodeRaw(data, format: format, name: name, limits: limits) { size in
      // The largest DCT reduction (1/8, 1/4, 1/2) that still leaves at least `limit` pixels on
      // the longest side; the area average below does the rest, so quality stays up.
      let longest = max(size.width, size.height)
      return [8, 4, 2].first { (longest + $0 - 1) / $0 >= limit } ?? 1
    }
    let upright = ImageOps.oriented(raw.image, orientation: raw.orientation)
    return ImageOps.scaled(upright, toFit: limit, limit)
  }
}
