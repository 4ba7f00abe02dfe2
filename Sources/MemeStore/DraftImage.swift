import Foundation
import MemeSystem

/// One picture of the draft, opened but not read: its first bytes (enough to tell PNG from JPEG)
/// are read at once, the rest when `readAll()` is called. The file stays open meanwhile, so a
/// draft saved or cleared by another memesh (which unlinks images it no longer names) cannot take
/// the bytes away; a file changed in place reads short and is reported, never mapped and trapped.
public final class DraftImage: @unchecked Sendable {
  private let file: CacheFile
  /// Lowercase hex SHA-256 the file is saved under.
  public let sha256: String
  /// Up to the first 16 bytes.
  public let head: Data

  init(file: CacheFile, sha256: String) {
    self.file = file
    self.sha256 = sha256
    self.head = file.bytes(0..<min(16, file.size)) ?? Data()
  }

  /// The whole file as it was when opened.
  public func readAll() throws -> Data {
    guard let data = file.bytes(0..<file.size) else {
      throw StoreError.missingDraftImage(sha256: sha256)
    }
    return data
  }
}

extension DraftStore {
  /// Opens the picture saved under `sha256` without reading it (see `DraftImage`); throws
  /// `StoreError.missingDraftImage` as `imageData(sha256:)` does.
  public func openImage(sha256: String) throws -> DraftImage {
    let name = sha256.lowercased()
    guard Self.isSHA256(name), let file = CacheFile(path: imagesPath + "/" + name) else {
      throw StoreError.missingDraftImage(sha256: name)
    }
    return DraftImage(file: file, sha256: name)
  }

  /// Whether the picture saved under `sha256` is in the draft store.
  public func hasImage(sha256: String) -> Bool {
    FileKind(path: imageURL(sha256: sha256).path) != .missing
  }
}
