import Foundation

/// The picture the editor works on: the file's bytes and its upright pixels.
///
/// Held by reference (`final class`, immutable to its users), so every undo snapshot shares it.
/// A picture the user loads is decoded at once. One restored from a saved draft is decoded the
/// first time its pixels are asked for (`image`, `proxy`, `size`): a draft holding a 12-MP photo
/// then costs nothing at start (about 100 ms of decoding otherwise, on every start, `-c quit`
/// included) until the picture is shown, rendered or measured. Asking for the pixels can
/// therefore fail; the failure is a `SourcePicture.DecodeFailure`.
public final class SourcePicture: Sendable, Equatable {
  /// The decoded pixels: full resolution and the preview proxy.
  public struct Pixels: Sendable {
    /// Full resolution, upright (EXIF orientation applied).
    public var image: RGBAImage
    /// A small upright copy for previews (longest side about 1024 px).
    public var proxy: RGBAImage

    public init(image: RGBAImage, proxy: RGBAImage) {
      self.image = image
      self.proxy = proxy
    }
  }

  /// Why a picture decoded on demand could not be: the decoder's one-line message.
  public struct DecodeFailure: UserFacingError, Equatable {
    /// The picture's path, as the user loaded it.
    public var path: String
    public var message: String

    public init(path: String, message: String) {
      self.path = path
      self.message = message
    }
  }

  /// The path the user loaded, as they typed it (for display).
  public let path: String
  /// The file's bytes exactly as read: kept for the store so the meme can be edited again.
  public let originalBytes: Data
  /// Lowercase hex SHA-256 of `originalBytes`.
  public let sha256: String
  public let format: ImageFormat
  private let pixels: LazyPixels

  /// A picture already decoded.
  public init(
    path: String, originalBytes: Data, sha256: String, format: ImageFormat, image: RGBAImage,
    proxy: RGBAImage
  ) {
    self.path = path
    self.originalBytes = originalBytes
    self.sha256 = sha256
    self.format = format
    self.pixels = LazyPixels(decoded: Pixels(image: image, proxy: proxy))
  }

  /// A picture decoded by `decode` the first time its pixels are needed (once, whichever
  /// thread asks). An error `decode` throws is kept and thrown again by every later request, as
  /// a `DecodeFailure` carrying its message.
  public init(
    path: String, originalBytes: Data, sha256: String, format: ImageFormat,
    decode: @escaping @Sendable () throws -> Pixels
  ) {
    self.path = path
    self.originalBytes = originalBytes
    self.sha256 = sha256
    self.format = format
    self.pixels = LazyPixels(path: path, decode: decode)
  }

  /// Full resolution, upright (EXIF orientation applied); decodes on first use.
  public var image: RGBAImage {
    get throws(DecodeFailure) { try pixels.value().image }
  }

  /// A small upright copy for previews (longest side about 1024 px); decodes on first use.
  public var proxy: RGBAImage {
    get throws(DecodeFailure) { try pixels.value().proxy }
  }

  /// Displayed size (after orientation); decodes on first use.
  public var size: PixelSize {
    get throws(DecodeFailure) { try pixels.value().image.size }
  }

  /// True once the pixels are in memory (always for a picture made decoded).
  public var isDecoded: Bool { pixels.isDecoded }

  /// The last path component, for prompts and tables.
  public var displayName: String {
    path.split(separator: "/").last.map(String.init) ?? path
  }

  public static func == (lhs: SourcePicture, rhs: SourcePicture) -> Bool {
    lhs === rhs || (lhs.sha256 == rhs.sha256 && lhs.path == rhs.path)
  }
}

/// The pixels of a `SourcePicture`, decoded at most once, behind a lock.
private final class LazyPixels: @unchecked Sendable {
  private enum Stage {
    case pending(@Sendable () throws -> SourcePicture.Pixels)
    case done(Result<SourcePicture.Pixels, SourcePicture.DecodeFailure>)
  }

  private let lock = NSLock()
  private let path: String
  private var stage: Stage

  init(decoded: SourcePicture.Pixels) {
    self.path = ""
    self.stage = .done(.success(decoded))
  }

  init(path: String, decode: @escaping @Sendable () throws -> SourcePicture.Pixels) {
    self.path = path
    self.stage = .pending(decode)
  }

  var isDecoded: Bool {
    lock.withLock {
      if case .done(.success) = stage { return true }
      return false
    }
  }

  /// The pixels, decoding them first when needed (other threads asking meanwhile wait).
  func value() throws(SourcePicture.DecodeFailure) -> SourcePicture.Pixels {
    let result = lock.withLock { () -> Result<SourcePicture.Pixels, SourcePicture.DecodeFailure> in
      switch stage {
      case .done(let result):
        return result
      case .pending(let decode):
        let result: Result<SourcePicture.Pixels, SourcePicture.DecodeFailure>
        do {
          result = .success(try decode())
        } catch {
          let message = (error as? any UserFacingError)?.message ?? "\(error)"
          result = .failure(SourcePicture.DecodeFailure(path: path, message: message))
        }
        stage = .done(result)
        return result
      }
    }
    return try result.get()
  }
}
