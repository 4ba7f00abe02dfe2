import Foundation
import MemeCore
import Yams

/// A memegen template's `config.yml`: its name, its text boxes and their example texts, and the
/// names of its alternate pictures (`styles`).
///
/// memegen (github.com/jacebrowning/memegen) keeps each template as a folder holding
/// `config.yml` and `default.png|jpg|gif|webp`. Its keys, as memegen's `Template` and `Text`
/// models read them: `name`, `source`, `keywords`, `text` (a list of boxes), `example` (the
/// boxes' sample texts; older configs call it `sample`), `styles` (alternate pictures, one file
/// each, named after the style) and `overlay` (where memegen pastes a custom picture; memesh has
/// no overlays and only checks it). Any other key is refused: a typo would otherwise be lost
/// without a word.
public struct MemegenConfig: Sendable, Equatable {
  public var name: String?
  public var source: String?
  public var keywords: [String]
  /// The boxes in order; memegen's two default boxes (top and bottom fifth) when `text` is
  /// missing.
  public var texts: [MemegenText]
  /// The sample texts, one per box (fewer or more than the boxes is allowed, as in memegen).
  public var examples: [String]
  public var styles: [String]

  public init(
    name: String? = nil, source: String? = nil, keywords: [String] = [],
    texts: [MemegenText] = MemegenText.defaults, examples: [String] = [],
    styles: [String] = []
  ) {
    self.name = name
    self.source = source
    self.keywords = keywords
    self.texts = texts
    self.examples = examples
    self.styles = styles
  }

  /// The largest `config.yml` read: memegen's own are a few hundred bytes.
  public static let maximumBytes = 64 << 10
  /// The most boxes, examples, styles or keywords a config may list.
  public static let maximumEntries = 64
  /// The longest name, source, keyword or style read.
  public static let maximumWordBytes = 1024
  /// How deeply a config may nest (indentation, `- ` and brackets together): memegen's are 3
  /// deep. Yams builds its tree by recursion, so a file nested thousands deep is refused first.
  static let maximumNesting = 100

  /// The top-level keys memegen reads.
  public static let keys = [
    "name", "source", "keywords", "text", "example", "sample", "styles",
    "overlay",
  ]

  /// Parses `data`, the bytes of the file `path` (named in errors). Bad YAML, an unknown key, a
  /// value of the wrong type or out of range is a `StoreError.badTemplate` naming the line.
  public static func parse(_ data: Data, path: String) throws(StoreError) -> MemegenConfig {
    func fail(_ problem: String) -> StoreError { .badTemplate(path: path, problem: problem) }
    guard data.count <= maximumBytes else {
      throw fail("larger than \(maximumBytes / 1024) KB; memegen's are a few hundred bytes")
    }
    guard let text = String(data: data, encoding: .utf8) else { throw fail("not UTF-8 text") }
    if let problem = YAMLPrecheck.problem(in: text) { throw fail(problem) }
    let root: Node?
    do {
      root = try Yams.compose(yaml: text)
    } catch let error as YamlError {
      throw fail("not valid YAML: " + Self.describe(error))
    } catch {
      throw fail("not valid YAML")
    }
    guard let root else { throw fail("empty; memegen's config.yml lists the text boxes") }
    do {
      return try ConfigReader().config(root)
    } catch let problem {
      throw fail(problem.message)
    }
  }

  /// Yams's error in one line: `line 3: mapping values are not allowed in this context`.
  private static func describe(_ error: YamlError) -> String {
    switch error {
    case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _),
      .composer(_, let problem, let mark, _):
      return "line \(mark.line): \(problem)"
    case .reader(let problem, _, _, _):
      return problem
    case .duplicatedKeysInMapping(let duplicates, let context):
      let names = duplicates.map { "'\($0)'" }.joined(separator: ", ")
      return "line \(context.mark.line): \(names) given twice"
    default:
      return "\(error)".split(separator: "\n").first.map(String.init) ?? "unreadable"
    }
  }
}

/// One memegen text box, with memegen's defaults (its `Text` model): the box's top-left corner
/// at (`anchorX`, `anchorY`) and its size (`scaleX`, `scaleY`), all fractions of the picture's
/// width and height; `angle` in degrees counter-clockwise (memegen turns the box with Pillow's
/// `rotate`); `style` the case (`upper`, `lower`, `none` as typed, `default` sentence case,
/// `mock`…); `color` a CSS name or `#RRGGBB`, optionally with alpha; `start`/`stop` the part of
/// an animation it shows in.
public struct MemegenText: Sendable, Equatable {
  public var style = "upper"
  public var color = "white"
  /// A memegen font id or alias; nil when not given (memegen's default, Titillium Web Black).
  public var font: String?
  public var anchorX = 0.0
  public var anchorY = 0.0
  public var angle = 0.0
  public var scaleX = 1.0
  public var scaleY = 0.2
  public var align = "center"
  public var start = 0.0
  public var stop = 1.0
  /// The line of `config.yml` the box starts on (for notes); 0 when made here.
  public var line = 0

