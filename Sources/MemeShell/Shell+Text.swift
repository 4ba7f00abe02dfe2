import Foundation
import MemeCore
import MemeMedia

/// `text`: the meme's text boxes. Boxes are numbered from 1 in drawing order; MemeMe's top and
/// bottom captions are boxes 1 and 2 of a new draft.
///
///     text                                 list the boxes
///     text add TEXT [at X Y W H | at PLACE] add a box (in the middle unless placed)
///     text N TEXT                          box N's text (the rest of the line, as typed)
///     text N SETTING VALUE…                at, align, color, outline, font, angle, case
///     text rm N                            remove box N
extension Shell {
  /// `text …`: parses the words after `text` and runs one of its forms. Every change is one
  /// `EditorAction`, so one undo step.
  func text(_ arguments: Arguments) throws {
    let line = TextCommandLine(arguments)
    guard let first = line.firstWord else {
      listBoxes()
      return
    }
    switch first.lowercased() {
    case "add":
      try addBox(line.afterFirst, arguments)
    case "rm", "remove", "delete":
      let words = try line.words(of: line.afterFirst)
      guard words.count == 1 else {
        throw words.isEmpty
          ? arguments.usageError("'text rm' needs a box number")
          : arguments.usageError("unexpected '\(words[1])'")
      }
      try removeBox(try boxIndex(words[0]))
    default:
      let index = try boxIndex(first)
      let rest = line.afterFirst
      let (keyword, values) = TextCommandLine.firstWord(of: rest)
      // A setting's name followed by what reads as its value is that setting; anything else
      // is the box's text (`text 2 at last`).
      if let keyword,
        let setting = Self.boxSettings.first(where: { $0.name == keyword.lowercased() }),
        let words = try? line.words(of: values), setting.readsAsValue(words)
      {
        try changeBox(index, setting, words: words, arguments)
      } else if rest.isEmpty {
        printBox(index)
      } else {
        try setBoxText(index, try line.caption(rest))
      }
    }
  }

  // MARK: - Listing

  /// `text`: every box, two lines each.
  func listBoxes() {
    let boxes = state.recipe.boxes
    guard !boxes.isEmpty else {
      console.line("no text boxes; 'text add TEXT' adds one")
      return
    }
    for index in boxes.indices { printBox(index) }
  }

  /// Box `index` (from 0) as `text` lists it: number, place and text, then its style.
  func printBox(_ index: Int) {
    let box = state.recipe.boxes[index]
    console.line("\(index + 1)  \(place(of: box))  \(boxText(box, index: index))")
    console.line("   " + style(of: box))
  }

  /// `top (4% 3% 92% 28%)` for a named place (its rectangle on this picture), or the rectangle
  /// in percent of the picture.
  func place(of box: TextBox) -> String {
    guard case .rect(let frame) = box.placement else {
      guard let size = displayedSize else { return box.placement.description }
      return "\(box.placement) (\(box.placement.frame(in: size).percentages))"
    }
    return frame.percentages
  }

  /// The text quoted, or for an empty box what shows instead.
  func boxText(_ box: TextBox, index: Int) -> String {
    guard box.text.isEmpty else { return "\"\(Display.cell(box.text, limit: 60))\"" }
    switch index {
    case 0: return "\(EditorState.topPlaceholder) (placeholder, not drawn)"
    case 1: return "\(EditorState.bottomPlaceholder) (placeholder, not drawn)"
    default: return "(empty)"
    }
  }

  /// `center, upper, white, outline black (auto), font Anton (the meme's), angle 0°`.
  func style(of box: TextBox) -> String {
    let outline =
      switch box.outline {
      case .automatic: "outline \(box.outlineColor?.description ?? "none") (auto)"
      case .none: "no outline"
      case .color(let color): "outline \(color)"
      }
    let font =
      box.font.map { "font \(Display.cell($0, limit: 40))" }
      ?? "font \(Display.cell(state.recipe.font, limit: 40)) (the meme's)"
    let during =
      box.start == 0 && box.stop == 1
      ? [] : ["during \(Self.fraction(box.start))-\(Self.fraction(box.stop))"]
    return
      ([
        box.alignment.rawValue, box.textCase.rawValue, box.fill.description, outline, font,
        "angle \(Self.degrees(box.angle))°",
      ] + during).joined(separator: ", ")
  }

