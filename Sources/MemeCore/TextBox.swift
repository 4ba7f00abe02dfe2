import Foundation

/// One text box of a meme: what it says, where it sits and how it is drawn.
///
/// MemeMe's top and bottom captions are boxes placed `.top` and `.bottom`; every other box has a
/// rectangle of its own. A value: the recipe's list of boxes is an array of these, and undo is a
/// snapshot of that array. The stored form (`Codable`) leaves out every field at its default, so
/// a plain caption is `{"text":"HELLO","at":"top"}`.
public struct TextBox: Sendable, Equatable, Hashable {
  /// The text as typed (drawn in capitals unless `textCase` is `.asTyped`); empty draws nothing.
  public var text: String
  public var placement: TextPlacement
  public var alignment: TextAlignment
  public var textCase: TextCase
  public var fill: TextColor
  public var outline: TextOutline
  /// A font name from the font catalog; nil draws in the meme's font.
  public var font: String?
  /// Degrees, clockwise, about the box's center; 0 is level.
  public var angle: Double
  /// The part of an animation the box shows in, as fractions of its duration (memegen's
  /// `start`/`stop`): `0...1` is all of it. A still picture draws every box.
  public var start: Double
  public var stop: Double

  public init(
    text: String = "", placement: TextPlacement, alignment: TextAlignment = .center,
    textCase: TextCase = .upper, fill: TextColor = .white, outline: TextOutline = .automatic,
    font: String? = nil, angle: Double = 0, start: Double = 0, stop: Double = 1
  ) {
    self.text = text
    self.placement = placement
    self.alignment = alignment
    self.textCase = textCase
    self.fill = fill
    self.outline = outline
    self.font = font
    self.angle = angle
    self.start = start
    self.stop = stop
  }

  /// The outline colour drawn, nil for none: `.automatic` is black around a light fill and white
  /// around a dark one.
  public var outlineColor: TextColor? {
    switch outline {
    case .none: nil
    case .color(let color): color
    case .automatic: fill.isLight ? .black : .white
    }
  }

  /// Whether the angle, time range and font name are ones memesh keeps (what a stored box is
  /// checked for besides its text, place and colours).
  public var hasPossibleNumbers: Bool {
    angle.isFinite && abs(angle) <= 360 && start.isFinite && stop.isFinite && 0 <= start
      && start < stop && stop <= 1 && (font?.utf8.count ?? 0) <= Self.maximumFontNameBytes
  }

  /// The longest text a box keeps, typed or read from a file.
  public static let maximumCharacters = 10_000
  /// The longest font name kept.
  public static let maximumFontNameBytes = 256
  /// How far outside the picture a rectangle may reach, in picture sizes (a box may hang over an
  /// edge and is clipped; one a whole picture away is a mistake).
  public static let rectangleReach = 1.0
  /// The largest rectangle side, in picture sizes.
  public static let maximumRectangleSide = 4.0
}

/// Where a box sits. The named places follow the picture's shape; `.rect` is fixed fractions.
public enum TextPlacement: Sendable, Equatable, Hashable, CustomStringConvertible {
  /// MemeMe's top band: the full width inside the margins, about 30 % of the height.
  case top
  /// MemeMe's bottom band.
  case bottom
  /// A band as tall as the top one, centered vertically.
  case middle
  /// The left half, full height inside the margins.
  case left
  /// The right half, full height inside the margins.
  case right
  /// Fractions of the displayed (cropped) picture, origin at the top left.
  case rect(TextFrame)

  /// The named places, as typed.
  public static let named: [TextPlacement] = [.top, .middle, .bottom, .left, .right]

  public var description: String {
    switch self {
    case .top: "top"
    case .bottom: "bottom"
    case .middle: "middle"
    case .left: "left"
    case .right: "right"
    case .rect(let frame): frame.description
    }
  }

  /// Parses a named place or the stored rectangle (`x y w h` in fractions).
  public init?(stored text: String) {
    if let named = Self.named.first(where: { $0.description == text }) {
      self = named
    } else if let frame = TextFrame(stored: text) {
      self = .rect(frame)
    } else {
      return nil
    }
  }

