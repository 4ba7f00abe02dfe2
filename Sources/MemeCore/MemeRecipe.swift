import Foundation

/// Everything that makes a meme besides its picture: the crop, the meme's font and its text
/// boxes in drawing order.
///
/// One value for the editor, the draft, the store and the recipe embedded in every file memesh
/// writes. MemeMe's top and bottom captions are boxes 1 and 2 (placed `.top` and `.bottom` in a
/// blank recipe); `top`, `bottom` and `caption` set those two. Its `Codable` form is flat (the
/// keys `font`, `crop`, `boxes`, so a meme's record or a draft step keeps them beside its own),
/// and reads version 1's `top` and `bottom` keys as boxes 1 and 2.
public struct MemeRecipe: Sendable, Equatable, Hashable {
  /// A font name from the font catalog (or a family or a path, as `font` took it); a box with no
  /// font of its own draws in it.
  public var font: String
  public var crop: Crop
  /// Drawn in this order: a later box covers an earlier one.
  public var boxes: [TextBox]

  /// The font captions use when the user picks none.
  public static let defaultFont = "Anton"
  /// MemeMe's two empty fields: what a blank recipe has.
  public static let captionBoxes = [TextBox(placement: .top), TextBox(placement: .bottom)]
  /// The most boxes a recipe keeps (read from a file or typed).
  public static let maximumBoxes = 100
  /// The longest font name kept (a path to a font file included).
  public static let maximumFontNameBytes = 4096

  public init(
    font: String = MemeRecipe.defaultFont, crop: Crop = .off,
    boxes: [TextBox] = MemeRecipe.captionBoxes
  ) {
    self.font = font
    self.crop = crop
    self.boxes = boxes
  }

  /// MemeMe's recipe: a top and a bottom caption.
  public init(top: String, bottom: String, font: String = MemeRecipe.defaultFont, crop: Crop = .off)
  {
    self.init(
      font: font, crop: crop,
      boxes: [TextBox(text: top, placement: .top), TextBox(text: bottom, placement: .bottom)])
  }

  /// A blank recipe: two empty caption boxes, the default font, no crop.
  public static let blank = MemeRecipe()

  // MARK: - MemeMe's two captions

  /// Box 1's text (MemeMe's top field); setting it on a recipe with no boxes adds one placed
  /// `.top`.
  public var top: String {
    get { boxes.first?.text ?? "" }
    set { setCaption(0, newValue) }
  }

  /// Box 2's text (MemeMe's bottom field); setting it on a recipe of fewer boxes adds them
  /// (box 1 empty at the top, box 2 at the bottom).
  public var bottom: String {
    get { boxes.count > 1 ? boxes[1].text : "" }
    set { setCaption(1, newValue) }
  }

  private mutating func setCaption(_ index: Int, _ text: String) {
    while boxes.count <= index {
      boxes.append(TextBox(placement: Self.captionBoxes[boxes.count].placement))
    }
    boxes[index].text = text
  }

  /// Whether the boxes are MemeMe's two captions as memesh has always drawn them: two boxes,
  /// placed `.top` and `.bottom`, in the default style (whatever their text).
  public var hasCaptionLayout: Bool {
    boxes.count == 2
      && zip(boxes, Self.captionBoxes).allSatisfy { box, caption in
        var plain = box
        plain.text = ""
        return plain == caption
      }
  }
}

// MARK: - Stored form

extension MemeRecipe: Codable {
  enum CodingKeys: String, CodingKey {
    case font, crop, boxes
    /// Version 1: MemeMe's two captions.
    case top, bottom
  }

  /// Reads a recipe from a file (a meme's record, a draft, an embedded recipe), checking it as
  /// text from a file must be: a font name past `maximumFontNameBytes`, more than `maximumBoxes`
  /// boxes, an impossible crop or box is an error. Without `boxes`, the version-1 keys `top` and
  /// `bottom` are boxes 1 and 2. Text past `TextBox.maximumCharacters` is cut, as typed text
  /// is, unless the decoder refuses it (`TextBox.refusesLongText`).
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    font = try container.decode(String.self, forKey: .font)
    guard font.utf8.count <= Self.maximumFontNameBytes else {
      throw DecodingError.dataCorruptedError(
        forKey: .font, in: container, debugDescription: "font name too long")
    }
    crop = try container.decode(Crop.self, forKey: .crop)
    guard crop.isWithinLimits else {
      throw DecodingError.dataCorruptedError(
        forKey: .crop, in: container, debugDescription: "impossible crop")
    }
    if container.contains(.boxes) {
      boxes = try container.decode([TextBox].self, forKey: .boxes)
      guard boxes.count <= Self.maximumBoxes else {
        throw DecodingError.dataCorruptedError(
          forKey: .boxes, in: container, debugDescription: "more than \(Self.maximumBoxes) boxes")
      }
    } else {
      func caption(_ key: CodingKeys) throws -> String {
        try TextBox.limited(try container.decode(String.self, forKey: key), decoder) {
          DecodingError.dataCorruptedError(
            forKey: key, in: container, debugDescription: "caption too long")
        }
      }
      boxes = [
        TextBox(text: try caption(.top), placement: .top),
        TextBox(text: try caption(.bottom), placement: .bottom),
      ]
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(font, forKey: .font)
    try container.encode(crop, forKey: .crop)
    try container.encode(boxes, forKey: .boxes)
  }
}

