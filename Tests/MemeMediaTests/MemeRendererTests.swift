import Foundation
import MemeCore
import Testing

@testable import MemeMedia

/// MemeRenderer makes the same meme as cropping, drawing on a copy and encoding would, without
/// the copy; what it writes decodes back to the right picture.
@Suite struct MemeRendererTests {
  let renderer = MemeRenderer(catalog: .standard())
  let captions = CaptionRenderer(catalog: .standard())

  /// A photo-like picture: smooth gradients with some texture, so every PNG filter matters.
  static func photo(width: Int, height: Int, alpha: (Int, Int) -> UInt8 = { _, _ in 255 })
    -> RGBAImage
  {
    var image = RGBAImage(width: width, height: height)
    for y in 0..<height {
      for x in 0..<width {
        let texture = UInt8((x * 7 + y * 13) % 23)
        image[x, y] = RGBA(
          UInt8(x * 230 / max(1, width - 1)) + texture, UInt8(y * 255 / max(1, height - 1)),
          UInt8((x + y) % 256), alpha(x, y))
      }
    }
    return image
  }

  /// The slower path: crop, draw on a copy, nothing else.
  func reference(_ image: RGBAImage, top: String, bottom: String, crop: Crop) throws -> RGBAImage {
    let cropped = try ImageOps.crop(image, crop)
    return try captions.render(onto: cropped, top: top, bottom: bottom, font: "Anton").image
  }

  /// Mean absolute difference per color channel.
  static func meanError(_ first: RGBAImage, _ second: RGBAImage) -> Double {
    var total = 0
    for index in stride(from: 0, to: min(first.pixels.count, second.pixels.count), by: 4) {
      for channel in 0..<3 {
        total += abs(Int(first.pixels[index + channel]) - Int(second.pixels[index + channel]))
      }
    }
    return Double(total) / Double(max(1, first.width * first.height * 3))
  }

  func decode(_ data: Data) throws -> DecodedImage {
    try ImageCodec.decode(data, name: "rendered")
  }

  @Test(arguments: [
    Crop.off, .rect(PixelRect(x: 17, y: 9, width: 301, height: 203)), .aspect(width: 1, height: 1),
  ])
  func pngMatchesTheSlowPathPixelForPixel(crop: Crop) throws {
    let photo = Self.photo(width: 360, height: 270)
    let output = try renderer.render(
      photo, top: "one does not simply", bottom: "render twice", font: "Anton", crop: crop,
      format: .png)
    let expected = try reference(
      photo, top: "one does not simply", bottom: "render twice", crop: crop)
    let decoded = try decode(output.data)
    #expect(decoded.format == .png)
    #expect(output.size == expected.size)
    #expect(decoded.image == expected)
  }

  /// The captions are drawn row by row by the encoder's and the thumbnail's threads: over
  /// translucent pixels and with color emoji, the PNG and the thumbnail still equal drawing on
  /// a copy.
  @Test(arguments: [false, true])
  func captionRowsMatchTheSlowPathOverTransparency(translucent: Bool) throws {
    let photo = Self.photo(width: 333, height: 517) { x, y in
      translucent ? UInt8((x * 3 + y) % 256) : 255
    }
    let (top, bottom) = ("one does not simply 😀", "draw rows 👍🏽 twice")
    let output = try renderer.render(photo, top: top, bottom: bottom, font: "Anton", format: .png)
    let expected = try reference(photo, top: top, bottom: bottom, crop: .off)
    #expect(try decode(output.data).image == expected)
    let thumbnail = MemeRenderer.reduced(
      expected, toFit: MemeRenderer.thumbnailDimension, isOpaque: translucent ? nil : true)
    #expect(try decode(output.thumbnail).image == thumbnail)
  }

