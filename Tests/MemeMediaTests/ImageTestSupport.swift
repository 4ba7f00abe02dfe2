import Foundation
import MemeCore
import MemeMedia

/// Where the image tests' committed fixtures live (never /work/shared: the tests must run from a
/// fresh clone).
enum ImageFixtures {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures", isDirectory: true)
  static let pngSuite = root.appendingPathComponent("pngsuite", isDirectory: true)
  static let images = root.appendingPathComponent("images", isDirectory: true)

  /// The bytes of `Fixtures/images/NAME`.
  static func data(_ name: String) throws -> Data {
    try Data(contentsOf: images.appendingPathComponent(name))
  }

  /// Decodes `Fixtures/images/NAME` the way `load` does.
  static func decode(_ name: String, limits: DecodeLimits = .default) throws -> DecodedImage {
    try ImageCodec.decode(try data(name), name: name, limits: limits)
  }

  /// Rows of a tab-separated file, without `#` comments and the header row starting `file`.
  static func table(_ url: URL) throws -> [[String]] {
    try String(contentsOf: url, encoding: .utf8).split(separator: "\n").compactMap { line in
      guard !line.hasPrefix("#"), !line.hasPrefix("file\t") else { return nil }
      return line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
    }
  }
}

extension RGBA {
  /// Largest difference of one channel, for colours that went through lossy JPEG.
  func distance(to other: RGBA) -> Int {
    max(
      abs(Int(r) - Int(other.r)), abs(Int(g) - Int(other.g)), abs(Int(b) - Int(other.b)),
      abs(Int(a) - Int(other.a)))
  }
}
