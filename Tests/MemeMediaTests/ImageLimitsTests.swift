import Foundation
import MemeCore
import MemeMedia
import Testing

/// Decompression bombs and caps: refused with a clear error before memory or time is spent.
@Suite struct ImageLimitsTests {
  @Test func pngClaimingTenGigapixelsIsRefused() throws {
    let error = #expect(throws: MediaError.self) {
      try ImageFixtures.decode("bomb-100000x100000.png")
    }
    #expect(
      error?.message == "cannot load 'bomb-100000x100000.png': the picture is 100000×100000 "
        + "pixels, more than the limit of 100 megapixels (set MEMESH_MAX_MEGAPIXELS to allow more)")
  }

  /// A 200-MP phone photo needs more than the default cap: MEMESH_MAX_MEGAPIXELS raises it.
  @Test func theCapComesFromTheEnvironment() throws {
    #expect(DecodeLimits(megapixelSetting: nil).maxPixels == 100_000_000)
    #expect(DecodeLimits(megapixelSetting: "250").maxPixels == 250_000_000)
    #expect(DecodeLimits(megapixelSetting: " 1 ").maxPixels == 1_000_000)
    for bad in ["0", "-5", "4001", "1.5", "lots", "", "\u{1B}[31m"] {
      let limits = DecodeLimits(megapixelSetting: bad)
      #expect(limits.maxPixels == 100_000_000, "\(bad)")
      #expect(limits.ignoredSetting == bad)
    }
    // The pixels of a 12000×9000 picture against a cap of 1 MP, and an ignored setting.
    let error = #expect(throws: MediaError.self) {
      try ImageFixtures.decode("bomb-100000x100000.png", limits: DecodeLimits(megapixelSetting: "1"))
    }
    #expect(error?.message.contains("more than the limit of 1 megapixel (") == true)
    let ignored = #expect(throws: MediaError.self) {
      try ImageFixtures.decode(
        "bomb-100000x100000.png", limits: DecodeLimits(megapixelSetting: "\u{1B}[31mlots"))
    }
    #expect(
      ignored?.message.hasSuffix(
        "(MEMESH_MAX_MEGAPIXELS='\\e[31mlots' was ignored: not a whole number of megapixels "
          + "from 1 to 4000)") == true)
  }

  @Test func pixelCapIsConfigurable() throws {
    let limits = DecodeLimits(maxPixels: 600)
    let error = #expect(throws: MediaError.self) {
      try ImageFixtures.decode("baseline.jpg", limits: limits)
    }
    #expect(error?.message.contains("32×24 pixels, more than the limit") == true)
    #expect(
      try ImageFixtures.decode("exif-6.jpg", limits: DecodeLimits(maxPixels: 384)).image.width == 24
    )
    let png = try Data(contentsOf: ImageFixtures.pngSuite.appendingPathComponent("basn2c08.png"))
    #expect(throws: MediaError.self) {
      try ImageCodec.decode(png, name: "p.png", limits: DecodeLimits(maxPixels: 1023))
    }
    #expect(
      try ImageCodec.decode(png, name: "p.png", limits: DecodeLimits(maxPixels: 1024)).image.width
        == 32)
  }

  @Test func pixelCapMessageIsTheSameWhateverTheShape() throws {
    // 5×3 = 15 pixels over a cap of 4: the one message, not libpng's per-side user limit.
    let error = #expect(throws: MediaError.self) {
      try ImageFixtures.decode("rgba-5x3.png", limits: DecodeLimits(maxPixels: 4))
    }
    #expect(
      error?.message == "cannot load 'rgba-5x3.png': the picture is 5×3 pixels, more than the "
        + "limit of 4 pixels (set MEMESH_MAX_MEGAPIXELS to allow more)")
  }

  @Test func jpegWithThousandsOfScansIsRefused() throws {
    // 2112 valid scans (every coefficient alone, 11 refinement steps each).
    let error = #expect(throws: MediaError.self) { try ImageFixtures.decode("bomb-2112-scans.jpg") }
    #expect(
      error?.message
        == "cannot load 'bomb-2112-scans.jpg': the JPEG has more than 100 scans "
        + "(a decompression bomb?)")
    // The proxy path has the same cap.
    #expect(throws: MediaError.self) {
      try ImageCodec.decodeProxy(
        try ImageFixtures.data("bomb-2112-scans.jpg"), name: "b.jpg", maxDimension: 8)
    }
  }

  @Test func jpegWithRepeatedScansIsRefusedAtTheFirstRepeat() throws {
    // 3000 copies of one scan: libjpeg only warns ("inconsistent progression") and would spend
    // the time of a full scan on each; memesh stops at the first.
    let error = #expect(throws: MediaError.self) { try ImageFixtures.decode("bomb-3000-scans.jpg") }
    #expect(
      error?.message
        == "cannot load 'bomb-3000-scans.jpg': inconsistent progression sequence for component 0 "
        + "coefficient 1 (a decompression bomb?)")
  }

  @Test func scanCapIsConfigurable() throws {
    // progressive.jpg has libjpeg's usual 10 scans.
    let error = #expect(throws: MediaError.self) {
      try ImageFixtures.decode("progressive.jpg", limits: DecodeLimits(maxJPEGScans: 9))
    }
    #expect(
      error?.message.hasSuffix("the JPEG has more than 9 scans (a decompression bomb?)") == true)
    let decoded = try ImageFixtures.decode(
      "progressive.jpg", limits: DecodeLimits(maxJPEGScans: 10))
    #expect(decoded.image.size == PixelSize(width: 32, height: 24))
  }

  @Test(arguments: ["bomb-ztxt.png", "bomb-itxt.png"])
  func textChunkBombsAreNotInflated(_ file: String) throws {
    // The picture (8×8 grey) loads; the text is skipped or cut off at libpng's limit.
    let decoded = try ImageFixtures.decode(file)
    #expect(decoded.image.size == PixelSize(width: 8, height: 8))
    #expect(decoded.image[0, 0] == RGBA(128, 128, 128))
    #expect(decoded.recipe == nil)
    // Neither is inflated: zTXt is skipped unread, and the iTXt (keyword memesh:recipe) is
    // compressed, which memesh never writes.
    #expect(decoded.warnings == [])
  }

  /// rgba-5x3.png with a chunk of `length` bytes (only 16 of them present) after IHDR.
  static func pngWithChunk(_ type: String, claiming length: UInt32) throws -> Data {
    let png = try ImageFixtures.data("rgba-5x3.png")
    let header = withUnsafeBytes(of: length.bigEndian) { Data($0) } + Data(type.utf8)
    return png.prefix(33) + header + Data(count: 16) + png.dropFirst(33)
  }

  @Test(arguments: ["prVt", "tEXt", "zTXt", "iCCP"])
  func hugeChunksAreRefusedBeforeAllocation(_ type: String) throws {
    let data = try Self.pngWithChunk(type, claiming: 0x7FFF_FFFF)
    let error = #expect(throws: MediaError.self) { try ImageCodec.decode(data, name: "c.png") }
    #expect(error?.message == "cannot load 'c.png': \(type): chunk data is too large")
  }

  @Test func unknownCriticalChunkIsRefusedAndUnknownAncillaryIgnored() throws {
    let png = try ImageFixtures.data("rgba-5x3.png")
    let critical = png.prefix(33) + PNGChunk.make("MEME", [1, 2, 3]) + png.dropFirst(33)
    let error = #expect(throws: MediaError.self) { try ImageCodec.decode(critical, name: "c.png") }
    #expect(error?.message == "cannot load 'c.png': MEME: unhandled critical chunk")
    // After the image data every pixel is in: a warning.
    let late = PNGChunk.beforeEnd(png, PNGChunk.make("MEME", [1, 2, 3]))
    #expect(
      try ImageCodec.decode(late, name: "l.png").warnings
        == ["'l.png': damaged after the image data: MEME: unhandled critical chunk"])
    let ancillary = PNGChunk.beforeEnd(png, PNGChunk.make("meMe", [1, 2, 3]))
    let decoded = try ImageCodec.decode(ancillary, name: "a.png")
    #expect(decoded.warnings.isEmpty)
    #expect(decoded.image.size == PixelSize(width: 5, height: 3))
  }

  @Test func bombsCostLittleMemory() throws {
    let files = [
      "bomb-100000x100000.png", "bomb-3000-scans.jpg", "bomb-2112-scans.jpg", "bomb-ztxt.png",
      "bomb-itxt.png", "bomb-webp-header.webp", "bomb-gif-screen.gif", "bomb-gif-frame.gif",
    ]
    let probe = try ImageProbe.run(
      files.map { ImageFixtures.images.appendingPathComponent($0).path }, in: ImageFixtures.root)
    #expect(probe.standardError == "")
    #expect(probe.lines.filter { $0.hasPrefix("error: ") }.count == 6)
    // The whole process, Swift runtime included; a 64 MB text or a 40 GB canvas would show.
    #expect(probe.maxResidentKilobytes > 0 && probe.maxResidentKilobytes < 60_000, "\(probe)")
  }
}