  @Test func jpegDecodesBackCloseToTheSlowPath() throws {
    let photo = Self.photo(width: 400, height: 300)
    let output = try renderer.render(
      photo, top: "top text", bottom: "bottom text", font: "Anton", format: .jpeg)
    let expected = try reference(photo, top: "top text", bottom: "bottom text", crop: .off)
    let decoded = try decode(output.data)
    #expect(decoded.format == .jpeg)
    #expect(decoded.image.size == PixelSize(width: 400, height: 300))
    let meanError = Self.meanError(expected, decoded.image)
    #expect(meanError < 4, "mean error \(meanError) per channel at quality 90")
  }

  /// Tall pictures are encoded as two halves on two threads and joined at a restart marker; the
  /// pixels must come out as from one pass.
  @Test(arguments: [(320, 1000), (333, 517), (64, 4099)])
  func splitJPEGDecodesLikeOnePass(width: Int, height: Int) throws {
    let photo = Self.photo(width: width, height: height)
    let output = try renderer.render(
      photo, top: "top", bottom: "bottom", font: "Anton", format: .jpeg)
    let drawn = try reference(photo, top: "top", bottom: "bottom", crop: .off)
    let onePass = try decode(try ImageCodec.encode(drawn, as: .jpeg))
    let decoded = try decode(output.data)
    #expect(decoded.image.size == photo.size)
    #expect(decoded.image == onePass.image)
  }

