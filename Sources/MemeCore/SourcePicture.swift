import Foundation

/// The picture the editor works on: the file's bytes and its upright pixels.
///
/// Held by reference (`final class`, immutable to its users), so every undo snapshot shares it.
/// A picture the user loads is read and decoded at once, unless it is a JPEG that a JPEG share
/// splices (`MemeRenderer.loadForEditing`): its size comes from its header. One restored from a saved draft is
/// read the first time its bytes are asked for (`originalBytes`) and decoded the first time its
/// pixels are (`image`, `proxy`, `size`): a draft holding a 12-MP photo then costs nothing at
/// start (a 4 MB read and about 100 ms of decoding otherwise, on every start, `-c quit`
/// included) until the picture is shown, rendered, measured or shared. Asking can therefore
/// fail; the failure is a `SourcePicture.DecodeFailure`.
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

  /// Why a picture read or decoded on demand could not be: the one-line message of what failed.
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
  /// Lowercase hex SHA-256 of `originalBytes`.
  public let sha256: String
  public let format: ImageFormat
  private let content: LazyContent
  /// The displayed size when known without decoding (from the file's header).
  private let knownSize: PixelSize?

  /// A picture already read and decoded.
  public init(
    path: String, originalBytes: Data, sha256: String, format: ImageFormat, image: RGBAImage,
    proxy: RGBAImage
  ) {
    self.path = path
    self.sha256 = sha256
    self.format = format
    self.content = LazyContent(bytes: originalBytes, pixels: Pixels(image: image, proxy: proxy))
    self.knownSize = nil
  }

  /// A picture read but not decoded, whose displayed size its header gave: `decode` turns the
  /// bytes into pixels the first time they are needed (as for the lazy initializer below).
  /// `proxy`, when given, makes the preview proxy alone (a JPEG's reduced DCT decode) while the
  /// full picture is not decoded yet, so a preview never decodes the whole photo.
  public init(
    path: String, originalBytes: Data, sha256: String, format: ImageFormat, size: PixelSize,
    proxy: (@Sendable (Data) throws -> RGBAImage)? = nil,
    decode: @escaping @Sendable (Data) throws -> Pixels
  ) {
    self.path = path
    self.sha256 = sha256
    self.format = format
    self.content = LazyContent(
      path: path, bytes: originalBytes, decodeProxy: proxy, decode: decode)
    self.knownSize = size
  }

  /// A picture whose bytes `read` returns and `decode` turns into pixels, each run once, the
  /// first time they are needed (whichever thread asks; others wait). An error either throws is
  /// kept and thrown again by every later request, as a `DecodeFailure` carrying its message.
  /// `measure`, when given, reads the displayed size from the bytes' header, so asking the size
  /// (`info`) reads the file but decodes nothing; nil from it means "decode to know".
  public init(
    path: String, sha256: String, format: ImageFormat,
    read: @escaping @Sendable () throws -> Data,
    measure: (@Sendable (Data) -> PixelSize?)? = nil,
    decode: @escaping @Sendable (Data) throws -> Pixels
  ) {
    self.path = path
    self.sha256 = sha256
    self.format = format
    self.content = LazyContent(path: path, read: read, measure: measure, decode: decode)
    self.knownSize = nil
  }

  /// The file's bytes exactly as read: kept for the store so the meme can be edited again.
  public var originalBytes: Data {
    get throws(DecodeFailure) { try content.bytes() }
  }

  /// Full resolution, upright (EXIF orientation applied); decodes on first use.
  public var image: RGBAImage {
    get throws(DecodeFailure) { try content.pixels().image }
  }

  /// A small upright copy for previews (longest side about 1024 px); decodes on first use (only
  /// the proxy, for a picture made with a `proxy` closure).
  public var proxy: RGBAImage {
    get throws(DecodeFailure) { try content.proxy() }
  }

  /// Displayed size (after orientation); decodes on first use unless the header gave it.
  public var size: PixelSize {
    get throws(DecodeFailure) {
      if let knownSize { return knownSize }
      if let measured = try content.measuredSize() { return measured }
      return try content.pixels().image.size
    }
  }

  /// True once the bytes are in memory (always for a picture made from them).
  public var hasBytes: Bool { content.hasBytes }

  /// True once the pixels are in memory (always for a picture made decoded).
  public var isDecoded: Bool { content.isDecoded }

  /// The last path component, for prompts and tables.
  public var displayName: String {
    path.split(separator: "/").last.map(String.init) ?? path
  }

  public static func == (lhs: SourcePicture, rhs: SourcePicture) -> Bool {
    lhs === rhs || (lhs.sha256 == rhs.sha256 && lhs.path == rhs.path)
  }
}

