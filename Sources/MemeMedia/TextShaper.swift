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

/// Splits text into runs of one font and one direction, shapes each with HarfBuzz.
///
/// Characters the primary font lacks are drawn from a fallback font found through fontconfig.
/// Bidi is simplified: a line whose first strong character is right-to-left lays its runs out
/// right to left; each run is shaped in its own direction.
struct TextShaper {
  let primary: FontFace
  let engine: FontEngine
  /// Fonts tried before asking fontconfig (the bundled DejaVu Sans Bold), so that Latin,
  /// Cyrillic, Greek, Arabic and Hebrew look the same on every machine.
  var preferredFallbacks: [FontFace] = []

  /// A text fallback: the first preferred font that has `scalar`, else fontconfig's choice.
  private func textFallback(for scalar: Unicode.Scalar) -> FontFace? {
    preferredFallbacks.first { $0 !== primary && $0.covers(scalar) }
      ?? engine.fallback(for: scalar, emoji: false)
  }

  private struct Run {
    var face: FontFace
    var rightToLeft: Bool
    var text: String
  }

  /// Shapes one line.
  func shape(_ line: String) -> ShapedLine {
    var result = ShapedLine()
    var runs: [Run] = []
    var baseRightToLeft: Bool?
    var wordFace: FontFace?
    var wordStart = true
    let characters = Array(line)
    for (position, character) in characters.enumerated() {
      let direction = TextShaper.direction(of: character)
      if baseRightToLeft == nil, let direction { baseRightToLeft = direction }
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
      if var last = runs.last, joinsRun(last), direction == nil || direction == last.rightToLeft {
        last.text.append(character)
        runs[runs.count - 1] = last
      } else {
        runs.append(
          Run(
            face: face, rightToLeft: direction ?? baseRightToLeft ?? false, text: String(character))
        )
      }
    }
    if baseRightToLeft == true { runs.reverse() }
    var pen = 0.0
    for run in runs {
      pen = shapeRun(run, at: pen, into: &result)
    }
    result.width = pen
    return result
  }

  /// True for right-to-left letters, false for other letters, nil for neutrals (spaces, digits,
  /// punctuation, marks), which join the run they are in.
  static func direction(of character: Character) -> Bool? {
    guard let scalar = character.unicodeScalars.first else { return nil }
    switch scalar.value {
    case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF: return true
    default: return scalar.properties.isAlphabetic ? false : nil
    }
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