  public init() {}

  /// memegen's boxes when a config has no `text`: the top fifth and the bottom fifth.
  public static let defaults: [MemegenText] = {
    var bottom = MemegenText()
    bottom.anchorY = 0.8
    return [MemegenText(), bottom]
  }()

  /// The keys a box may have.
  public static let keys = [
    "style", "color", "font", "anchor_x", "anchor_y", "angle", "scale_x",
    "scale_y", "align", "start", "stop",
  ]
  /// The styles memegen draws (its own and the Python string methods it calls).
  public static let styles = [
    "upper", "lower", "none", "default", "mock", "title",
    "capitalize", "swapcase",
  ]
  /// memegen's font ids and aliases.
  public static let fonts = [
    "titilliumweb", "thick", "notosans", "kalam", "comic", "impact",
    "titilliumweb-thin", "thin", "segoe", "tiny",
  ]
  /// The range each number may take: memegen checks none, these keep a box near the picture.
  static let ranges: [String: ClosedRange<Double>] = [
    "anchor_x": -1...2, "anchor_y": -1...2, "scale_x": 0.001...4, "scale_y": 0.001...4,
    "angle": -360...360, "start": 0...1, "stop": 0...1,
  ]
}

// MARK: - Reading the tree

/// Why a config is refused, with the line it is about.
struct ConfigProblem: Error {
  var message: String

  init(_ node: Node?, _ problem: String) {
    if let line = node?.mark?.line {
      message = "line \(line): \(problem)"
    } else {
      message = problem
    }
  }
}

/// Walks the composed YAML, checking each value's type and range.
private struct ConfigReader {
  func config(_ root: Node) throws(ConfigProblem) -> MemegenConfig {
    guard let mapping = root.mapping else {
      throw ConfigProblem(root, "not a mapping of memegen's keys (name, text, example…)")
    }
    var config = MemegenConfig()
    var sample: [String]?
    var example: [String]?
    for (keyNode, value) in mapping {
      let key = try self.key(keyNode)
      switch key {
      case "name": config.name = try word(value, key)
      case "source": config.source = try word(value, key, allowingNull: true)
      case "keywords": config.keywords = try words(value, key)
      case "styles": config.styles = try styleNames(value)
      case "example": example = try words(value, key, allowingNull: true)
      case "sample": sample = try words(value, key, allowingNull: true)
      case "text": config.texts = try texts(value)
      case "overlay": try overlays(value)
      default:
        throw ConfigProblem(
          keyNode,
          "unknown key '\(key)' (memegen's keys: "
            + MemegenConfig.keys.joined(separator: ", ") + ")")
      }
    }
    config.examples = example ?? sample ?? []
    return config
  }

  private func key(_ node: Node) throws(ConfigProblem) -> String {
    guard let key = node.scalar?.string else {
      throw ConfigProblem(node, "a key must be a word")
    }
    return key
  }

  /// A scalar as text (a number or `yes` as written); nil for `null` or `~` when allowed.
  private func word(_ node: Node, _ key: String, allowingNull: Bool = false)
    throws(ConfigProblem) -> String?
  {
    guard let scalar = node.scalar else {
      throw ConfigProblem(node, "\(key) must be text, not a \(kind(node))")
    }
    if allowingNull, scalar.style == .plain,
      ["", "~", "null", "Null", "NULL"].contains(scalar.string)
    {
      return nil
    }
    guard scalar.string.utf8.count <= MemegenConfig.maximumWordBytes else {
      throw ConfigProblem(node, "\(key) is longer than \(MemegenConfig.maximumWordBytes) bytes")
    }
    return scalar.string
  }

