import Foundation
import Testing

@testable import MemeMedia

/// HarfBuzz shaping as a reader notices it: kerning, joined Arabic, right-to-left order, marks.
@Suite struct FontShapingTests {
  func withShaper<T>(_ font: String, _ body: (TextShaper, FontFace) throws -> T) throws -> T {
    let path = try FontCatalog.standard().resolve(font).path
    return try FontEngine.shared.withLock { engine in
      let face = try engine.face(path: path)
      return try body(TextShaper(primary: face, engine: engine), face)
    }
  }

  @Test func antonIsKernedFromGPOS() throws {
    try withShaper("Anton") { shaper, _ in
      let pair = shaper.shape("AV").width
      let apart = shaper.shape("A").width + shaper.shape("V").width
      #expect(pair < apart)
    }
  }

  @Test func arabicLettersJoin() throws {
    try withShaper("DejaVuSans-Bold") { shaper, face in
      let isolated = try #require(face.glyph(for: "\u{0628}"))
      let joined = shaper.shape("\u{0628}\u{0628}\u{0628}").glyphs.map(\.glyph)
      #expect(joined.count == 3)
      #expect(!joined.contains(isolated), "initial, medial and final forms, not isolated ones")
    }
  }

  @Test func hebrewRunsRightToLeft() throws {
    try withShaper("DejaVuSans-Bold") { shaper, face in
      let glyphs = shaper.shape("שלום").glyphs
      // The last letter (final mem) is leftmost.
      #expect(glyphs.first?.glyph == face.glyph(for: "ם"))
      #expect(glyphs.last?.glyph == face.glyph(for: "ש"))
    }
  }

  @Test func digitsInArabicKeepTheirOrder() throws {
    try withShaper("DejaVuSans-Bold") { shaper, face in
      let glyphs = shaper.shape("عام 2024 سعيد").glyphs.map(\.glyph)
      let digits = try "2024".map { try #require(face.glyph(for: $0.unicodeScalars.first ?? "0")) }
      // Read left to right on screen: 2, 0, 2, 4 (drawn 4202 before the bidi algorithm).
      let drawn = glyphs.filter(digits.contains)
      #expect(drawn == digits)
      // And the Arabic words are right to left around them: سعيد leftmost, عام rightmost.
      #expect(glyphs.first == shaper.shape("سعيد").glyphs.first?.glyph)
      #expect(glyphs.last == shaper.shape("عام").glyphs.last?.glyph)
    }
  }

  @Test func latinInsideHebrewStaysLeftToRightAndTheLineReadsRightToLeft() throws {
    try withShaper("DejaVuSans-Bold") { shaper, face in
      var rightToLeft = shaper
      rightToLeft.rightToLeft = TextShaper.paragraphIsRightToLeft("שלום OK")
      let glyphs = rightToLeft.shape("שלום OK").glyphs.map(\.glyph)
      // On screen: "OK" then the Hebrew word, whose first letter ש is rightmost.
      #expect(Array(glyphs.prefix(2)) == [face.glyph(for: "O"), face.glyph(for: "K")])
      #expect(glyphs.last == face.glyph(for: "ש"))
      // A line of the same caption that starts with Latin still reads right to left.
      let line = rightToLeft.shape("OK שלום").glyphs.map(\.glyph)
      #expect(line.last.map { $0 == face.glyph(for: "K") } == true)
    }
  }

  @Test func visualOrderReversesRunsByLevel() {
    // Rule L2 on runs at levels 1 2 2 1 0: the highest level first, then every odd one.
    let order = TextShaper.visualOrder(["a", "b", "c", "d", "e"], levels: [1, 2, 2, 1, 0])
    #expect(order == ["d", "b", "c", "a", "e"])
  }

  @Test func combiningMarkSitsOnItsLetter() throws {
    try withShaper("DejaVuSans-Bold") { shaper, _ in
      let line = shaper.shape("Q\u{0301}")
      #expect(line.glyphs.count == 2)
      let letter = shaper.shape("Q").width
      // The accent is placed over the Q, not after it.
      #expect(abs(line.width - letter) < 0.01)
      #expect((line.glyphs.last?.x ?? 1) < letter)
    }
  }

  @Test func lettersAnAntonLacksComeFromOneFallbackPerWord() throws {
    try withShaper("Anton") { shaper, primary in
      let line = shaper.shape("ΓΕΙΆ ΣΟΥ")
      #expect(line.missing.isEmpty)
      #expect(line.fallbacks.count == 1)
      #expect(!line.glyphs.contains { $0.face === primary })
    }
  }

  @Test func devanagariIsShapedFromAFallbackFont() throws {
    // `make deps` installs fonts-lohit-deva; Anton and DejaVu have no Devanagari.
    try withShaper("Anton") { shaper, primary in
      let line = shaper.shape("नमस्ते")
      #expect(line.missing.isEmpty)
      #expect(line.fallbacks.count == 1)
      #expect(!line.glyphs.contains { $0.face === primary })
      // The conjunct स्त (sa + virama + ta) is one glyph, not three: HarfBuzz shaped it.
      #expect(line.glyphs.count < "नमस्ते".unicodeScalars.count)
    }
  }

  @Test func shortIMatraIsDrawnBeforeItsConsonant() throws {
    // कि is ka + the i sign, stored after ka but drawn to its left.
    try withShaper("Anton") { shaper, _ in
      let line = shaper.shape("कि")
      let face = try #require(line.glyphs.first?.face)
      let ka = try #require(face.glyph(for: "क"))
      #expect(line.glyphs.count == 2)
      #expect(line.glyphs.last?.glyph == ka)
    }
  }
}