// MARK: - Time limit

extension ImageLimitsTests {
  /// A 1000×1000 picture of noise (so neither encoder can make it trivially small), as `format`.
  static func noise(as format: ImageFormat) throws -> Data {
    var state: UInt32 = 12345
    let pixels = (0..<(1000 * 1000 * 4)).map { index -> UInt8 in
      if index % 4 == 3 { return 255 }
      state = state &* 1_664_525 &+ 1_013_904_223
      return UInt8(truncatingIfNeeded: state >> 24)
    }
    return try ImageCodec.encode(RGBAImage(width: 1000, height: 1000, pixels: pixels), as: format)
  }

  /// A megapixel picture in `format`: noise, or for GIF (memesh writes no still GIF) a
  /// 1000×1000 frame whose LZW data has a clear code before every pixel.
  static func megapixel(as format: ImageFormat) throws -> Data {
    guard format == .gif else { return try noise(as: format) }
    return GIFBytes.make(screen: (1000, 1000), frames: 1, frame: (1000, 1000), delay: 0)
  }

  /// PNG, JPEG, WebP and GIF check the time limit as they read the image data (libpng asking
  /// for bytes, libjpeg reporting progress, libwebp's incremental decoder between chunks, giflib
  /// between lines): a limit too short for a megapixel stops the load with the limit's words;
  /// the default limit loads it.
  @Test(arguments: [ImageFormat.png, .jpeg, .webp, .gif])
  func stillsStopAtTheTimeLimit(_ format: ImageFormat) throws {
    let data = try Self.megapixel(as: format)
    let error = #expect(throws: MediaError.self) {
      try ImageCodec.decode(data, name: "noise", limits: DecodeLimits(maxDecodeSeconds: 0.001))
    }
    #expect(
      error?.message
        == "cannot load 'noise': decoding took longer than the limit of 0.001 seconds (set "
        + "MEMESH_MAX_DECODE_SECONDS to allow more)")
    #expect(try ImageCodec.decode(data, name: "noise").image.width == 1000)
  }
}