  /// The `info` lines of the boxes (`box 1: PLACE; STYLE; TEXT`, no `; TEXT` for an empty box),
  /// or none when the boxes are
  /// MemeMe's two captions as they have always been (the `top` and `bottom` keys say it all).
  func boxInfoLines() -> [(String, String)] {
    let recipe = state.recipe
    guard !recipe.hasCaptionLayout else { return [] }
    return recipe.boxes.enumerated().map { index, box in
      (
        "box \(index + 1)",
        "\(place(of: box)); \(style(of: box))" + (box.text.isEmpty ? "" : "; \(box.text)")
      )
    }
  }

  /// The picture's size as shown (after the crop), when a picture is loaded.
  var displayedSize: PixelSize? {
    guard let size = try? state.picture?.size else { return nil }
    return (try? state.recipe.crop.resolved(in: size))?.size ?? size
  }

  /// A fraction of an animation as `text N during` takes it (`0.5`, `1`).
  static func fraction(_ value: Double) -> String {
    value == value.rounded() ? String(Int(value)) : String(format: "%g", value)
  }

  static func degrees(_ angle: Double) -> String {
    angle == angle.rounded() ? String(Int(angle)) : String(format: "%.1f", angle)
  }

  // MARK: - Changes

  /// `text add TEXT [at …]`.
  private func addBox(_ rest: Substring, _ arguments: Arguments) throws {
    guard !rest.isEmpty else { throw arguments.usageError("'text add' needs the box's TEXT") }
    guard state.recipe.boxes.count < MemeRecipe.maximumBoxes else {
      throw ShellError.tooManyBoxes(limit: MemeRecipe.maximumBoxes)
    }
    let (text, placeWords) = try TextCommandLine(arguments).splitPlacement(rest)
    let placement = try placeWords.map { try parsePlacement($0, command: "text add") } ?? .middle
    let caption = limitedCaption(text, "new box's")
    let box = TextBox(text: caption, placement: placement)
    let placed = placeWords == nil ? "" : " at \(placeWords?.joined(separator: " ") ?? "")"
    apply(.addBox(box), label: "text add \"\(Display.cell(caption, limit: 40))\"\(placed)")
    console.line("added box \(state.recipe.boxes.count)")
    printBox(state.recipe.boxes.count - 1)
    warnAboutLength(caption)
  }

  /// `text N TEXT`.
  private func setBoxText(_ index: Int, _ text: String) throws {
    var box = state.recipe.boxes[index]
    box.text = limitedCaption(text, "box \(index + 1)'s")
    apply(
      .setBox(index: index, box),
      label: "text \(index + 1) \"\(Display.cell(box.text, limit: 40))\"")
    warnAboutLength(box.text)
  }

  /// `text rm N`.
  private func removeBox(_ index: Int) throws {
    let box = state.recipe.boxes[index]
    apply(.removeBox(index: index), label: "text rm \(index + 1)")
    let text = box.text.isEmpty ? "" : " \"\(Display.cell(box.text, limit: 40))\""
    let after = state.recipe.boxes.count > index ? "; the boxes after it moved up one" : ""
    console.line("removed box \(index + 1)\(text)\(after)")
  }

  /// `text N SETTING VALUE…`: the setting makes the new box, which is applied and listed.
  private func changeBox(
    _ index: Int, _ setting: TextBoxSetting, words: [String], _ arguments: Arguments
  ) throws {
    let command = "text \(index + 1) \(setting.name)"
    guard !words.isEmpty else {
      throw ShellError.usage(
        command: command, problem: "needs a value", firstWord: nil,
        usage: "text N \(setting.name) \(setting.usage)")
    }
    var box = state.recipe.boxes[index]
    try setting.change(self, &box, words, command)
    apply(.setBox(index: index, box), label: "\(command) \(words.joined(separator: " "))")
    printBox(index)
  }