  /// The rectangle in pixels on a picture of `size`. `.top` and `.bottom` are exactly the bands
  /// memesh has always drawn captions in (margins 4 % of the width and 3 % of the height, bands
  /// 30 % of what is left, rounded to whole pixels).
  public func box(in size: PixelSize) -> CaptionLayout.Box {
    let width = Double(max(size.width, 0))
    let height = Double(max(size.height, 0))
    let marginX = (width * 0.04).rounded()
    let marginY = (height * 0.03).rounded()
    let bandHeight = ((height - 2 * marginY) * 0.3).rounded(.down)
    let bandWidth = max(0, width - 2 * marginX)
    let halfWidth = max(0, ((width - 3 * marginX) / 2).rounded(.down))
    let fullHeight = max(0, height - 2 * marginY)
    switch self {
    case .top:
      return CaptionLayout.Box(x: marginX, y: marginY, width: bandWidth, height: bandHeight)
    case .bottom:
      return CaptionLayout.Box(
        x: marginX, y: height - marginY - bandHeight, width: bandWidth, height: bandHeight)
    case .middle:
      return CaptionLayout.Box(
        x: marginX, y: ((height - bandHeight) / 2).rounded(.down), width: bandWidth,
        height: bandHeight)
    case .left:
      return CaptionLayout.Box(x: marginX, y: marginY, width: halfWidth, height: fullHeight)
    case .right:
      return CaptionLayout.Box(
        x: width - marginX - halfWidth, y: marginY, width: halfWidth, height: fullHeight)
    case .rect(let frame):
      return CaptionLayout.Box(
        x: frame.x * width, y: frame.y * height, width: frame.width * width,
        height: frame.height * height)
    }
  }

  /// The same place as fractions of a picture of `size` (for listings and `place`).
  public func frame(in size: PixelSize) -> TextFrame {
    if case .rect(let frame) = self { return frame }
    let box = box(in: size)
    let width = Double(max(size.width, 1))
    let height = Double(max(size.height, 1))
    return TextFrame(
      x: box.x / width, y: box.y / height, width: box.width / width, height: box.height / height)
  }
}

/// A rectangle as fractions of the picture's width and height.
public struct TextFrame: Sendable, Equatable, Hashable, CustomStringConvertible {
  public var x: Double
  public var y: Double
  public var width: Double
  public var height: Double

  public init(x: Double, y: Double, width: Double, height: Double) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }

  /// True when every number is finite, the sides positive and no larger than
  /// `TextBox.maximumRectangleSide`, and the rectangle reaches the picture or hangs no more than
  /// `TextBox.rectangleReach` outside it.
  public var isReasonable: Bool {
    let numbers = [x, y, width, height]
    guard numbers.allSatisfy(\.isFinite), width > 0, height > 0,
      width <= TextBox.maximumRectangleSide, height <= TextBox.maximumRectangleSide
    else { return false }
    let reach = TextBox.rectangleReach
    return x > -width - reach && y > -height - reach && x < 1 + reach && y < 1 + reach
  }

  /// True when part of the rectangle lies outside the picture (it is drawn clipped).
  public var reachesOutside: Bool {
    x < 0 || y < 0 || x + width > 1 || y + height > 1
  }

  /// `x y w h` as fractions with at most four decimals (the stored form).
  public var description: String {
    [x, y, width, height].map(Self.format).joined(separator: " ")
  }

  /// Percentages with at most one decimal, for listings: `10% 5% 80% 20%`.
  public var percentages: String {
    [x, y, width, height].map { value in
      let percent = (value * 1000).rounded() / 10
      return percent == percent.rounded()
        ? "\(Int(percent))%" : String(format: "%.1f%%", percent)
    }.joined(separator: " ")
  }

  private static func format(_ value: Double) -> String {
    let rounded = (value * 10_000).rounded() / 10_000
    if rounded == rounded.rounded(), abs(rounded) < 1e9 { return String(Int(rounded)) }
    var text = String(format: "%.4f", rounded)
    while text.hasSuffix("0") { text.removeLast() }
    return text
  }

  /// Parses the stored form; nil unless four numbers making a reasonable rectangle.
  public init?(stored text: String) {
    let words = text.split(separator: " ")
    guard words.count == 4 else { return nil }
    let numbers = words.compactMap { Double($0) }
    guard numbers.count == 4 else { return nil }
    self.init(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
    guard isReasonable else { return nil }
  }
}