  /// A list of scalars (a single scalar counts as a list of one, as memegen's loader allows).
  private func words(_ node: Node, _ key: String, allowingNull: Bool = false)
    throws(ConfigProblem) -> [String]
  {
    if node.scalar != nil {
      return try word(node, key, allowingNull: allowingNull).map { [$0] } ?? []
    }
    guard let sequence = node.sequence else {
      throw ConfigProblem(node, "\(key) must be a list, not a \(kind(node))")
    }
    guard sequence.count <= MemegenConfig.maximumEntries else {
      throw ConfigProblem(node, "\(key) lists more than \(MemegenConfig.maximumEntries) entries")
    }
    var result: [String] = []
    for item in sequence {
      guard item.scalar != nil else {
        throw ConfigProblem(item, "each entry of \(key) must be text, not a \(kind(item))")
      }
      if let text = try word(item, key, allowingNull: allowingNull) {
        guard text.count <= TextBox.maximumCharacters else {
          throw ConfigProblem(item, "an entry of \(key) is too long")
        }
        result.append(text)
      } else {
        result.append("")
      }
    }
    return result
  }

  /// Style names: each becomes a file name (`<style>.png`), so only letters, digits, `-`, `_`.
  private func styleNames(_ node: Node) throws(ConfigProblem) -> [String] {
    let names = try words(node, "styles")
    for (position, name) in names.enumerated() {
      guard TemplateName.isValidStyle(name) else {
        let item = node.sequence.flatMap { position < $0.count ? $0[position] : nil }
        throw ConfigProblem(
          item ?? node, "style '\(name)' is not a file name (letters, digits, '-' and '_')")
      }
    }
    guard Set(names).count == names.count else {
      throw ConfigProblem(node, "styles names a style twice")
    }
    return names
  }

  private func texts(_ node: Node) throws(ConfigProblem) -> [MemegenText] {
    guard let sequence = node.sequence else {
      throw ConfigProblem(node, "text must be a list of boxes, not a \(kind(node))")
    }
    guard sequence.count <= MemegenConfig.maximumEntries else {
      throw ConfigProblem(node, "text lists more than \(MemegenConfig.maximumEntries) boxes")
    }
    var result: [MemegenText] = []
    for (position, item) in sequence.enumerated() {
      result.append(try text(item, number: position + 1))
    }
    return result
  }

  private func text(_ node: Node, number: Int) throws(ConfigProblem) -> MemegenText {
    let name = "text \(number)"
    guard let mapping = node.mapping else {
      throw ConfigProblem(node, "\(name) must be a mapping (anchor_x: …), not a \(kind(node))")
    }
    var text = MemegenText()
    text.line = node.mark?.line ?? 0
    for (keyNode, value) in mapping {
      let key = try self.key(keyNode)
      let label = "\(name): \(key)"
      switch key {
      case "style":
        let style = try word(value, label) ?? ""
        guard MemegenText.styles.contains(style.lowercased()) else {
          throw ConfigProblem(
            value,
            "\(label) '\(style)' is not one of memegen's ("
              + MemegenText.styles.joined(separator: ", ") + ")")
        }
        text.style = style.lowercased()
      case "color":
        text.color = try word(value, label) ?? ""
        guard MemegenColor(text.color) != nil else {
          throw ConfigProblem(
            value, "\(label) '\(text.color)' is not a colour (a CSS name or #RRGGBB)")
        }
      case "font":
        let font = try word(value, label) ?? ""
        guard MemegenText.fonts.contains(font.lowercased()) else {
          throw ConfigProblem(
            value,
            "\(label) '\(font)' is not one of memegen's fonts ("
              + MemegenText.fonts.joined(separator: ", ") + ")")
        }
        text.font = font.lowercased()
      case "align":
        let align = try word(value, label) ?? ""
        guard TextAlignment(rawValue: align.lowercased()) != nil else {
          throw ConfigProblem(value, "\(label) '\(align)' is not left, center or right")
        }
        text.align = align.lowercased()
      case "anchor_x": text.anchorX = try decimal(value, key, label)
      case "anchor_y": text.anchorY = try decimal(value, key, label)
      case "angle": text.angle = try decimal(value, key, label)
      case "scale_x": text.scaleX = try decimal(value, key, label)
      case "scale_y": text.scaleY = try decimal(value, key, label)
      case "start": text.start = try decimal(value, key, label)
      case "stop": text.stop = try decimal(value, key, label)
      default:
        throw ConfigProblem(
          keyNode,
          "unknown key '\(key)' in \(name) (memegen's: "
            + MemegenText.keys.joined(separator: ", ") + ")")
      }
    }
    guard text.start < text.stop else {
      throw ConfigProblem(node, "\(name): start \(text.start) is not before stop \(text.stop)")
    }
    return text
  }