  /// The index (from 0) of box `word` (from 1), or an error naming the boxes there are.
  func boxIndex(_ word: String) throws -> Int {
    let count = state.recipe.boxes.count
    guard let number = Int(word), number >= 1, number <= count else {
      throw ShellError.noSuchBox(command: "text", word: word, count: count)
    }
    return number - 1
  }

  // MARK: - Places

  /// `top`, `middle`, `bottom`, `left`, `right`, or `X Y W H`, each a percentage of the picture
  /// (`10%`) or pixels of it as shown (`12`, `12px`; needs a picture).
  func parsePlacement(_ words: [String], command: String) throws -> TextPlacement {
    if words.count == 1,
      let named = TextPlacement.named.first(where: {
        $0.description == words[0].lowercased()
      })
    {
      return named
    }
    guard words.count == 4 else {
      throw ShellError.badBoxValue(
        command: command, word: words.joined(separator: " "),
        expected: "X Y W H (10% 5% 80% 20%, or pixels) or top, middle, bottom, left, right")
    }
    var fractions: [Double] = []
    for (word, side) in zip(words, [\PixelSize.width, \.height, \.width, \.height]) {
      let lowered = word.lowercased()
      if lowered.hasSuffix("%"), let percent = Double(lowered.dropLast()), percent.isFinite {
        fractions.append(percent / 100)
      } else if let pixels = Double(
        lowered.hasSuffix("px") ? String(lowered.dropLast(2)) : lowered),
        pixels.isFinite
      {
        guard let size = displayedSize else {
          throw ShellError.badBoxValue(
            command: command, word: word,
            expected: "a percentage like 10%: pixels need a picture ('load PATH' one first)")
        }
        fractions.append(pixels / Double(max(1, size[keyPath: side])))
      } else {
        throw ShellError.badBoxValue(
          command: command, word: word, expected: "a percentage like 10% or a number of pixels")
      }
    }
    let frame = TextFrame(
      x: fractions[0], y: fractions[1], width: fractions[2], height: fractions[3])
    guard frame.isReasonable else {
      throw ShellError.badBoxValue(
        command: command, word: words.joined(separator: " "),
        expected: "a rectangle with a positive width and height that reaches the picture")
    }
    return .rect(frame)
  }

  // MARK: - Settings

  /// What `text N NAME VALUE` can change, one value per setting: the shell's parsing, the
  /// completion of its values and the help all read this list.
  static let boxSettings: [TextBoxSetting] = [
    TextBoxSetting(
      name: "at", usage: "X Y W H | top | middle | bottom | left | right",
      choices: { _ in TextPlacement.named.map(\.description) },
      readsAsValue: { $0.first.map(TextCommandLine.startsAPlace) ?? true }
    ) { shell, box, words, command in
      box.placement = try shell.parsePlacement(words, command: command)
    },
    TextBoxSetting(
      name: "align", usage: "left | center | right",
      choices: { _ in TextAlignment.allCases.map(\.rawValue) }
    ) { _, box, words, command in
      box.alignment = try TextBoxSetting.oneWord(words, command, "left, center or right") {
        TextAlignment(rawValue: $0.lowercased())
      }
    },
    TextBoxSetting(
      name: "color", usage: "NAME | #RRGGBB", choices: { _ in TextColor.names.map(\.name) }
    ) { _, box, words, command in
      box.fill = try TextBoxSetting.oneWord(
        words, command, "a colour name (white, black, red, yellow…) or #RRGGBB",
        TextColor.init(parsing:))
    },
    TextBoxSetting(
      name: "outline", usage: "NAME | #RRGGBB | none | auto",
      choices: { _ in ["none", "auto"] + TextColor.names.map(\.name) }
    ) { _, box, words, command in
      box.outline = try TextBoxSetting.oneWord(
        words, command,
        "a colour name or #RRGGBB, none, or auto (black on light text, white on dark)",
        TextOutline.init(parsing:))
    },
    TextBoxSetting(
      name: "font", usage: "NAME | default",
      choices: { shell in
        ["default"] + shell.catalog.fonts().filter { $0.problem == nil }.map(\.name)
      },
      // A font's name may have spaces (`DejaVu Serif`): the rest of the line is one.
      readsAsValue: { _ in true }
    ) { shell, box, words, command in
      let name = words.joined(separator: " ")
      if name.lowercased() == "default" {
        box.font = nil
      } else {
        do {
          box.font = try shell.catalog.resolve(name).name
        } catch let error as FontError {
          throw ShellError.boxFont(command: command, error)
        }
      }
    },
    TextBoxSetting(name: "angle", usage: "DEGREES (-360 to 360, clockwise)", choices: { _ in [] }) {
      _, box, words, command in
      box.angle = try TextBoxSetting.oneWord(words, command, "degrees from -360 to 360 (clockwise)")
      {
        guard let angle = Double($0.hasSuffix("°") ? String($0.dropLast()) : $0), angle.isFinite,
          abs(angle) <= 360
        else { return nil }
        return angle
      }
    },
    TextBoxSetting(
      name: "during", usage: "START-STOP | all (fractions of an animation: 0.5-1)",
      choices: { _ in ["all"] }
    ) { _, box, words, command in
      (box.start, box.stop) = try Animations.timeRange(words, command: command)
    },
    TextBoxSetting(
      name: "case", usage: "upper | as-typed", choices: { _ in TextCase.allCases.map(\.rawValue) }
    ) { _, box, words, command in
      box.textCase = try TextBoxSetting.oneWord(words, command, "upper or as-typed") {
        TextCase(rawValue: $0.lowercased())
      }
    },
  ]
}