/// How a box's lines sit within its width.
public enum TextAlignment: String, Sendable, Equatable, Hashable, CaseIterable {
  case left, center, right
}

/// Whether a box draws its text in capitals (MemeMe's look) or as typed.
public enum TextCase: String, Sendable, Equatable, Hashable, CaseIterable {
  case upper
  case asTyped = "as-typed"
}

/// A box's outline.
public enum TextOutline: Sendable, Equatable, Hashable, CustomStringConvertible {
  /// Black around a light fill, white around a dark one.
  case automatic
  case none
  case color(TextColor)

  public var description: String {
    switch self {
    case .automatic: "auto"
    case .none: "none"
    case .color(let color): color.description
    }
  }

  /// Parses `auto`, `none` or a colour (`TextColor(parsing:)`).
  public init?(parsing text: String) {
    switch text.lowercased() {
    case "auto", "automatic": self = .automatic
    case "none", "off": self = .none
    default:
      guard let color = TextColor(parsing: text) else { return nil }
      self = .color(color)
    }
  }
}

/// An opaque sRGB colour.
public struct TextColor: Sendable, Equatable, Hashable, CustomStringConvertible {
  public var red: UInt8
  public var green: UInt8
  public var blue: UInt8

  public init(red: UInt8, green: UInt8, blue: UInt8) {
    self.red = red
    self.green = green
    self.blue = blue
  }

  public static let white = TextColor(red: 255, green: 255, blue: 255)
  public static let black = TextColor(red: 0, green: 0, blue: 0)

  /// The names `color` takes (CSS's values for these names).
  public static let names: [(name: String, color: TextColor)] = [
    ("white", .white), ("black", .black),
    ("red", TextColor(red: 255, green: 0, blue: 0)),
    ("orange", TextColor(red: 255, green: 165, blue: 0)),
    ("yellow", TextColor(red: 255, green: 255, blue: 0)),
    ("green", TextColor(red: 0, green: 128, blue: 0)),
    ("lime", TextColor(red: 0, green: 255, blue: 0)),
    ("cyan", TextColor(red: 0, green: 255, blue: 255)),
    ("blue", TextColor(red: 0, green: 0, blue: 255)),
    ("purple", TextColor(red: 128, green: 0, blue: 128)),
    ("magenta", TextColor(red: 255, green: 0, blue: 255)),
    ("pink", TextColor(red: 255, green: 192, blue: 203)),
    ("brown", TextColor(red: 165, green: 42, blue: 42)),
    ("gray", TextColor(red: 128, green: 128, blue: 128)),
    ("grey", TextColor(red: 128, green: 128, blue: 128)),
  ]

  /// Parses a name from `names` or `#RRGGBB` / `#RGB` (any case; the `#` may be left out of six
  /// hex digits); nil for anything else.
  public init?(parsing text: String) {
    let lowered = text.lowercased()
    if let named = Self.names.first(where: { $0.name == lowered }) {
      self = named.color
      return
    }
    var hex = Substring(lowered)
    if hex.hasPrefix("#") { hex = hex.dropFirst() } else if hex.count != 6 { return nil }
    guard hex.allSatisfy(\.isHexDigit), hex.allSatisfy(\.isASCII) else { return nil }
    if hex.count == 3 { hex = Substring(hex.flatMap { [$0, $0] }) }
    guard hex.count == 6, let value = UInt32(hex, radix: 16) else { return nil }
    self.init(
      red: UInt8((value >> 16) & 0xFF), green: UInt8((value >> 8) & 0xFF),
      blue: UInt8(value & 0xFF))
  }

  /// The name when it has one, else `#rrggbb`.
  public var description: String {
    if let named = Self.names.first(where: { $0.color == self }) { return named.name }
    return String(format: "#%02x%02x%02x", red, green, blue)
  }

  /// True when the colour is lighter than middle grey (CIE lightness above 50, relative
  /// luminance above about 0.18): yellow and red are light, blue and purple dark.
  public var isLight: Bool {
    func linear(_ channel: UInt8) -> Double {
      let value = Double(channel) / 255
      return value <= 0.04045 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
    }
    let luminance = 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
    return luminance > 0.1842
  }
}

