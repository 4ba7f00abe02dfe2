@preconcurrency import CFribidi
@preconcurrency import CHarfBuzz
import Foundation

/// One positioned glyph, in em (multiply by the font size for pixels); y grows upwards.
struct ShapedGlyph {
  let face: FontFace
  let glyph: UInt32
  let x: Double
  let y: Double
}

/// A line shaped by HarfBuzz, runs in visual order.
struct ShapedLine {
  var glyphs: [ShapedGlyph] = []
  /// The advance width in em.
  var width: Double = 0
  /// Fallback faces used, with the characters each drew.
  var fallbacks: [(face: FontFace, characters: String)] = []
  /// Characters no installed font has (left out).
  var missing: [Unicode.Scalar] = []
  /// Emoji drawn from a font without color (no color emoji font installed).
  var monochromeEmoji: [Character] = []
}

/// Splits text into runs of one font and one bidi level, shapes each with HarfBuzz.
///
/// Characters the primary font lacks are drawn from a fallback font found through fontconfig.
/// Directions follow the Unicode bidi algorithm (FriBiDi): embedding levels for the line in the
/// caption's paragraph direction, runs reordered by those levels (rule L2), each run shaped in
/// its own direction, so `عام 2024 سعيد` keeps its digits in order.
struct TextShaper {
  let primary: FontFace
  let engine: FontEngine
  /// Fonts tried before asking fontconfig (the bundled DejaVu Sans Bold), so that Latin,
  /// Cyrillic, Greek, Arabic and Hebrew look the same on every machine; asked for (and so
  /// opened) only when the primary font lacks a character.
  var preferredFallbacks: () -> [FontFace] = { [] }
  /// The paragraph direction of the whole caption (`paragraphIsRightToLeft`), so every line of
  /// it is laid out alike; nil: each line's first strong letter decides.
  var rightToLeft: Bool?

  /// A text fallback: the first preferred font that has `scalar`, else fontconfig's choice.
  private func textFallback(for scalar: Unicode.Scalar) -> FontFace? {
    preferredFallbacks().first { $0 !== primary && $0.covers(scalar) }
      ?? engine.fallback(for: scalar, emoji: false)
  }

  private struct Run {
    var face: FontFace
    /// The bidi embedding level: odd is right to left.
    var level: Int8
    var text: String

    var rightToLeft: Bool { level % 2 == 1 }
  }

  /// Shapes one line.
  func shape(_ line: String) -> ShapedLine {
    var result = ShapedLine()
    var runs: [Run] = []
    var wordFace: FontFace?
    var wordStart = true
    let characters = Array(line)
    let levels = TextShaper.bidiLevels(of: characters, rightToLeft: rightToLeft)
    for (position, character) in characters.enumerated() {
      let level = levels[position]
      if character.isWhitespace {
        wordStart = true
      } else if wordStart {
        wordStart = false
        wordFace = faceForWord(characters[position...].prefix { !$0.isWhitespace })
      }
      guard let face = chooseFace(for: character, preferring: wordFace, into: &result) else {
        continue
      }
      // A space stays in the run it follows unless that is an emoji font, whose space is as
      // wide as an emoji.
      let joinsRun = { (last: Run) in
        last.face === face || (character.isWhitespace && !last.face.isColor)
      }
      if var last = runs.last, last.level == level, joinsRun(last) {
        last.text.append(character)
        runs[runs.count - 1] = last
      } else {
        runs.append(Run(face: face, level: level, text: String(character)))
      }
    }
    var pen = 0.0
    for run in TextShaper.visualOrder(runs, levels: runs.map(\.level)) {
      pen = shapeRun(run, at: pen, into: &result)
    }
    result.width = pen
    return result
  }

  // MARK: - Bidi

  /// True when `text`'s first strong letter is right to left (Unicode bidi rules P2–P3).
  static func paragraphIsRightToLeft(_ text: String) -> Bool {
    let types = bidiTypes(of: text.unicodeScalars.map(\.value))
    return fribidi_get_par_direction(types, FriBidiStrIndex(types.count)) == FRIBIDI_PAR_RTL
  }

  private static func bidiTypes(of scalars: [UInt32]) -> [FriBidiCharType] {
    var types = [FriBidiCharType](repeating: FRIBIDI_TYPE_ON, count: scalars.count)
    fribidi_get_bidi_types(scalars, FriBidiStrIndex(scalars.count), &types)
    return types
  }

  /// The embedding level of every character (of its first scalar), by the Unicode bidi
  /// algorithm in the given paragraph direction (nil: the first strong letter's).
  static func bidiLevels(of characters: [Character], rightToLeft: Bool?) -> [Int8] {
    let scalars = characters.flatMap(\.unicodeScalars).map(\.value)
    guard !scalars.isEmpty, scalars.count < Int(Int32.max) else {
      return [Int8](repeating: 0, count: characters.count)
    }
    let types = bidiTypes(of: scalars)
    var brackets = [FriBidiBracketType](repeating: 0, count: scalars.count)
    fribidi_get_bracket_types(scalars, FriBidiStrIndex(scalars.count), types, &brackets)
    var direction: FriBidiParType =
      switch rightToLeft {
      case true?: FRIBIDI_PAR_RTL
      case false?: FRIBIDI_PAR_LTR
      case nil: FRIBIDI_PAR_ON
      }
    var levels = [FriBidiLevel](repeating: 0, count: scalars.count)
    let found = fribidi_get_par_embedding_levels_ex(
      types, brackets, FriBidiStrIndex(scalars.count), &direction, &levels)
    // 0 is FriBiDi's failure (out of memory): everything left to right, as before bidi.
    guard found > 0 else { return [Int8](repeating: 0, count: characters.count) }
    var result: [Int8] = []
    result.reserveCapacity(characters.count)
    var index = 0
    for character in characters {
      result.append(Int8(levels[index]))
      index += character.unicodeScalars.count
    }
    return result
  }

