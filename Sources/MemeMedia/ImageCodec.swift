import Foundation
import MemeCore

/// Limits that keep hostile files from eating memory or time.
public struct DecodeLimits: Sendable, Equatable {
  /// Largest width × height accepted (decompression bombs are refused before allocation).
  public var maxPixels: Int
  /// Largest number of progressive JPEG scans accepted.
  public var maxJPEGScans: Int

  public init(maxPixels: Int = 100_000_000, maxJPEGScans: Int = 1_000) {
    self.maxPixels = maxPixels
    self.maxJPEGScans = maxJPEGScans
  }

  public static let `default` = DecodeLimits()
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
  public var recipe: MemeRecipe?

  public init(
    image: RGBAImage, format: ImageFormat, orientation: Int = 1, warnings: [String] = [],
    recipe: MemeRecipe? = nil
  ) {
    self.image = image
    self.format = format
    self.orientation = orientation
    self.warnings = warnings
    self.recipe = recipe
  }
}

/// Options for writing an image.
public struct EncodeOptions: Sendable, Equatable {
  /// JPEG quality 1–100.
  public var jpegQuality: Int
  /// Embedded as a PNG iTXt chunk or a JPEG COM segment.
  public var recipe: MemeRecipe?

  public init(jpegQuality: Int = 90, recipe: MemeRecipe? = nil) {
    self.jpegQuality = jpegQuality
    self.recipe = recipe
  }
}

/// Decoding and encoding PNG and JPEG (libpng, libjpeg-turbo through CMemeshShim).
public enum ImageCodec {
  /// Decodes PNG or JPEG bytes to upright RGBA. `name` is used in error messages.
  public static func decode(
    _ data: Data, name: String, limits: DecodeLimits = .default
  ) throws -> DecodedImage {
    throw MemeError("cannot load '\(name)': decoding is not implemented yet")
  }

  /// A small upright copy whose longest side is at most about `maxDimension`, using libjpeg's
  /// DCT scaling where possible (much faster than decoding fully and scaling).
  public static func decodeProxy(
    _ data: Data, name: String, maxDimension: Int, limits: DecodeLimits = .default
  ) throws -> RGBAImage {
    throw MemeError("cannot load '\(name)': decoding is not implemented yet")
  }

  /// Encodes as PNG (RGB when opaque) or JPEG.
  public static func encode(
    _ image: RGBAImage, as format: ImageFormat, options: EncodeOptions = EncodeOptions()
  ) throws -> Data {
    throw MemeError("cannot encode: not implemented yet")
  }
}

/// Cropping and scaling RGBA images.
public enum ImageOps {
  /// The pixels inside `rect` (which must lie inside the image).
  public static func crop(_ image: RGBAImage, to rect: PixelRect) -> RGBAImage {
    guard rect != PixelRect(x: 0, y: 0, width: image.width, height: image.height) else {
      return image
    }
    var pixels = [UInt8](repeating: 0, count: rect.width * rect.height * 4)
    let rowBytes = rect.width * 4
    image.pixels.withUnsafeBufferPointer { source in
      pixels.withUnsafeMutableBufferPointer { target in
        for row in 0..<rect.height {
          let from = ((rect.y + row) * image.width + rect.x) * 4
          let into = row * rowBytes
          for index in 0..<rowBytes { target[into + index] = source[from + index] }
        }
      }
    }
    return RGBAImage(width: rect.width, height: rect.height, pixels: pixels)
  }

  /// A good-looking downscale (area average) to fit inside `maxWidth`×`maxHeight`, keeping the
  /// aspect ratio; never upscales.
  public static func scaled(_ image: RGBAImage, toFit maxWidth: Int, _ maxHeight: Int) -> RGBAImage
  {
    image
  }
}