/// One thing `text N NAME VALUE` changes in a box: its name, what it takes, the values Tab
/// offers, and how the words after it change the box (throwing a one-line error, the box then
/// unchanged).
struct TextBoxSetting: Sendable {
  var name: String
  var usage: String
  var choices: @Sendable (Shell) -> [String]
  var change: @Sendable (Shell, inout TextBox, [String], _ command: String) throws -> Void
  /// Whether the words after the setting's name are meant as its value (then a bad one is an
  /// error) rather than as the start of the box's text: by default one word (or none, which
  /// asks for a value).
  var readsAsValue: @Sendable ([String]) -> Bool

  init(
    name: String, usage: String, choices: @escaping @Sendable (Shell) -> [String],
    readsAsValue: @escaping @Sendable ([String]) -> Bool = { $0.count <= 1 },
    change: @escaping @Sendable (Shell, inout TextBox, [String], _ command: String) throws -> Void
  ) {
    self.name = name
    self.usage = usage
    self.choices = choices
    self.readsAsValue = readsAsValue
    self.change = change
  }

  /// The one word of `words` as `parse` reads it, or the error saying that the words are not
  /// `expected`.
  static func oneWord<Value>(
    _ words: [String], _ command: String, _ expected: String, _ parse: (String) -> Value?
  ) throws -> Value {
    guard words.count == 1, let value = parse(words[0]) else {
      throw ShellError.badBoxValue(
        command: command, word: words.joined(separator: " "), expected: expected)
    }
    return value
  }
}

/// The words after `text`. `text` is a caption command (`ShellCommand.takesText`), so unless the
/// line after `text` starts with a quote the tokenizer hands over the rest of the line as typed,
/// one piece of text; this splits off the leading words (`add`, a box number, a setting) and
/// leaves a caption as typed, apostrophes included.
struct TextCommandLine {
  /// The rest of the line as typed (backslash escapes done), or nil when it was split into words.
  let raw: String?
  /// The words, when the line after `text` started with a quote.
  let tokens: [String]

  init(_ arguments: Arguments) {
    let tokens = arguments.tokens
    if tokens.count == 1, tokens[0].isLiteral {
      raw = tokens[0].text
    } else if tokens.count == 3, tokens[1].text == "|", !tokens[1].isLiteral,
      tokens[0].isLiteral, tokens[2].isLiteral
    {
      // The tokenizer splits a caption at its first bar (for 'caption'); a box's text keeps it,
      // as 'top a | b' does.
      raw = [tokens[0].text, "|", tokens[2].text].filter { !$0.isEmpty }.joined(separator: " ")
    } else {
      raw = nil
    }
    self.tokens = tokens.map(\.text)
  }

  /// The first word after `text`, nil when there is none.
  var firstWord: String? {
    if let raw { return Self.firstWord(of: Substring(raw)).word }
    return tokens.first
  }