/// The bytes and pixels of a `SourcePicture`, each made at most once, behind a lock.
private final class LazyContent: @unchecked Sendable {
  typealias Failure = SourcePicture.DecodeFailure

  private let lock = NSLock()
  private let path: String
  private var read: (@Sendable () throws -> Data)?
  private var decode: (@Sendable (Data) throws -> SourcePicture.Pixels)?
  private var decodeProxy: (@Sendable (Data) throws -> RGBAImage)?
  private var proxyResult: Result<RGBAImage, Failure>?
  private var measure: (@Sendable (Data) -> PixelSize?)?
  private var headerSize: PixelSize?
  private var bytesResult: Result<Data, Failure>?
  private var pixelsResult: Result<SourcePicture.Pixels, Failure>?

  init(bytes: Data, pixels: SourcePicture.Pixels) {
    self.path = ""
    self.bytesResult = .success(bytes)
    self.pixelsResult = .success(pixels)
  }

  init(
    path: String, bytes: Data, decodeProxy: (@Sendable (Data) throws -> RGBAImage)?,
    decode: @escaping @Sendable (Data) throws -> SourcePicture.Pixels
  ) {
    self.path = path
    self.bytesResult = .success(bytes)
    self.decodeProxy = decodeProxy
    self.decode = decode
  }

  init(
    path: String, read: @escaping @Sendable () throws -> Data,
    measure: (@Sendable (Data) -> PixelSize?)?,
    decode: @escaping @Sendable (Data) throws -> SourcePicture.Pixels
  ) {
    self.path = path
    self.read = read
    self.measure = measure
    self.decode = decode
  }

  /// The size `measure` reads from the header, once; nil when the pixels are decoded already
  /// (their size is the answer), when there is no `measure`, or when it could not tell.
  func measuredSize() throws(Failure) -> PixelSize? {
    try lock.withLock { () -> Result<PixelSize?, Failure> in
      if case .success = pixelsResult { return .success(nil) }
      if let headerSize { return .success(headerSize) }
      guard let measure else { return .success(nil) }
      switch loadBytes() {
      case .failure(let failure): return .failure(failure)
      case .success(let bytes):
        headerSize = measure(bytes)
        self.measure = nil
        return .success(headerSize)
      }
    }.get()
  }

  var hasBytes: Bool {
    lock.withLock {
      if case .success = bytesResult { return true }
      return false
    }
  }

  var isDecoded: Bool {
    lock.withLock {
      if case .success = pixelsResult { return true }
      return false
    }
  }

  func bytes() throws(Failure) -> Data {
    try lock.withLock { loadBytes() }.get()
  }

  func pixels() throws(Failure) -> SourcePicture.Pixels {
    try lock.withLock { () -> Result<SourcePicture.Pixels, Failure> in
      if let pixelsResult { return pixelsResult }
      let result: Result<SourcePicture.Pixels, Failure>
      switch loadBytes() {
      case .failure(let failure):
        result = .failure(failure)
      case .success(let bytes):
        guard let decode else { return .failure(Failure(path: path, message: "not decodable")) }
        result = attempt { try decode(bytes) }
      }
      pixelsResult = result
      decode = nil
      return result
    }.get()
  }

  /// The proxy made on its own when there is a `decodeProxy` and the pixels are not decoded
  /// yet (once; a failure falls back to the full decode), else the decoded pixels' proxy.
  func proxy() throws(Failure) -> RGBAImage {
    let made = lock.withLock { () -> RGBAImage? in
      if case .success(let proxy) = proxyResult { return proxy }
      if pixelsResult != nil || proxyResult != nil { return nil }
      guard let decodeProxy, case .success(let bytes) = loadBytes() else { return nil }
      proxyResult = attempt { try decodeProxy(bytes) }
      self.decodeProxy = nil
      if case .success(let proxy) = proxyResult { return proxy }
      return nil
    }
    if let made { return made }
    return try pixels().proxy
  }

  /// The bytes, read now when needed; the caller holds the lock.
  private func loadBytes() -> Result<Data, Failure> {
    if let bytesResult { return bytesResult }
    guard let read else { return .failure(Failure(path: path, message: "not readable")) }
    let result = attempt { try read() }
    bytesResult = result
    self.read = nil
    return result
  }

  private func attempt<Value>(_ body: () throws -> Value) -> Result<Value, Failure> {
    do {
      return .success(try body())
    } catch {
      let message = (error as? any UserFacingError)?.message ?? "\(error)"
      return .failure(Failure(path: path, message: message))
    }
  }
}
