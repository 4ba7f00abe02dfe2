import Foundation
import MemeCore

/// A font memesh can draw captions with.
public struct FontInfo: Sendable, Equatable {
  public enum Origin: String, Sendable { case bundled, user, path }
  /// The name users type (`Anton`, `Oswald`); for a path, the path.
  public var name: String
  public var path: String
  public var origin: Origin

  public init(name: String, path: String, origin: Origin) {
    self.name = name
    self.path = path
    self.origin = origin
  }
}

/// The bundled fonts, the user's fonts and fonts named by path.
public struct FontCatalog: Sendable {
  public var bundledDirectory: URL?
  public var userDirectory: URL?

  public init(bundledDirectory: URL?, userDirectory: URL?) {
    self.bundledDirectory = bundledDirectory
    self.userDirectory = userDirectory
  }

  /// Every font found, bundled first.
  public func fonts() -> [FontInfo] { [] }

  /// A font by name (case-insensitive) or by path to a font file.
  public func resolve(_ name: String) throws -> FontInfo {
    throw MemeError("font: unknown font '\(name)'")
  }
}

/// What caption rendering decided, for `preview --explain` and warnings.
public struct CaptionReport: Sendable, Equatable {
  /// Warnings to show the user (a caption cut with an ellipsis, characters no font has).
  public var warnings: [String]
  /// Plain-text explanation, one caption after another.
  public var explanation: String

  public init(warnings: [String] = [], explanation: String = "") {
    self.warnings = warnings
    self.explanation = explanation
  }
}

/// Draws meme captions (HarfBuzz shaping, FreeType rasterizing) onto a picture.
public struct CaptionRenderer: Sendable {
  public var catalog: FontCatalog

  public init(catalog: FontCatalog) {
    self.catalog = catalog
  }

  /// Draws `top` and `bottom` onto `image` in `font`; empty captions draw nothing.
  public func render(
    onto image: RGBAImage, top: String, bottom: String, font: String
  ) throws -> (image: RGBAImage, report: CaptionReport) {
    (image, CaptionReport())
  }
}