  /// A 1×65,501 strip is a fine PNG but no JPEG: the error says so and names the way out.
  @Test func aJPEGTallerThanLibjpegAllowsIsRefusedInWords() throws {
    let strip = RGBAImage(width: 1, height: (ImageFormat.jpeg.maxDimension ?? 0) + 1)
    #expect(
      throws: MediaError.tooLarge(
        format: .jpeg, size: PixelSize(width: 1, height: 65501), limit: 65500, animated: false)
    ) {
      try renderer.render(strip, top: "", bottom: "", font: "Anton", format: .jpeg)
    }
    let png = try renderer.render(strip, top: "", bottom: "", font: "Anton", format: .png)
    #expect(png.size == PixelSize(width: 1, height: 65501))
    // At the limit it is still a JPEG.
    let tallest = RGBAImage(width: 1, height: (ImageFormat.jpeg.maxDimension ?? 0))
    let jpeg = try renderer.render(tallest, top: "", bottom: "", font: "Anton", format: .jpeg)
    #expect(ImageCodec.sniff(jpeg.data) == .jpeg)
  }

  @Test func captionsReallyChangeTheMeme() throws {
    let photo = Self.photo(width: 320, height: 240)
    let output = try renderer.render(photo, top: "HELLO", bottom: "", font: "Anton", format: .png)
    let decoded = try decode(output.data)
    #expect(decoded.image != photo)
    // Only the top strip is drawn on: the bottom half is the photo.
    let bottomHalf = ImageOps.crop(
      decoded.image, to: PixelRect(x: 0, y: 120, width: 320, height: 120))
    #expect(
      bottomHalf == ImageOps.crop(photo, to: PixelRect(x: 0, y: 120, width: 320, height: 120)))
  }

  @Test func thumbnailKeepsTheMemesAspectRatio() throws {
    let photo = Self.photo(width: 600, height: 150)
    let output = try renderer.render(photo, top: "wide", bottom: "", font: "Anton", format: .jpeg)
    #expect(output.thumbnailSize == PixelSize(width: 256, height: 64))
    let thumbnail = try decode(output.thumbnail)
    #expect(thumbnail.format == .png)
    #expect(thumbnail.image.size == PixelSize(width: 256, height: 64))
    // Averaged, not sampled: the left edge is dark red-free, the right edge red.
    #expect(thumbnail.image[0, 32].r < 40)
    #expect(thumbnail.image[255, 32].r > 200)
  }

  @Test func smallMemeKeepsItsOwnSizeAsThumbnail() throws {
    let output = try renderer.render(
      Self.photo(width: 120, height: 90), top: "", bottom: "", font: "Anton", format: .png)
    #expect(try decode(output.thumbnail).image.size == PixelSize(width: 120, height: 90))
  }

  @Test func transparencySurvivesInPNGAndBecomesWhiteInJPEG() throws {
    let photo = Self.photo(width: 200, height: 160) { x, _ in x < 100 ? 0 : 255 }
    let png = try decode(
      try renderer.render(photo, top: "", bottom: "", font: "Anton", format: .png).data)
    #expect(png.image == photo)
    let jpeg = try decode(
      try renderer.render(photo, top: "", bottom: "", font: "Anton", format: .jpeg).data)
    let corner = jpeg.image[10, 80]
    #expect(corner.r > 240 && corner.g > 240 && corner.b > 240)
  }

  @Test(arguments: [ImageFormat.png, .jpeg])
  func recipeIsEmbedded(format: ImageFormat) throws {
    let picture = SourcePicture(
      path: "cat.jpg", originalBytes: Data([1, 2, 3]), sha256: "abc123", format: .jpeg,
      image: Self.photo(width: 200, height: 150), proxy: Self.photo(width: 20, height: 15))
    let state = EditorState(
      picture: picture, top: "Top", bottom: "Bottom", crop: .aspect(width: 1, height: 1))
    let output = try renderer.render(state, format: format)
    #expect(output.size == PixelSize(width: 150, height: 150))
    #expect(try decode(output.thumbnail).recipe == decode(output.data).recipe)
    let recipe = try decode(output.data).recipe
    #expect(
      recipe
        == .recipe(
          EmbeddedRecipe(
            recipe: MemeRecipe(
              top: "Top", bottom: "Bottom", font: "Anton", crop: .aspect(width: 1, height: 1)),
            originalSHA256: "abc123")))
  }

  @Test(arguments: [(1, 1), (1, 200), (200, 1), (3, 70), (70, 3)])
  func tinyPicturesRoundTrip(width: Int, height: Int) throws {
    let photo = Self.photo(width: width, height: height)
    for format in [ImageFormat.png, .jpeg] {
      let output = try renderer.render(
        photo, top: "tiny", bottom: "meme", font: "Anton", format: format)
      let decoded = try decode(output.data)
      #expect(decoded.image.size == photo.size)
      #expect(try decode(output.thumbnail).image.size == output.thumbnailSize)
    }
  }

  @Test func renderingWithoutAPictureIsAnError() {
    #expect(throws: MediaError.self) { try renderer.render(EditorState(), format: .png) }
  }

  @Test func cropOutsideThePictureIsAnError() {
    let crop = Crop.rect(PixelRect(x: 500, y: 0, width: 10, height: 10))
    #expect(throws: CropError.self) {
      try renderer.render(
        Self.photo(width: 100, height: 100), top: "", bottom: "", font: "Anton", crop: crop,
        format: .png)
    }
  }

  @Test(arguments: [
    (false, 1, 2, 1, 0), (false, 1, 2, 2, 0), (false, 6, 1, 2, 0), (false, 2, 5, 2, 0),
    (true, 1, 2, 2, 0), (true, 1, 4, 1, 0), (true, 6, 3, 2, 0), (false, 1, 0, 2, 0),
    (false, 1, 2, 2, 3), (false, 1, 2, 1, 3), (false, 1, 4, 2, 3), (false, 6, 2, 2, 1),
    (false, 1, 2, 2, 2),
  ])
  func everyCompressionSettingRoundTrips(
    libdeflate: Bool, level: Int, filter: Int, threads: Int, strategy: Int
  ) throws {
    let compression = EncodeSettings.PNGCompression(
      useLibdeflate: libdeflate, level: level, filter: filter, threads: threads,
      strategy: strategy)
    let renderer = MemeRenderer(catalog: .standard(), settings: EncodeSettings(png: compression))
    for photo in [
      Self.photo(width: 300, height: 200),
      Self.photo(width: 97, height: 131) { x, y in UInt8((x * y) % 256) },
    ] {
      let output = try renderer.render(photo, top: "", bottom: "", font: "Anton", format: .png)
      #expect(try decode(output.data).image == photo)
    }
  }

  @Test func loadPictureMatchesTheEditorsLoader() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("memesh-renderer-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    for (name, format) in [("photo.jpg", ImageFormat.jpeg), ("photo.png", .png)] {
      let path = directory.appendingPathComponent(name).path
      try ImageCodec.encode(Self.photo(width: 1800, height: 1200), as: format)
        .write(to: URL(fileURLWithPath: path))
      let (fast, decoded) = try MemeRenderer.loadPicture(path: path)
      #expect(try decoded.image == fast.image)
      let bytes = try ImageFile.read(path: path)
      let wrapped = MemeRenderer.sourcePicture(path: path, bytes: bytes, decoded: decoded)
      #expect(wrapped.sha256 == fast.sha256)
      #expect(try max(wrapped.proxy.width, wrapped.proxy.height) == ImageFile.proxyDimension)
      let wrappedReference = try ImageOps.scaled(
        decoded.image, toFit: wrapped.proxy.width, wrapped.proxy.height)
      #expect(try Self.meanError(wrappedReference, wrapped.proxy) < 3)
      let (reference, _) = try ImageFile.sourcePicture(path: path)
      #expect(try fast.image == reference.image)
      #expect(fast.sha256 == reference.sha256)
      #expect(try fast.originalBytes == reference.originalBytes)
      #expect(fast.format == format)
      #expect(try max(fast.proxy.width, fast.proxy.height) <= ImageFile.proxyDimension)
      #expect(try max(fast.proxy.width, fast.proxy.height) >= ImageFile.proxyDimension * 7 / 8)
      // Same aspect ratio as the picture, within a pixel.
      #expect(try abs(fast.proxy.width * 1200 - fast.proxy.height * 1800) <= 1800)
      // And the same picture as the slower area average, give or take rounding at block edges.
      let scaled = try ImageOps.scaled(reference.image, toFit: fast.proxy.width, fast.proxy.height)
      #expect(try scaled.size == fast.proxy.size)
      #expect(try Self.meanError(scaled, fast.proxy) < 3)
    }
  }

  /// The proxy is reduced from the rows while they are decoded (JPEG), or in two bands on two
  /// threads afterwards (PNG): either way the same bytes as reducing the decoded picture.
  @Test func loadPictureProxyIsTheReducedPicture() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("memesh-proxy-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    for (name, format) in [("photo.jpg", ImageFormat.jpeg), ("photo.png", .png)] {
      let path = directory.appendingPathComponent(name).path
      try ImageCodec.encode(Self.photo(width: 1801, height: 1203), as: format)
        .write(to: URL(fileURLWithPath: path))
      let (picture, decoded) = try MemeRenderer.loadPicture(path: path)
      let expected = MemeRenderer.reduced(
        decoded.image, toFit: ImageFile.proxyDimension, isOpaque: format == .jpeg ? true : nil)
      #expect(try expected.size != decoded.image.size)
      #expect(try picture.proxy == expected)
    }
  }

  @Test func loadPictureReportsAMissingFile() {
    #expect(throws: MediaError.self) {
      try MemeRenderer.loadPicture(path: "/nonexistent/cat.jpg")
    }
  }

  /// The decoder fails before or after it has a pixel buffer (the load's helper thread waits
  /// for that buffer): either way the load reports the file and returns.
  @Test func loadPictureReportsABrokenJPEG() throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("memesh-broken-\(UUID().uuidString).jpg").path
    try Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x02, 0x41, 0x42]).write(
      to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    #expect(throws: MediaError.self) { try MemeRenderer.loadPicture(path: path) }
    let bomb = ImageFixtures.images.appendingPathComponent("bomb-3000-scans.jpg").path
    #expect(throws: MediaError.self) { try MemeRenderer.loadPicture(path: bomb) }
    let progressive = ImageFixtures.images.appendingPathComponent("progressive.jpg").path
    #expect(throws: MediaError.self) {
      try MemeRenderer.loadPicture(path: progressive, limits: DecodeLimits(maxJPEGScans: 9))
    }
  }
}