  /// What follows the first word.
  var afterFirst: Substring {
    if let raw { return Self.firstWord(of: Substring(raw)).rest }
    return Substring(tokens.dropFirst().map(Self.requoted).joined(separator: " "))
  }

  /// The first space-separated word of `text` and the rest (leading blanks dropped).
  static func firstWord(of text: Substring) -> (word: String?, rest: Substring) {
    let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
    let start = text.drop(while: isBlank)
    let word = start.prefix(while: { !isBlank($0) })
    guard !word.isEmpty else { return (nil, start) }
    return (String(word), start.dropFirst(word.count).drop(while: isBlank))
  }

  /// A word of a line that was split, written back so that `words(of:)` and `caption(_:)`
  /// read it again as one word: as it is when plain, else in quotes.
  static func requoted(_ word: String) -> String {
    if !word.isEmpty, !word.contains(where: { " \t'\"\\".contains($0) }) { return word }
    if !word.contains("'") { return "'" + word + "'" }
    let escaped = word.replacingOccurrences(of: "\\", with: "\\\\")
      .replacingOccurrences(of: "\"", with: "\\\"")
    return "\"" + escaped + "\""
  }

  /// `text` split into shell words (quotes respected).
  func words(of text: Substring) throws -> [String] {
    do {
      return try CommandTokenizer.tokenize(String(text)).map(\.text)
    } catch {
      throw ShellError.usage(
        command: "text", problem: error.message, firstWord: nil, usage: "text N SETTING VALUE")
    }
  }

  /// A caption: the text as typed, or, when it starts with a quote, the quoted words joined by
  /// spaces (as `top "I SEE" what you did` reads).
  func caption(_ text: Substring) throws -> String {
    guard let first = text.first, first == "'" || first == "\"" else { return String(text) }
    return try words(of: text).joined(separator: " ")
  }

  /// Splits `text add`'s words into the text and the words after a final `at` that starts a
  /// place (`at 10% 5% 80% 20%`, `at top`); with no such `at`, all of it is text.
  func splitPlacement(_ rest: Substring) throws -> (text: String, place: [String]?) {
    if rest.first == "'" || rest.first == "\"" {
      // Quoted text: an `at` inside the quotes is text.
      let tokens: [CommandTokenizer.Token]
      do {
        tokens = try CommandTokenizer.tokenize(String(rest))
      } catch {
        throw ShellError.usage(
          command: "text add", problem: error.message, firstWord: nil, usage: "text add TEXT")
      }
      for at in tokens.indices.reversed()
      where at > 0 && !tokens[at].isLiteral && tokens[at].text.lowercased() == "at" {
        let place = tokens[(at + 1)...].map(\.text)
        guard let next = place.first, Self.startsAPlace(next) else { continue }
        return (tokens[..<at].map(\.text).joined(separator: " "), place)
      }
      return (tokens.map(\.text).joined(separator: " "), nil)
    }
    // Text as typed: split at the blanks, so the text before `at` keeps its own spacing.
    var words: [Substring] = []
    var index = rest.startIndex
    while index < rest.endIndex {
      if rest[index] == " " || rest[index] == "\t" {
        index = rest.index(after: index)
        continue
      }
      let start = index
      while index < rest.endIndex, rest[index] != " ", rest[index] != "\t" {
        index = rest.index(after: index)
      }
      words.append(rest[start..<index])
    }
    for at in words.indices.reversed() where at > 0 && words[at].lowercased() == "at" {
      let place = words[(at + 1)...].map(String.init)
      guard let next = place.first, Self.startsAPlace(next) else { continue }
      return (trimmed(rest[..<words[at].startIndex]), place)
    }
    return (trimmed(rest), nil)
  }

  private func trimmed(_ text: Substring) -> String {
    String(text).trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
  }

  /// Whether `word` after `at` starts a place: a named one, or a number.
  static func startsAPlace(_ word: String) -> Bool {
    TextPlacement.named.contains { $0.description == word.lowercased() }
      || word.first.map { $0.isNumber || $0 == "-" || $0 == "." || $0 == "+" } == true
  }
}
