import Foundation
import MemeCore
import MemeMedia
import Testing

/// WebP (libwebp) and GIF (giflib) in, WebP out. The fixtures come from the project's own
/// pictures through cwebp, webpmux, img2webp, ImageMagick and gifbuild
/// (scripts/make-webp-gif-fixtures.py), each with its reference decoder's pixels beside it
/// (`NAME.ref.png`: dwebp for WebP, ImageMagick for GIF).
@Suite struct ImageWebPGIFTests {
  static func reference(_ name: String) throws -> RGBAImage {
    try ImageFixtures.decode(name + ".ref.png").image
  }

  /// Pixels equal where the reference is visible, and the same transparency everywhere.
  /// (A transparent pixel's colour is the encoder's business: ImageMagick keeps the palette
  /// colour, memesh writes 0.)
  static func sameVisiblePixels(_ image: RGBAImage, _ reference: RGBAImage) -> Bool {
    guard image.size == reference.size else { return false }
    for y in 0..<image.height {
      for x in 0..<image.width {
        let (mine, theirs) = (image[x, y], reference[x, y])
        guard mine.a == theirs.a else { return false }
        if theirs.a > 0, mine != theirs { return false }
      }
    }
    return true
  }

  @Test(arguments: [
    ("webp-lossy.webp", ImageFormat.webp), ("webp-lossless.webp", .webp),
    ("webp-alpha.webp", .webp), ("webp-animated.webp", .webp),
    ("gif-transparent.gif", .gif), ("gif-animated.gif", .gif),
  ])
  func decodesAsTheFormatsOwnDecoderDoes(name: String, format: ImageFormat) throws {
    let decoded = try ImageFixtures.decode(name)
    #expect(decoded.format == format)
    #expect(decoded.warnings.isEmpty)
    let reference = try Self.reference(name)
    #expect(Self.sameVisiblePixels(decoded.image, reference))
  }

  @Test func alphaIsKept() throws {
    let webp = try ImageFixtures.decode("webp-alpha.webp").image
    let gif = try ImageFixtures.decode("gif-transparent.gif").image
    for image in [webp, gif] {
      #expect(!image.isOpaque)
      #expect(image.pixels.enumerated().contains { $0.offset % 4 == 3 && $0.element == 255 })
    }
  }

