import Foundation
import MemeCore
import MemeMedia
import Testing

/// Decompression bombs and caps: refused with a clear error before memory or time is spent.
@Suite struct ImageLimitsTests {
  @Test func pngClaimingTenGigapixelsIsRefused() throws {
    let error = #expect(throws: MemeError.self) {
      try ImageFixtures.decode("bomb-100000x100000.png")
    }
    #expect(
      error?.message == "cannot load 'bomb-100000x100000.png': the picture is 100000×100000 "
        + "pixels, more than the limit of 100 megapixels")
  }

  @Test func pixelCapIsConfigurable() throws {
    let limits = DecodeLimits(maxPixels: 600)
    let error = #expect(throws: MemeError.self) {
      try ImageFixtures.decode("baseline.jpg", limits: limits)
    }
    #expect(error?.message.contains("32×24 pixels, more than the limit") == true)
    #expect(try ImageFixtures.decode("exif-6.jpg", limits: DecodeLimits(maxPixels: 384)).image.width == 24)
    let png = try Data(contentsOf: ImageFixtures.pngSuite.appendingPathComponent("basn2c08.png"))
    #expect(throws: MemeError.self) {
      try ImageCodec.decode(png, name: "p.png", limits: DecodeLimits(maxPixels: 1023))
    }
    #expect(try ImageCodec.decode(png, name: "p.png", limits: DecodeLimits(maxPixels: 1024)).image.width == 32)
  }

  @Test func jpegWithThousandsOfScansIsRefused() throws {
    let error = #expect(throws: MemeError.self) { try ImageFixtures.decode("bomb-3000-scans.jpg") }
    #expect(
      error?.message
        == "cannot load 'bomb-3000-scans.jpg': the JPEG has more than 1000 scans (a decompression bomb?)")
    // A lower cap applies too, and the proxy path has the same cap.
    #expect(throws: MemeError.self) {
      try ImageCodec.decodeProxy(
        try ImageFixtures.data("bomb-3000-scans.jpg"), name: "b.jpg", maxDimension: 64)
    }
  }

  @Test func scanCapLeavesOrdinaryProgressiveFilesAlone() throws {
    let decoded = try ImageFixtures.decode("progressive.jpg", limits: DecodeLimits(maxJPEGScans: 20))
    #expect(decoded.image.size == PixelSize(width: 32, height: 24))
  }

  @Test(arguments: ["bomb-ztxt.png", "bomb-itxt.png"])
  func textChunkBombsAreNotInflated(_ file: String) throws {
    // The picture (8×8 grey) loads; the text is skipped or cut off at libpng's limit.
    let decoded = try ImageFixtures.decode(file)
    #expect(decoded.image.size == PixelSize(width: 8, height: 8))
    #expect(decoded.image[0, 0] == RGBA(128, 128, 128))
    #expect(decoded.recipe == nil)
  }

  @Test func bombsCostLittleMemory() throws {
    let files = ["bomb-100000x100000.png", "bomb-3000-scans.jpg", "bomb-ztxt.png", "bomb-itxt.png"]
    let probe = try ImageProbe.run(
      files.map { ImageFixtures.images.appendingPathComponent($0).path }, in: ImageFixtures.root)
    #expect(probe.standardError == "")
    #expect(probe.lines.count >= 4)
    // The whole process, Swift runtime included; a 64 MB text or a 40 GB canvas would show.
    #expect(probe.maxResidentKilobytes > 0 && probe.maxResidentKilobytes < 60_000, "\(probe)")
  }
}