  /// `items` in visual order by their bidi `levels` (rule L2): from the highest level down to
  /// the lowest odd one, every sequence at that level or above is reversed.
  static func visualOrder<Item>(_ items: [Item], levels: [Int8]) -> [Item] {
    guard let highest = levels.max(), let lowestOdd = levels.filter({ $0 % 2 == 1 }).min()
    else { return items }
    var order = Array(items.indices)
    var level = highest
    while level >= lowestOdd {
      var start = 0
      while start < order.count {
        guard levels[order[start]] >= level else {
          start += 1
          continue
        }
        var end = start
        while end < order.count && levels[order[end]] >= level { end += 1 }
        order[start..<end].reverse()
        start = end
      }
      level -= 1
    }
    return order.map { items[$0] }
  }

  /// A word the primary font cannot draw whole is drawn whole in one fallback when it can be,
  /// so that letters of one word never mix two fonts.
  private func faceForWord(_ word: ArraySlice<Character>) -> FontFace? {
    let scalars = word.flatMap(\.unicodeScalars).filter {
      !TextShaper.ignorable.contains($0.value) && !$0.properties.isEmojiPresentation
    }
    guard let uncovered = scalars.first(where: { !primary.covers($0) }) else { return nil }
    guard let fallback = textFallback(for: uncovered),
      scalars.allSatisfy(fallback.covers)
    else { return nil }
    return fallback
  }

  private static let ignorable: Set<UInt32> = [0x200C, 0x200D, 0xFE0E, 0xFE0F]

  /// The face to draw `character` in: the primary font when it has every code point, an emoji
  /// font first for emoji, else a fallback; nil (and recorded as missing) when none has it.
  private func chooseFace(
    for character: Character, preferring preferred: FontFace?, into result: inout ShapedLine
  ) -> FontFace? {
    if character.isWhitespace { return primary }
    let scalars = character.unicodeScalars.filter { !TextShaper.ignorable.contains($0.value) }
    guard let first = scalars.first else { return primary }
    let wantsEmoji =
      character.unicodeScalars.contains { $0.value == 0xFE0F }
      || (first.properties.isEmojiPresentation && first.value > 0xFF)
    if !wantsEmoji && scalars.allSatisfy(primary.covers) && preferred == nil { return primary }
    let uncovered = scalars.first { !primary.covers($0) } ?? first
    var candidate =
      wantsEmoji
      ? engine.fallback(for: first, emoji: true)
      : (preferred ?? textFallback(for: uncovered))
    if candidate == nil && wantsEmoji {
      if scalars.allSatisfy(primary.covers) { return primary }
      candidate = textFallback(for: uncovered)
    }
    guard let face = candidate else {
      for scalar in scalars where !primary.covers(scalar) && !result.missing.contains(scalar) {
        result.missing.append(scalar)
      }
      return nil
    }
    for scalar in scalars where !face.covers(scalar) && !result.missing.contains(scalar) {
      result.missing.append(scalar)
    }
    if wantsEmoji && !face.isColor && !result.monochromeEmoji.contains(character) {
      result.monochromeEmoji.append(character)
    }
    if let index = result.fallbacks.firstIndex(where: { $0.face === face }) {
      result.fallbacks[index].characters.append(character)
    } else {
      result.fallbacks.append((face, String(character)))
    }
    return face
  }

  /// Shapes a run starting at `pen` (em); returns the pen after it.
  private func shapeRun(_ run: Run, at start: Double, into result: inout ShapedLine) -> Double {
    guard let buffer = hb_buffer_create() else { return start }
    defer { hb_buffer_destroy(buffer) }
    let utf8 = Array(run.text.utf8)
    utf8.withUnsafeBufferPointer { bytes in
      bytes.withMemoryRebound(to: CChar.self) { chars in
        hb_buffer_add_utf8(buffer, chars.baseAddress, Int32(chars.count), 0, Int32(chars.count))
      }
    }
    hb_buffer_set_direction(buffer, run.rightToLeft ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
    hb_buffer_guess_segment_properties(buffer)
    hb_shape(run.face.hbFont, buffer, nil, 0)
    var count: UInt32 = 0
    guard let infos = hb_buffer_get_glyph_infos(buffer, &count),
      let positions = hb_buffer_get_glyph_positions(buffer, &count)
    else { return start }
    let scale = 1 / run.face.unitsPerEm
    var pen = start
    for index in 0..<Int(count) {
      let position = positions[index]
      let glyph = infos[index].codepoint
      if glyph != 0 {
        result.glyphs.append(
          ShapedGlyph(
            face: run.face, glyph: glyph,
            x: pen + Double(position.x_offset) * scale,
            y: Double(position.y_offset) * scale))
      }
      pen += Double(position.x_advance) * scale
    }
    return pen
  }
}
