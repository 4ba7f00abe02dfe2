/// An image as memesh works on it: 8-bit RGBA, rows top to bottom, no padding.
///
/// Pixels live in an `Array`, which is copy-on-write: an editor snapshot that keeps an image
/// costs a reference, not 48 MB.
public struct RGBAImage: Sendable, Equatable {
  public let width: Int
  public let height: Int
  /// `width * height * 4` bytes, R G B A.
  public var pixels: [UInt8]

  /// Wraps existing pixels; `pixels.count` must be `width * height * 4`.
  public init(width: Int, height: Int, pixels: [UInt8]) {
    precondition(width >= 0 && height >= 0 && pixels.count == width * height * 4)
    self.width = width
    self.height = height
    self.pixels = pixels
  }

  /// A new image filled with one color.
  public init(width: Int, height: Int, fill: RGBA = RGBA(0, 0, 0, 0)) {
    self.width = width
    self.height = height
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    if fill != RGBA(0, 0, 0, 0) {
      for index in stride(from: 0, to: pixels.count, by: 4) {
        pixels[index] = fill.r
        pixels[index + 1] = fill.g
        pixels[index + 2] = fill.b
        pixels[index + 3] = fill.a
      }
    }
    self.pixels = pixels
  }

  /// The size as a value.
  public var size: PixelSize { PixelSize(width: width, height: height) }

  /// The pixel at (x, y); (0, 0) is the top left.
  public subscript(x: Int, y: Int) -> RGBA {
    get {
      let index = (y * width + x) * 4
      return RGBA(pixels[index], pixels[index + 1], pixels[index + 2], pixels[index + 3])
    }
    set {
      let index = (y * width + x) * 4
      pixels[index] = newValue.r
      pixels[index + 1] = newValue.g
      pixels[index + 2] = newValue.b
      pixels[index + 3] = newValue.a
    }
  }

  /// True when every pixel is fully opaque (a PNG of it can drop the alpha channel).
  public var isOpaque: Bool {
    var index = 3
    while index < pixels.count {
      if pixels[index] != 255 { return false }
      index += 4
    }
    return true
  }
}

/// One 8-bit RGBA color.
public struct RGBA: Sendable, Equatable, Hashable, CustomStringConvertible {
  public var r: UInt8
  public var g: UInt8
  public var b: UInt8
  public var a: UInt8

  public init(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8 = 255) {
    self.r = r
    self.g = g
    self.b = b
    self.a = a
  }

  public var description: String { "rgba(\(r),\(g),\(b),\(a))" }
}

/// A width and a height in pixels.
public struct PixelSize: Sendable, Equatable, Hashable, Codable, CustomStringConvertible {
  public var width: Int
  public var height: Int

  public init(width: Int, height: Int) {
    self.width = width
    self.height = height
  }

  public var description: String { "\(width)×\(height)" }
}
