/// A rectangle in displayed pixels (after EXIF orientation), origin at the top left.
public struct PixelRect: Sendable, Equatable, Hashable, Codable, CustomStringConvertible {
  public var x: Int
  public var y: Int
  public var width: Int
  public var height: Int

  public init(x: Int, y: Int, width: Int, height: Int) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }

  public var size: PixelSize { PixelSize(width: width, height: height) }
  public var description: String { "\(x) \(y) \(width) \(height)" }
}

/// How the picture is cropped before captions are drawn.
///
/// Stored and printed as text: `off`, `X Y W H` or `W:H`.
public enum Crop: Sendable, Equatable, Hashable, CustomStringConvertible {
  case off
  /// A rectangle in displayed pixels.
  case rect(PixelRect)
  /// The largest centered rectangle of this aspect ratio.
  case aspect(width: Int, height: Int)

  public var description: String {
    switch self {
    case .off: "off"
    case .rect(let rect): rect.description
    case .aspect(let width, let height): "\(width):\(height)"
    }
  }

  /// Parses the words after `crop`: `off`, `W:H`, or `X Y W H`. Sizes are not checked against
  /// an image here (see `resolved(in:)`).
  public init(words: [String]) throws(CropError) {
    if words.count == 1, words[0].lowercased() == "off" || words[0].lowercased() == "none" {
      self = .off
      return
    }
    if words.count == 1 {
      let parts = words[0].split(separator: ":", omittingEmptySubsequences: false)
      guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
        width > 0, height > 0, width <= 100_000, height <= 100_000
      else {
        throw .notAnAspectRatio(words[0])
      }
      self = .aspect(width: width, height: height)
      return
    }
    guard words.count == 4 else { throw .wrongCount }
    var numbers: [Int] = []
    for word in words {
      guard let number = Int(word), number >= 0 else {
        throw .notAWholeNumber(word)
      }
      numbers.append(number)
    }
    guard numbers[2] > 0, numbers[3] > 0 else {
      throw .empty
    }
    self = .rect(PixelRect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3]))
  }

  /// Parses the stored form (`description`).
  public init?(stored: String) {
    let words = stored.split(separator: " ").map(String.init)
    guard let crop = try? Crop(words: words) else { return nil }
    self = crop
  }

  /// The rectangle this crop takes from an image of `size`, or an error when it does not fit.
  public func resolved(in size: PixelSize) throws(CropError) -> PixelRect {
    switch self {
    case .off:
      return PixelRect(x: 0, y: 0, width: size.width, height: size.height)
    case .rect(let rect):
      // Subtraction, not `x + width`: numbers near Int.max must not trap.
      guard rect.x >= 0, rect.y >= 0, rect.width > 0, rect.height > 0,
        rect.width <= size.width, rect.height <= size.height,
        rect.x <= size.width - rect.width, rect.y <= size.height - rect.height
      else {
        throw .doesNotFit(rect, picture: size)
      }
      return rect
    case .aspect(let aspectWidth, let aspectHeight):
      // Widest rectangle of that ratio that fits, centered; at least 1×1.
      var width = size.width
      var height = Int((Double(width) * Double(aspectHeight) / Double(aspectWidth)).rounded())
      if height > size.height {
        height = size.height
        width = Int((Double(height) * Double(aspectWidth) / Double(aspectHeight)).rounded())
      }
      width = max(1, min(width, size.width))
      height = max(1, min(height, size.height))
      return PixelRect(
        x: (size.width - width) / 2, y: (size.height - height) / 2, width: width, height: height)
    }
  }
}

extension Crop {
  /// The largest number a crop holds, with room to spare over any picture.
  public static let maximumSide = 1_000_000

  /// Whether every number lies in what a picture can have (offsets 0 to `maximumSide`, sides
  /// 1 to `maximumSide`): a crop read from a file that is not is damage.
  public var isWithinLimits: Bool {
    let sides = 1...Self.maximumSide
    switch self {
    case .off: return true
    case .rect(let rect):
      return (0...Self.maximumSide).contains(rect.x) && (0...Self.maximumSide).contains(rect.y)
        && sides.contains(rect.width) && sides.contains(rect.height)
    case .aspect(let width, let height):
      return sides.contains(width) && sides.contains(height)
    }
  }
}

extension Crop: Codable {
  public init(from decoder: any Decoder) throws {
    let text = try decoder.singleValueContainer().decode(String.self)
    guard let crop = Crop(stored: text) else {
      throw DecodingError.dataCorrupted(
        .init(codingPath: decoder.codingPath, debugDescription: "not a crop: '\(text)'"))
    }
    self = crop
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }
}

/// What is wrong with a crop, as data; worded in `message` only.
public enum CropError: UserFacingError, Equatable {
  /// One word that is neither `off` nor a ratio like `16:9`.
  case notAnAspectRatio(String)
  /// Neither 1 nor 4 words.
  case wrongCount
  /// A word of `X Y W H` that is not a whole number of pixels.
  case notAWholeNumber(String)
  /// A width or height of 0.
  case empty
  /// A rectangle that does not lie inside the picture.
  case doesNotFit(PixelRect, picture: PixelSize)

  static let usage = "usage: crop X Y W H | crop W:H | crop off"

  public var message: String {
    switch self {
    case .notAnAspectRatio(let word):
      "crop: '\(word)' is not an aspect ratio like 16:9 (\(Self.usage))"
    case .wrongCount:
      "crop: expected 1 or 4 values (\(Self.usage))"
    case .notAWholeNumber(let word):
      "crop: '\(word)' is not a whole number of pixels (\(Self.usage))"
    case .empty:
      "crop: width and height must be at least 1 pixel"
    case .doesNotFit(let rect, let picture):
      "crop: \(rect.width)×\(rect.height) at \(rect.x),\(rect.y) does not fit in the "
        + "\(picture.width)×\(picture.height) picture"
    }
  }
}
