import Foundation

/// A meme template: a picture and a recipe (its crop, font and text boxes), kept to start new
/// memes from (`template NAME`). The boxes' texts are examples, there for the user to replace.
///
/// Saved from the editor (`template save NAME`) or imported from a memegen template folder
/// (`template import DIR`). File names are relative to the template's own folder.
public struct Template: Sendable, Equatable {
  /// The name it is called by (`TemplateName`): lowercase letters, digits, `-` and `_`.
  public var name: String
  /// The title shown in listings (memegen's `name`, or the name).
  public var title: String
  /// The crop, font and boxes a meme started from it gets.
  public var recipe: MemeRecipe
  /// The picture's file in the template's folder, its format and its displayed size.
  public var pictureFile: String
  public var format: ImageFormat
  public var width: Int
  public var height: Int
  /// The alternate pictures (memegen's `styles`).
  public var styles: [TemplateStyle]
  /// A small picture for `templates` in a graphics terminal; nil when none was made.
  public var thumbnailFile: String?
  /// Where it came from, for `templates`: a folder imported, or the picture's file name.
  public var origin: String
  public var created: Date
  /// Why the template cannot be used (a file missing or damaged), as one line; nil when it is
  /// whole. Found when it is read, never saved.
  public var problem: String?

  public init(
    name: String, title: String, recipe: MemeRecipe, pictureFile: String, format: ImageFormat,
    width: Int, height: Int, styles: [TemplateStyle] = [], thumbnailFile: String? = nil,
    origin: String, created: Date, problem: String? = nil
  ) {
    self.name = name
    self.title = title
    self.recipe = recipe
    self.pictureFile = pictureFile
    self.format = format
    self.width = width
    self.height = height
    self.styles = styles
    self.thumbnailFile = thumbnailFile
    self.origin = origin
    self.created = created
    self.problem = problem
  }
}

/// An alternate picture of a template (memegen's styles: the same boxes on another picture).
public struct TemplateStyle: Sendable, Equatable, Codable {
  public var name: String
  public var file: String
  public var format: ImageFormat

  public init(name: String, file: String, format: ImageFormat) {
    self.name = name
    self.file = file
    self.format = format
  }
}

/// What a template may be called: it names a folder, so a word of lowercase letters, digits,
/// `-` and `_`, starting with a letter or digit, at most 64 bytes, and not one of `reserved`.
public enum TemplateName {
  public static let maximumBytes = 64
  /// `trash` names the folder removed templates wait in; `save`, `import` and `rm` are words of
  /// the `template` command.
  public static let reserved: Set<String> = ["trash", "save", "import", "rm"]

  /// Why `name` cannot name a template, or nil when it can.
  public static func problem(_ name: String) -> String? {
    guard !name.isEmpty else { return "a template needs a name" }
    guard name.utf8.count <= maximumBytes else {
      return "'\(name.prefix(maximumBytes))…' is longer than \(maximumBytes) characters"
    }
    guard name.unicodeScalars.allSatisfy(isWordCharacter) else {
      return "'\(name)' may hold only lowercase letters a–z, digits, '-' and '_'"
    }
    guard let first = name.unicodeScalars.first, first != "-", first != "_" else {
      return "'\(name)' must start with a letter or digit"
    }
    guard !reserved.contains(name) else { return "'\(name)' is a name memesh keeps for itself" }
    return nil
  }

  /// `name` as a template name: lowercased, each run of other characters a `-` (a memegen
  /// folder `Drake Posting` becomes `drake-posting`); nil when nothing is left.
  public static func normalized(_ name: String) -> String? {
    var result = ""
    for scalar in name.lowercased().unicodeScalars {
      if isWordCharacter(scalar) {
        result.unicodeScalars.append(scalar)
      } else if !result.isEmpty, !result.hasSuffix("-") {
        result += "-"
      }
    }
    while let last = result.last, last == "-" || last == "_" { result.removeLast() }
    while let first = result.first, first == "-" || first == "_" { result.removeFirst() }
    let cut = String(result.utf8.prefix(maximumBytes)) ?? result
    return cut.isEmpty ? nil : cut
  }

  /// Whether `name` can name a style's picture file (letters of either case, digits, `-`, `_`).
  public static func isValidStyle(_ name: String) -> Bool {
    !name.isEmpty && name.utf8.count <= maximumBytes && !name.hasPrefix("-")
      && name.unicodeScalars.allSatisfy { isWordCharacter($0) || ("A"..."Z").contains($0) }
  }

  private static func isWordCharacter(_ scalar: Unicode.Scalar) -> Bool {
    ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "-"
      || scalar == "_"
  }
}
