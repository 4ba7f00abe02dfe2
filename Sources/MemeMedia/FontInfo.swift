import Foundation

/// A font memesh can draw captions with.
public struct FontInfo: Sendable, Equatable {
  /// Where a font comes from: shipped with memesh, the user's `fonts/` folder, installed on
  /// the system (found through fontconfig), or a path.
  public enum Origin: String, Sendable { case bundled, user, installed, path }
  /// The name users type (`Anton`, `Oswald`); for a path, the path.
  public var name: String
  public var path: String
  public var origin: Origin
  /// The family and style the font file declares (`Oswald`, `Regular`); empty if unread.
  public var family: String
  public var style: String
  /// Why the file cannot be drawn with (`not a TrueType or OpenType font`), nil when it can.
  public var problem: String?

  public init(name: String, path: String, origin: Origin, family: String = "", style: String = "") {
    self.name = name
    self.path = path
    self.origin = origin
    self.family = family
    self.style = style
  }

  /// The line a `fonts` listing draws in each font.
  public static let sampleText = "WHEN THE CODE COMPILES 123"

  /// The default caption font.
  public static let defaultName = "Anton"

  /// The name a file is known by: its base name without `-Regular`/`-Variable`.
  static func name(forFile url: URL) -> String {
    var name = url.deletingPathExtension().lastPathComponent
    for suffix in ["-Regular", "-Variable", "[wght]"] where name.hasSuffix(suffix) {
      name.removeLast(suffix.count)
    }
    return name
  }

  /// Lowercased, without dashes, spaces or underscores: `dejavu sans bold` matches
  /// `DejaVuSans-Bold`.
  static func normalized(_ name: String) -> String {
    String(name.lowercased().filter { !"-_ ".contains($0) })
  }
}
