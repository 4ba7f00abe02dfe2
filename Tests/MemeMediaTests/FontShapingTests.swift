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