extension TextBox: Codable {
  enum CodingKeys: String, CodingKey {
    case text, at, align, `case`, color, outline, font, angle, start, stop
  }

  /// Reads a stored box, checking every value as text from a file must be: an unknown place,
  /// colour, alignment or case, an unreasonable rectangle, angle or time range is an error; text
  /// longer than `maximumCharacters` is cut.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    func corrupt(_ key: CodingKeys, _ what: String) -> DecodingError {
      DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: what)
    }
    let text = try container.decodeIfPresent(String.self, forKey: .text) ?? ""
    self.text = try Self.limited(text, decoder) { corrupt(.text, "text too long") }
    let at = try container.decode(String.self, forKey: .at)
    guard let placement = TextPlacement(stored: at) else { throw corrupt(.at, "not a place") }
    self.placement = placement
    let align = try container.decodeIfPresent(String.self, forKey: .align) ?? "center"
    guard let alignment = TextAlignment(rawValue: align) else {
      throw corrupt(.align, "not an alignment")
    }
    self.alignment = alignment
    let textCase = try container.decodeIfPresent(String.self, forKey: .case) ?? "upper"
    guard let parsedCase = TextCase(rawValue: textCase) else { throw corrupt(.case, "not a case") }
    self.textCase = parsedCase
    let color = try container.decodeIfPresent(String.self, forKey: .color) ?? "white"
    guard let fill = TextColor(parsing: color) else { throw corrupt(.color, "not a colour") }
    self.fill = fill
    let outline = try container.decodeIfPresent(String.self, forKey: .outline) ?? "auto"
    guard let parsedOutline = TextOutline(parsing: outline) else {
      throw corrupt(.outline, "not an outline")
    }
    self.outline = parsedOutline
    let font = try container.decodeIfPresent(String.self, forKey: .font)
    guard (font?.utf8.count ?? 0) <= Self.maximumFontNameBytes else {
      throw corrupt(.font, "font name too long")
    }
    self.font = font
    let angle = try container.decodeIfPresent(Double.self, forKey: .angle) ?? 0
    guard angle.isFinite, abs(angle) <= 360 else { throw corrupt(.angle, "not an angle") }
    self.angle = angle
    start = try container.decodeIfPresent(Double.self, forKey: .start) ?? 0
    stop = try container.decodeIfPresent(Double.self, forKey: .stop) ?? 1
    guard start.isFinite, stop.isFinite, 0 <= start, start < stop, stop <= 1 else {
      throw corrupt(.stop, "not a time range")
    }
  }

  /// Set to `true` in a decoder's `userInfo` to refuse, rather than cut, text longer than
  /// `maximumCharacters` (in memesh's own files, such text is damage).
  public static let refusesLongText = CodingUserInfoKey(rawValue: "memesh.refusesLongText")!

  /// `text` cut to `maximumCharacters`, or the error `tooLong` makes when `decoder` refuses long
  /// text (`refusesLongText`).
  static func limited(
    _ text: String, _ decoder: any Decoder, tooLong: () -> DecodingError
  ) throws -> String {
    guard text.utf8.count > maximumCharacters, text.count > maximumCharacters else { return text }
    if decoder.userInfo[refusesLongText] as? Bool == true { throw tooLong() }
    return String(text.prefix(maximumCharacters))
  }

  /// Writes only what differs from the defaults.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    if !text.isEmpty { try container.encode(text, forKey: .text) }
    try container.encode(placement.description, forKey: .at)
    if alignment != .center { try container.encode(alignment.rawValue, forKey: .align) }
    if textCase != .upper { try container.encode(textCase.rawValue, forKey: .case) }
    if fill != .white { try container.encode(fill.description, forKey: .color) }
    if outline != .automatic { try container.encode(outline.description, forKey: .outline) }
    try container.encodeIfPresent(font, forKey: .font)
    if angle != 0 { try container.encode(angle, forKey: .angle) }
    if start != 0 { try container.encode(start, forKey: .start) }
    if stop != 1 { try container.encode(stop, forKey: .stop) }
  }
}
