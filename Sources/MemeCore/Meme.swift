import Foundation

/// A sent meme as the store keeps it. File names are relative to the store's directory.
public struct Meme: Sendable, Equatable, Codable, Identifiable {
  /// Small, positive, never reused.
  public var id: Int
  public var top: String
  public var bottom: String
  public var font: String
  public var crop: Crop
  public var created: Date
  public var modified: Date
  /// Size of the rendered meme.
  public var width: Int
  public var height: Int
  /// Format of the rendered meme.
  public var format: ImageFormat
  /// The name of the file the picture was loaded from (display only).
  public var sourceName: String
  /// SHA-256 of the original bytes.
  public var originalSHA256: String
  /// Store-relative paths.
  public var originalFile: String
  public var memeFile: String
  public var thumbnailFile: String
  /// Why this meme cannot be shown or edited (a file missing, corrupt or outside the store), as
  /// one line; nil when it is whole. Computed by the store when it reads the meme, never saved.
  public var problem: String? = nil

  /// The keys saved in the store's index (`problem` is not one of them).
  enum CodingKeys: String, CodingKey {
    case id, top, bottom, font, crop, created, modified, width, height, format, sourceName
    case originalSHA256, originalFile, memeFile, thumbnailFile
  }

  public init(
    id: Int, top: String, bottom: String, font: String, crop: Crop, created: Date,
    modified: Date, width: Int, height: Int, format: ImageFormat, sourceName: String,
    originalSHA256: String, originalFile: String, memeFile: String, thumbnailFile: String
  ) {
    self.id = id
    self.top = top
    self.bottom = bottom
    self.font = font
    self.crop = crop
    self.created = created
    self.modified = modified
    self.width = width
    self.height = height
    self.format = format
    self.sourceName = sourceName
    self.originalSHA256 = originalSHA256
    self.originalFile = originalFile
    self.memeFile = memeFile
    self.thumbnailFile = thumbnailFile
  }

  public var recipe: MemeRecipe {
    MemeRecipe(top: top, bottom: bottom, font: font, crop: crop, originalSHA256: originalSHA256)
  }
}

/// What is embedded in every image memesh writes, so the meme can be edited again.
public struct MemeRecipe: Sendable, Equatable, Codable {
  public var top: String
  public var bottom: String
  public var font: String
  public var crop: Crop
  public var originalSHA256: String

  /// PNG iTXt keyword / JPEG COM prefix.
  public static let keyword = "memesh:recipe"

  public init(top: String, bottom: String, font: String, crop: Crop, originalSHA256: String) {
    self.top = top
    self.bottom = bottom
    self.font = font
    self.crop = crop
    self.originalSHA256 = originalSHA256
  }

  /// Compact JSON, UTF-8.
  public func encoded() -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let data = (try? encoder.encode(self)) ?? Data()
    return String(decoding: data, as: UTF8.self)
  }

  /// The longest caption memesh keeps, typed or read from a file's recipe.
  public static let maximumCaptionCharacters = 10_000
  /// The longest recipe text memesh reads: two captions of the longest, escaped, fit.
  public static let maximumEncodedBytes = 1 << 20

  /// Parses `encoded()`; nil for anything else. Text from a file gets the limits of typed text:
  /// captions are cut at `maximumCaptionCharacters`, and a recipe past `maximumEncodedBytes`, a
  /// font name past 256 characters or an impossible crop is not memesh's.
  public init?(encoded text: String) {
    guard text.utf8.count <= Self.maximumEncodedBytes,
      var recipe = try? JSONDecoder().decode(MemeRecipe.self, from: Data(text.utf8)),
      recipe.font.utf8.count <= 256, recipe.originalSHA256.utf8.count <= 128
    else { return nil }
    for keyPath in [\MemeRecipe.top, \MemeRecipe.bottom]
    where recipe[keyPath: keyPath].count > Self.maximumCaptionCharacters {
      recipe[keyPath: keyPath] = String(recipe[keyPath: keyPath].prefix(Self.maximumCaptionCharacters))
    }
    if case .rect(let rect) = recipe.crop,
      rect.x < 0 || rect.y < 0 || rect.width <= 0 || rect.height <= 0
        || max(rect.x, rect.y, rect.width, rect.height) > 1_000_000
    {
      return nil
    }
    if case .aspect(let width, let height) = recipe.crop,
      !(1...1_000_000).contains(width) || !(1...1_000_000).contains(height)
    {
      return nil
    }
    self = recipe
  }
}
