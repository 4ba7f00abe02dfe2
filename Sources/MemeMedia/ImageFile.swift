import Foundation
import MemeCore
import MemeSystem

/// Reading picture files from disk and turning them into what the editor holds.
public enum ImageFile {
  /// The longest side of the preview proxy made at load.
  public static let proxyDimension = 1024

  /// Reads `path` and decodes it. The bytes are returned exactly as read, for the store.
  public static func load(path: String, limits: DecodeLimits = .default) throws -> (
    bytes: Data, decoded: DecodedImage
  ) {
    let bytes = try read(path: path)
    return (bytes, try ImageCodec.decode(bytes, name: path, limits: limits))
  }

  /// The whole picture file (`WholeFile.read`), failing as `cannot load 'NAME': why`: reading
  /// is the first step of loading a picture.
  public static func read(path: String) throws(MediaError) -> Data {
    do {
      return try WholeFile.read(path: path)
    } catch {
      throw .cannotLoad(name: ImageCodec.displayName(path), .unreadable(error))
    }
  }

  /// Whether opening the text libraries beside reading the picture at `path` costs its `load`
  /// nothing (`MemeRenderer.loadForEditing`): a file of a megabyte or more in a format whose
  /// decoder memesh starts with (JPEG, PNG), whose read and decode outlast them. Loading a
  /// small picture, or one whose format's own library is opened on demand (HEIF, WebP, GIF: the
  /// dynamic loader opens one library at a time), would wait for them, and so would `exit`
  /// after it. Looks at the file's size and first bytes only; false for anything it cannot
  /// tell (the read then says what is wrong).
  static func outlastsTextLibraries(path: String) -> Bool {
    guard let (size, head) = WholeFile.head(path: path, count: ImageCodec.headSize),
      size >= 1 << 20, let format = ImageCodec.sniff(head)
    else { return false }
    return ImageCodec.adapter(for: format)?.libraries.isEmpty == true
  }

  // MARK: - Source pictures

  /// Loads `path` as the editor's picture: upright pixels, the original bytes with their
  /// SHA-256, and a preview proxy (longest side ≤ 1024). Returns the decoder's warnings too.
  public static func sourcePicture(path: String, limits: DecodeLimits = .default) throws -> (
    picture: SourcePicture, warnings: [String]
  ) {
    let (bytes, decoded) = try load(path: path, limits: limits)
    let picture = try sourcePicture(path: path, bytes: bytes, decoded: decoded, limits: limits)
    return (picture, decoded.warnings)
  }

  /// Wraps an already decoded file as a `SourcePicture`, making its proxy (libjpeg's DCT
  /// scaling for JPEG, the area average for other formats).
  public static func sourcePicture(
    path: String, bytes: Data, decoded: DecodedImage, limits: DecodeLimits = .default
  ) throws -> SourcePicture {
    let proxy =
      ImageCodec.adapter(for: decoded.format)?.decodesSmallerCheaply == true
      ? try ImageCodec.decodeProxy(bytes, name: path, maxDimension: proxyDimension, limits: limits)
      : ImageOps.scaled(decoded.image, toFit: proxyDimension, proxyDimension)
    return SourcePicture(
      path: path, originalBytes: bytes, sha256: Checksum.sha256(bytes), format: decoded.format,
      image: decoded.image, proxy: proxy)
  }
}
