import Foundation
import MemeCore

/// What a share hands the store: the recipe and the three files' bytes.
public struct NewMeme: Sendable {
  public var top: String
  public var bottom: String
  public var font: String
  public var crop: Crop
  public var format: ImageFormat
  public var width: Int
  public var height: Int
  public var sourceName: String
  public var originalSHA256: String
  public var original: Data
  public var rendered: Data
  public var thumbnail: Data

  public init(
    top: String, bottom: String, font: String, crop: Crop, format: ImageFormat, width: Int,
    height: Int, sourceName: String, originalSHA256: String, original: Data, rendered: Data,
    thumbnail: Data
  ) {
    self.top = top
    self.bottom = bottom
    self.font = font
    self.crop = crop
    self.format = format
    self.width = width
    self.height = height
    self.sourceName = sourceName
    self.originalSHA256 = originalSHA256
    self.original = original
    self.rendered = rendered
    self.thumbnail = thumbnail
  }
}

/// The sent-memes store: an XML plist index plus per-meme files under one directory.
public final class MemeStore: @unchecked Sendable {
  /// The store's directory (`<home>/memes`).
  public let directory: URL

  /// Opens (creating when missing) the store in `directory`.
  public init(directory: URL) throws {
    self.directory = directory
  }

  /// All memes, oldest first.
  public func memes() throws -> [Meme] { [] }

  /// One meme by id.
  public func meme(id: Int) throws -> Meme {
    throw MemeError("no meme with id \(id)")
  }

  /// Adds a meme with a new id.
  public func add(_ meme: NewMeme) throws -> Meme {
    throw MemeError("share: the store is not implemented yet")
  }

  /// Replaces meme `id` (same id, new modified date).
  public func update(id: Int, with meme: NewMeme) throws -> Meme {
    throw MemeError("share: the store is not implemented yet")
  }

  /// Deletes meme `id`; `undoDelete` brings it back.
  public func delete(id: Int) throws -> Meme {
    throw MemeError("no meme with id \(id)")
  }

  /// The absolute URL of a store-relative file name.
  public func url(for relativePath: String) -> URL {
    directory.appendingPathComponent(relativePath)
  }
}
