/// The two formats memesh reads and writes.
public enum ImageFormat: String, Sendable, Equatable, Codable, CaseIterable {
  case png
  case jpeg

  /// The format's name in messages: "PNG", "JPEG".
  public var name: String {
    switch self {
    case .png: "PNG"
    case .jpeg: "JPEG"
    }
  }

  /// The usual file extension, without the dot.
  public var fileExtension: String {
    switch self {
    case .png: "png"
    case .jpeg: "jpg"
    }
  }

  /// Parses what a user types after `--format`: `png`, `jpeg` or `jpg`, any case.
  public init?(userInput: String) {
    switch userInput.lowercased() {
    case "png": self = .png
    case "jpeg", "jpg": self = .jpeg
    default: return nil
    }
  }
}