// MARK: - Embedded in files

/// The recipe as embedded in every picture memesh writes (PNG `iTXt`, JPEG comment, WebP XMP,
/// all under the keyword `memesh:recipe`), so `load` can reopen the meme: the recipe, the
/// SHA-256 of the original picture's bytes and a version.
///
/// Version 2 is `{"boxes":[…],"crop":"off","font":"Anton","originalSHA256":"…","version":2}`;
/// version 1 (no `version` key) was `{"bottom":…,"crop":…,"font":…,"originalSHA256":…,"top":…}`
/// and still reads. A newer version is recognised but not read (`RecipeReading.newer`).
public struct EmbeddedRecipe: Sendable, Equatable {
  /// The version this memesh writes and reads up to.
  public static let currentVersion = 2
  /// PNG iTXt keyword / JPEG COM prefix / WebP XMP property.
  public static let keyword = "memesh:recipe"
  /// The longest recipe text memesh reads.
  public static let maximumEncodedBytes = 1 << 20

  public var recipe: MemeRecipe
  /// Lowercase hex SHA-256 of the original picture's bytes.
  public var originalSHA256: String

  public init(recipe: MemeRecipe, originalSHA256: String) {
    self.recipe = recipe
    self.originalSHA256 = originalSHA256
  }

  enum CodingKeys: String, CodingKey {
    case version, originalSHA256
  }

  /// Compact JSON, UTF-8, keys sorted.
  public func encoded() -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let data = (try? encoder.encode(Stored(self))) ?? Data()
    return String(decoding: data, as: UTF8.self)
  }

  /// The JSON form: the recipe's keys with `version` and `originalSHA256` beside them.
  private struct Stored: Codable {
    var embedded: EmbeddedRecipe
    init(_ embedded: EmbeddedRecipe) { self.embedded = embedded }

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      let sha = try container.decode(String.self, forKey: .originalSHA256)
      guard sha.utf8.count <= 128 else {
        throw DecodingError.dataCorruptedError(
          forKey: .originalSHA256, in: container, debugDescription: "not a SHA-256")
      }
      embedded = EmbeddedRecipe(recipe: try MemeRecipe(from: decoder), originalSHA256: sha)
    }

    func encode(to encoder: any Encoder) throws {
      try embedded.recipe.encode(to: encoder)
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(EmbeddedRecipe.currentVersion, forKey: .version)
      try container.encode(embedded.originalSHA256, forKey: .originalSHA256)
    }
  }

  /// Just the version, read before the rest (a newer recipe may not decode at all).
  private struct Version: Decodable {
    var version: Int?
  }

  /// Reads `encoded()` of this or an earlier version; `.newer` for a later version; nil for
  /// anything else (text that is not memesh's, too long, or with an impossible value).
  public static func read(_ text: String) -> RecipeReading? {
    guard text.utf8.count <= maximumEncodedBytes else { return nil }
    let data = Data(text.utf8)
    guard let version = try? JSONDecoder().decode(Version.self, from: data) else { return nil }
    switch version.version ?? 1 {
    case 1...currentVersion:
      return (try? JSONDecoder().decode(Stored.self, from: data)).map { .recipe($0.embedded) }
    case (currentVersion + 1)...:
      return .newer(version: version.version ?? 0)
    default:
      return nil
    }
  }
}

/// What the recipe text in a picture memesh wrote says.
public enum RecipeReading: Sendable, Equatable {
  /// A recipe this memesh reads.
  case recipe(EmbeddedRecipe)
  /// A recipe of a later version than `EmbeddedRecipe.currentVersion`, written by a newer
  /// memesh: the picture is loaded as a plain picture.
  case newer(version: Int)

  /// The recipe, when this memesh can read it.
  public var embedded: EmbeddedRecipe? {
    if case .recipe(let embedded) = self { return embedded }
    return nil
  }
}