  /// The frame's own colour table wins over the global one (filled with magenta decoys); the
  /// interlaced rows land in order; the frame sits at (8, 4) on its 180×130 screen, which is
  /// transparent around it as browsers show it.
  @Test func aLocalPaletteInterlacedFrameOnALargerScreen() throws {
    let decoded = try ImageFixtures.decode("gif-local-palette.gif").image
    let reference = try Self.reference("gif-local-palette.gif")
    #expect(decoded.size == PixelSize(width: 180, height: 130))
    var inside = 0
    for y in 0..<decoded.height {
      for x in 0..<decoded.width {
        if (8..<168).contains(x), (4..<124).contains(y) {
          #expect(decoded[x, y] == reference[x, y], "(\(x), \(y))")
          inside += 1
        } else {
          #expect(decoded[x, y].a == 0, "(\(x), \(y))")
        }
      }
    }
    #expect(inside == 160 * 120)
    // No decoy colour (red 255, green 0) anywhere.
    #expect(!decoded.pixels.indices.contains { index in
      index % 4 == 0 && decoded.pixels[index] == 255 && decoded.pixels[index + 1] == 0
        && decoded.pixels[index + 3] == 255
    })
  }

  @Test func exifOrientationInAWebPIsApplied() throws {
    let decoded = try ImageFixtures.decode("webp-exif-6.webp")
    #expect(decoded.orientation == 6)
    let upright = ImageOps.oriented(try Self.reference("webp-lossless.webp"), orientation: 6)
    #expect(decoded.image == upright)
    #expect(decoded.image.size == PixelSize(width: 120, height: 160))
  }

  @Test func aWebPsColourProfileIsReadAndCarriedIntoTheMeme() throws {
    let profile = try #require(ImageCodec.iccProfile(of: try ImageFixtures.data("icc-rgb.jpg")))
    let webp = try ImageFixtures.data("webp-icc.webp")
    #expect(ImageCodec.iccProfile(of: webp) == profile)
    let path = ImageFixtures.images.appendingPathComponent("webp-icc.webp").path
    let (picture, _) = try MemeRenderer.loadPicture(path: path)
    let state = EditorState(picture: picture, top: "Top", bottom: "")
    for format in ImageFormat.writable {
      let meme = try MemeRenderer(catalog: .standard()).render(state, format: format)
      #expect(ImageCodec.iccProfile(of: meme.data) == profile, "\(format)")
    }
  }

  /// ImageMagick keeps a photo's profile in a GIF as an `ICCRGBG1012` application extension.
  @Test func aGIFsColourProfileIsRead() throws {
    let profile = try #require(ImageCodec.iccProfile(of: try ImageFixtures.data("icc-rgb.jpg")))
    #expect(ImageCodec.iccProfile(of: try ImageFixtures.data("gif-icc.gif")) == profile)
    #expect(ImageCodec.iccProfile(of: try ImageFixtures.data("gif-transparent.gif")) == nil)
  }

  // MARK: - Writing WebP

  static let photo = RGBAImage(
    width: 96, height: 64,
    pixels: (0..<(96 * 64)).flatMap { index -> [UInt8] in
      let (x, y) = (index % 96, index / 96)
      let grain = (index &* 1_103_515_245 &+ 12345) >> 16 & 15
      return [UInt8(x * 2 + grain), UInt8(y * 3 + grain), UInt8((x + y) % 200 + grain), 255]
    })

  @Test func aLosslessWebPMemeHasExactlyThePNGMemesPixels() throws {
    let renderer = MemeRenderer(catalog: .standard(), settings: EncodeSettings(lossless: true))
    let webp = try renderer.render(Self.photo, top: "Top", bottom: "Bottom", font: "Anton",
      format: .webp)
    let png = try renderer.render(Self.photo, top: "Top", bottom: "Bottom", font: "Anton",
      format: .png)
    #expect(ImageCodec.sniff(webp.data) == .webp)
    let fromWebP = try ImageCodec.decode(webp.data, name: "m.webp").image
    let fromPNG = try ImageCodec.decode(png.data, name: "m.png").image
    #expect(fromWebP == fromPNG)
    #expect(webp.thumbnail == png.thumbnail)
  }

  /// Lossy by default (a `VP8 ` bitstream), lossless when asked (`VP8L`), both with the recipe.
  @Test func lossyByDefaultLosslessWhenAsked() throws {
    let lossy = try MemeRenderer(catalog: .standard()).render(
      Self.photo, top: "", bottom: "", font: "Anton", format: .webp)
    let lossless = try MemeRenderer(
      catalog: .standard(), settings: EncodeSettings(lossless: true)
    ).render(Self.photo, top: "", bottom: "", font: "Anton", format: .webp)
    func hasChunk(_ data: Data, _ name: String) -> Bool {
      data.range(of: Data(name.utf8)) != nil
    }
    #expect(hasChunk(lossy.data, "VP8 ") && !hasChunk(lossy.data, "VP8L"))
    #expect(hasChunk(lossless.data, "VP8L"))
    let decoded = try ImageCodec.decode(lossy.data, name: "l.webp").image
    #expect(decoded.size == Self.photo.size)
    #expect(decoded[40, 30].distance(to: Self.photo[40, 30]) <= 16)
  }

  @Test func transparencySurvivesInWebP() throws {
    var image = Self.photo
    for x in 0..<20 { image[x, 10] = RGBA(10, 20, 30, 0) }
    image[50, 50] = RGBA(200, 100, 50, 128)
    let meme = try MemeRenderer(catalog: .standard(), settings: EncodeSettings(lossless: true))
      .render(image, top: "", bottom: "", font: "Anton", format: .webp)
    let back = try ImageCodec.decode(meme.data, name: "t.webp").image
    #expect(back[5, 10].a == 0)
    #expect(back[50, 50] == RGBA(200, 100, 50, 128))
  }

  @Test func aWebPLargerThanWebPAllowsIsRefusedInWords() throws {
    let strip = RGBAImage(width: 1, height: 16384, fill: RGBA(1, 2, 3))
    let error = #expect(throws: MediaError.self) {
      try MemeRenderer(catalog: .standard()).render(
        strip, top: "", bottom: "", font: "Anton", format: .webp)
    }
    #expect(
      error?.message == "cannot write a WebP of 1×16384 pixels: a WebP is at most 16383 pixels "
        + "on a side; PNG has no such limit")
  }

  // MARK: - Damage and bombs

  @Test func bombsAreRefusedByThePixelCap() throws {
    for (name, size) in [
      ("bomb-webp-header.webp", "16383×16383"), ("bomb-gif-screen.gif", "65535×65535"),
      ("bomb-gif-frame.gif", "65535×65535"),
    ] {
      let error = #expect(throws: MediaError.self) { try ImageFixtures.decode(name) }
      #expect(
        error?.message == "cannot load '\(name)': the picture is \(size) pixels, more than the "
          + "limit of 100 megapixels (set MEMESH_MAX_MEGAPIXELS to allow more)")
    }
  }

  @Test(arguments: ["webp-lossy.webp", "webp-lossless.webp", "webp-animated.webp"])
  func aWebPCutShortSaysSo(_ name: String) throws {
    let whole = try ImageFixtures.data(name)
    let error = #expect(throws: MediaError.self) {
      try ImageCodec.decode(whole.prefix(whole.count * 2 / 3), name: "cut.webp")
    }
    #expect(error?.message.hasPrefix("cannot load 'cut.webp': ") == true)
    #expect(error?.message.contains("\n") == false)
  }

  @Test func aGIFCutInItsImageDataLoadsWithAWarningAndOneCutInItsHeaderDoesNot() throws {
    let whole = try ImageFixtures.data("gif-local-palette.gif")
    let cut = try ImageCodec.decode(whole.prefix(whole.count - 600), name: "cut.gif")
    #expect(
      cut.warnings == [
        "'cut.gif': the image data is damaged (the file ends early); the rest of the picture is "
          + "left transparent"
      ])
    #expect(cut.image.pixels.contains { $0 != 0 })
    let error = #expect(throws: MediaError.self) {
      try ImageCodec.decode(whole.prefix(20), name: "head.gif")
    }
    #expect(error?.message == "cannot load 'head.gif': the file ends early")
  }

  @Test func aGIFWithoutAnImageSaysSo() throws {
    let empty = Data("GIF89a\u{1}\0\u{1}\0\0\0\0;".utf8)
    let error = #expect(throws: MediaError.self) { try ImageCodec.decode(empty, name: "e.gif") }
    #expect(error?.message == "cannot load 'e.gif': the GIF has no image")
  }
}