  /// memegen's overlays: checked as memegen reads them, then not used.
  private func overlays(_ node: Node) throws(ConfigProblem) {
    guard let sequence = node.sequence, sequence.count <= MemegenConfig.maximumEntries else {
      throw ConfigProblem(node, "overlay must be a list of center_x, center_y, angle, scale")
    }
    let ranges: [String: ClosedRange<Double>] = [
      "center_x": -1...2, "center_y": -1...2, "angle": -360...360, "scale": 0...4,
    ]
    for item in sequence {
      guard let mapping = item.mapping else {
        throw ConfigProblem(item, "an overlay must be a mapping (center_x: …)")
      }
      for (keyNode, value) in mapping {
        let key = try self.key(keyNode)
        guard let range = ranges[key] else {
          throw ConfigProblem(
            keyNode, "unknown key '\(key)' in overlay (memegen's: center_x, center_y, angle, scale)"
          )
        }
        _ = try decimal(value, key, "overlay: \(key)", range: range)
      }
    }
  }

  private func decimal(
    _ node: Node, _ key: String, _ label: String, range: ClosedRange<Double>? = nil
  ) throws(ConfigProblem) -> Double {
    guard let scalar = node.scalar else {
      throw ConfigProblem(node, "\(label) must be a number, not a \(kind(node))")
    }
    let written = scalar.string
    guard written.utf8.count <= 40,
      let value = Double(written.replacingOccurrences(of: "_", with: "")),
      !written.contains(where: { $0.isLetter && $0 != "e" && $0 != "E" })
    else {
      throw ConfigProblem(node, "\(label) '\(written.prefix(40))' is not a number")
    }
    let allowed = range ?? MemegenText.ranges[key] ?? -1e6...1e6
    guard value.isFinite, allowed.contains(value) else {
      throw ConfigProblem(
        node,
        "\(label) \(written) is out of range (\(Self.format(allowed.lowerBound)) to "
          + "\(Self.format(allowed.upperBound)))")
    }
    return value
  }

  private static func format(_ value: Double) -> String {
    value == value.rounded() ? String(Int(value)) : String(value)
  }

  private func kind(_ node: Node) -> String {
    switch node {
    case .scalar: "single value"
    case .mapping: "mapping"
    case .sequence: "list"
    case .alias: "alias"
    }
  }
}

// MARK: - Before parsing

/// Checks YAML text before Yams reads it, for what would make reading it costly: nesting deeper
/// than `MemegenConfig.maximumNesting` (Yams composes by recursion) and anchors or aliases (an
/// alias repeats a whole subtree, and a key built of nested aliases is hashed in full: the
/// "billion laughs"). memegen's configs use neither. The check is lexical and errs on refusing:
/// `&` or `*` where a value may start, outside quotes, counts as an anchor or alias.
enum YAMLPrecheck {
  static func problem(in text: String) -> String? {
    var flowDepth = 0
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false)
      .enumerated()
    {
      let number = index + 1
      let characters = Array(line.unicodeScalars)
      var position = 0
      while position < characters.count, characters[position] == " " { position += 1 }
      let indent = position
      var blockIndicators = 0
      var quote: Unicode.Scalar?
      var atValueStart = true
      while position < characters.count {
        let character = characters[position]
        defer { position += 1 }
        if let open = quote {
          if character == "\\", open == "\"" {
            position += 1
          } else if character == open {
            quote = nil
          }
          continue
        }
        if character == "#", position == 0 || characters[position - 1] == " " { break }
        let next = position + 1 < characters.count ? characters[position + 1] : " "
        if atValueStart {
          switch character {
          case " ": continue
          case "&", "*":
            return "line \(number): anchors and aliases (& and *) are not read; "
              + "write the value out (quote a text starting with \(character))"
          case "\"", "'":
            quote = character
            atValueStart = false
            continue
          case "-", "?", ":":
            if next == " " || next == "\t" {
              blockIndicators += 1
              continue
            }
          case "[", "{":
            flowDepth += 1
            continue
          default: break
          }
          atValueStart = false
        }
        switch character {
        case ":" where next == " " || next == "\t" || flowDepth > 0:
          atValueStart = true
        case "," where flowDepth > 0:
          atValueStart = true
        case "[", "{":
          if flowDepth > 0 {
            flowDepth += 1
            atValueStart = true
          }
        case "]", "}":
          if flowDepth > 0 { flowDepth -= 1 }
        default: break
        }
      }
      if indent + blockIndicators + flowDepth > MemegenConfig.maximumNesting {
        return "line \(number): nested more than \(MemegenConfig.maximumNesting) deep"
      }
    }
    return nil
  }
}
