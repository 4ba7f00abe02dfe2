import Foundation

/// A sent meme as the store keeps it. File names are relative to the store's directory.
public struct Meme: Sendable, Equatable, Codable, Identifiable {
  /// Small, positive, never reused.
  public var id: Int
  /// The crop, font and text boxes.
  public var recipe: MemeRecipe
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

  /// The keys saved in the store's index besides the recipe's own (`MemeRecipe.CodingKeys`);
  /// `problem` is not one of them.
  enum CodingKeys: String, CodingKey {
    case id, created, modified, width, height, format, sourceName
    case originalSHA256, originalFile, memeFile, thumbnailFile
  }

  public init(
    id: Int, recipe: MemeRecipe, created: Date, modified: Date, width: Int, height: Int,
    format: ImageFormat, sourceName: String, originalSHA256: String, originalFile: String,
    memeFile: String, thumbnailFile: String
  ) {
    self.id = id
    self.recipe = recipe
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

  /// Reads a record: the recipe's keys (version 1's `top` and `bottom`, or `boxes`) beside the
  /// meme's own.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(Int.self, forKey: .id)
    recipe = try MemeRecipe(from: decoder)
    created = try container.decode(Date.self, forKey: .created)
    modified = try container.decode(Date.self, forKey: .modified)
    width = try container.decode(Int.self, forKey: .width)
    height = try container.decode(Int.self, forKey: .height)
    format = try container.decode(ImageFormat.self, forKey: .format)
    sourceName = try container.decode(String.self, forKey: .sourceName)
    originalSHA256 = try container.decode(String.self, forKey: .originalSHA256)
    originalFile = try container.decode(String.self, forKey: .originalFile)
    memeFile = try container.decode(String.self, forKey: .memeFile)
    thumbnailFile = try container.decode(String.self, forKey: .thumbnailFile)
  }

  public func encode(to encoder: any Encoder) throws {
    try recipe.encode(to: encoder)
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(created, forKey: .created)
    try container.encode(modified, forKey: .modified)
    try container.encode(width, forKey: .width)
    try container.encode(height, forKey: .height)
    try container.encode(format, forKey: .format)
    try container.encode(sourceName, forKey: .sourceName)
    try container.encode(originalSHA256, forKey: .originalSHA256)
    try container.encode(originalFile, forKey: .originalFile)
    try container.encode(memeFile, forKey: .memeFile)
    try container.encode(thumbnailFile, forKey: .thumbnailFile)
  }
}
