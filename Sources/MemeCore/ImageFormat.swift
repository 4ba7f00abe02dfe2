/// A picture format memesh knows. Which of them it reads and writes is up to MemeMedia's codec
/// layer (`ImageCodec.adapters`); these are the facts about each format itself.
public enum ImageFormat: String, Sendable, Equatable, Codable, CaseIterable {
  case png
  case jpeg
  case webp
  case gif
  case heic
  case avif

  /// The format's name in messages: "PNG", "JPEG", "WebP" …
  public var name: String {
    switch self {
    case .png: "PNG"
    case .jpeg: "JPEG"
    case .webp: "WebP"
    case .gif: "GIF"
    case .heic: "HEIC"
    case .avif: "AVIF"
    }
  }

  /// The usual file extension, without the dot.
  public var fileExtension: String {
    switch self {
    case .png: "png"
    case .jpeg: "jpg"
    case .webp: "webp"
    case .gif: "gif"
    case .heic: "heic"
    case .avif: "avif"
    }
  }

  /// The media type, for the clipboard.
  public var mimeType: String {
    switch self {
    case .png: "image/png"
    case .jpeg: "image/jpeg"
    case .webp: "image/webp"
    case .gif: "image/gif"
    case .heic: "image/heic"
    case .avif: "image/avif"
    }
  }

  /// The formats memesh writes memes in (GIF and WebP also as animations).
  public static let writable: [ImageFormat] = [.png, .jpeg, .webp, .gif]

  /// Whether memesh writes memes in this format.
  public var isWritable: Bool { ImageFormat.writable.contains(self) }

  /// What a meme of a picture in this format is written as unless the user asks otherwise: the
  /// picture's own format when memesh writes it; JPEG for phone photos (HEIC, AVIF), which
  /// opens everywhere; PNG for GIF, whose flat colours and transparency JPEG would spoil.
  public var memeFormat: ImageFormat {
    switch self {
    case .png, .jpeg, .webp: self
    case .heic, .avif: .jpeg
    case .gif: .png
    }
  }

  /// The longest side a file in this format can have, when the format limits it.
  public var maxDimension: Int? {
    switch self {
    case .jpeg: 65500
    case .webp: 16383
    case .gif: 65535
    case .png, .heic, .avif: nil
    }
  }

  /// Parses what a user types after `--format`: `png`, `jpeg`, `jpg`, `webp` or `gif`, any
  /// case (a format memesh writes).
  public init?(userInput: String) {
    switch userInput.lowercased() {
    case "png": self = .png
    case "jpeg", "jpg": self = .jpeg
    case "webp": self = .webp
    case "gif": self = .gif
    default: return nil
    }
  }

  /// The format a file name's extension names, if any (`x.JPG` is JPEG).
  public init?(fileExtension: String) {
    switch fileExtension.lowercased() {
    case "png": self = .png
    case "jpg", "jpeg", "jpe", "jfif": self = .jpeg
    case "webp": self = .webp
    case "gif": self = .gif
    case "heic", "heif": self = .heic
    case "avif": self = .avif
    default: return nil
    }
  }

  /// The format a HEIF file's `ftyp` brand names: AVIF for the AV1 brands, HEIC for the HEVC
  /// brands and the structural ones (mif1, msf1) phones write beside them; nil for any other
  /// brand (MP4 video, QuickTime).
  public init?(heifBrand brand: String) {
    switch brand {
    case "avif", "avis": self = .avif
    case "heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1": self = .heic
    default: return nil
    }
  }
}