// MARK: - Time limit of animations

extension ImageLimitsTests {
  /// GIF and WebP animations check the time they have spent decoding before each frame (a GIF
  /// also between a frame's lines): a limit of a microsecond stops them by the second frame
  /// with the same words as a still picture; the default limit reads all eight frames.
  @Test(arguments: ["pan.gif", "pan.webp"])
  func animationsStopAtTheTimeLimit(_ name: String) throws {
    let data = try AnimationDecodeTests.data(name)
    let tiny = AnimationLimits(still: DecodeLimits(maxDecodeSeconds: 0.000_001))
    let decoder = try ImageCodec.openAnimation(data, name: name, limits: tiny)
    var decoded = 0
    let error = #expect(throws: MediaError.self) {
      while try decoder.next() != nil { decoded += 1 }
    }
    #expect(decoded <= 1)
    #expect(
      error?.message
        == "cannot load '\(name)': decoding took longer than the limit of 1e-06 seconds (set "
        + "MEMESH_MAX_DECODE_SECONDS to allow more)")
    #expect(try AnimationDecodeTests.frames(name).1.count == 8)
  }

  /// A megapixel GIF frame is stopped between its lines, before its first frame is whole.
  @Test func aLargeGIFFrameStopsBetweenItsLines() throws {
    let data = GIFBytes.make(screen: (1000, 1000), frames: 2, frame: (1000, 1000), delay: 10)
    let limits = AnimationLimits(still: DecodeLimits(maxDecodeSeconds: 0.001))
    let decoder = try ImageCodec.openAnimation(data, name: "big.gif", limits: limits)
    let error = #expect(throws: MediaError.self) { _ = try decoder.next() }
    #expect(error?.message.contains("decoding took longer than the limit of 0.001 seconds") == true)
    #expect(try AnimationDecodeTests.frames(of: data).1.count == 2)
  }
}
