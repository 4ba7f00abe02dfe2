import Foundation
import MemeCore
import MemeMedia
import Testing

/// PNG (RGB when opaque, RGBA otherwise) and JPEG (quality 90 unless asked) round trips.
@Suite struct ImageEncodeTests {
  static let opaque: RGBAImage = {
    var image = RGBAImage(width: 48, height: 32, fill: Quadrants.red)
    for y in 0..<32 {
      for x in 0..<48 where x >= 24 || y >= 16 {
        image[x, y] = y < 16 ? Quadrants.green : x < 24 ? Quadrants.blue : Quadrants.yellow
      }
    }
    return image
  }()

  /// The colour type byte of a PNG's IHDR (2 RGB, 6 RGBA).
  static func pngColourType(_ data: Data) -> UInt8? {
    data.count > 25 ? data[data.startIndex + 25] : nil
  }

  /// The first luminance quantisation value of a JPEG (DQT table 0, position 0).
  static func firstQuantizer(_ data: Data) -> UInt8? {
    let bytes = [UInt8](data)
    var index = 2
    while index + 4 < bytes.count, bytes[index] == 0xFF {
      let marker = bytes[index + 1]
      let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
      if marker == 0xDB, index + 5 < bytes.count { return bytes[index + 5] }
      index += 2 + length
    }
    return nil
  }

  @Test func opaquePNGIsRGBAndExact() throws {
    let data = try ImageCodec.encode(Self.opaque, as: .png)
    #expect(Self.pngColourType(data) == 2)
    let back = try ImageCodec.decode(data, name: "o.png")
    #expect(back.format == .png)
    #expect(back.image == Self.opaque)
  }

  @Test func translucentPNGKeepsAlphaExactly() throws {
    var image = Self.opaque
    image[3, 4] = RGBA(1, 2, 3, 0)
    image[40, 30] = RGBA(200, 100, 50, 77)
    let data = try ImageCodec.encode(image, as: .png)
    #expect(Self.pngColourType(data) == 6)
    #expect(try ImageCodec.decode(data, name: "t.png").image == image)
  }

  @Test func jpegDefaultsToQuality90AndRoundTrips() throws {
    let data = try ImageCodec.encode(Self.opaque, as: .jpeg)
    // libjpeg's quality 90 scales the standard table's 16 to 3.
    #expect(Self.firstQuantizer(data) == 3)
    let back = try ImageCodec.decode(data, name: "o.jpg")
    #expect(back.format == .jpeg)
    #expect(back.image.size == Self.opaque.size)
    #expect(Quadrants.matches(back.image, tolerance: 12), "\(Quadrants.colours(of: back.image))")
  }

  @Test func jpegQualityIsAdjustable() throws {
    let low = try ImageCodec.encode(Self.opaque, as: .jpeg, settings: EncodeSettings(quality: 50))
    let high = try ImageCodec.encode(
      Self.opaque, as: .jpeg, settings: EncodeSettings(quality: 100))
    #expect(Self.firstQuantizer(low) == 16)
    #expect(Self.firstQuantizer(high) == 1)
    #expect(low.count < high.count)
  }

  @Test func jpegShowsTransparencyOverWhite() throws {
    let clear = RGBAImage(width: 16, height: 16, fill: RGBA(0, 0, 0, 0))
    let back = try ImageCodec.decode(try ImageCodec.encode(clear, as: .jpeg), name: "c.jpg")
    #expect(back.image[8, 8].distance(to: RGBA(255, 255, 255)) <= 2)
  }

  @Test(arguments: ImageFormat.writable)
  func recipeSurvivesARoundTrip(_ format: ImageFormat) throws {
    let recipe = EmbeddedRecipe(
      recipe: MemeRecipe(
        top: "ÇA VA 🐱 <&amp;>", bottom: "line \"two\"", font: "Anton",
        crop: .aspect(width: 16, height: 9)),
      originalSHA256: String(repeating: "ab", count: 32))
    let data = try ImageCodec.encode(
      Self.opaque, as: format, settings: EncodeSettings(recipe: recipe))
    #expect(try ImageCodec.decode(data, name: "r").recipe == .recipe(recipe))
    #expect(
      try ImageCodec.decode(try ImageCodec.encode(Self.opaque, as: format), name: "r").recipe
        == nil)
  }

  @Test func recipeAfterTheImageDataIsFound() throws {
    let recipe = EmbeddedRecipe(
      recipe: MemeRecipe(top: "A", bottom: "B"), originalSHA256: "00")
    let text = Array("memesh:recipe".utf8) + [0, 0, 0, 0, 0] + Array(recipe.encoded().utf8)
    let png = PNGChunk.beforeEnd(
      try ImageFixtures.data("rgba-5x3.png"), PNGChunk.make("iTXt", text))
    let decoded = try ImageCodec.decode(png, name: "late.png")
    #expect(decoded.recipe == .recipe(recipe))
    #expect(decoded.warnings.isEmpty)
  }

  @Test(arguments: [
    [UInt8](Array("memesh:recipe".utf8) + [0, 0, 0]),  // no language tag terminator
    [UInt8](Array("memesh:recipe".utf8) + [0]),  // nothing after the keyword
    [UInt8](Array("memesh:recipes".utf8) + [0, 0, 0, 0, 0] + Array("{}".utf8)),
    [UInt8](Array("memesh:recipe".utf8) + [0, 0, 0, 0, 0] + Array("not json".utf8)),
  ])
  func malformedRecipeChunksAreIgnored(_ text: [UInt8]) throws {
    let png = PNGChunk.beforeEnd(
      try ImageFixtures.data("rgba-5x3.png"), PNGChunk.make("iTXt", text))
    let decoded = try ImageCodec.decode(png, name: "odd.png")
    #expect(decoded.recipe == nil)
    #expect(decoded.image.size == PixelSize(width: 5, height: 3))
  }

  @Test func emptyPictureIsAnError() {
    #expect(throws: MediaError.self) {
      try ImageCodec.encode(RGBAImage(width: 0, height: 0), as: .png)
    }
  }
}
