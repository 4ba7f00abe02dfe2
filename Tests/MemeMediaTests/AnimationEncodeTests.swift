import Foundation
import MemeCore
import Testing

@testable import MemeMedia

/// Animated memes out: every frame captioned, GIF and WebP, timing and loop count kept, the
/// recipe embedded, unchanged areas left transparent and frames cropped to what changed.
@Suite struct AnimationEncodeTests {
  let renderer = AnimationRenderer(catalog: .standard())
  let recipe = EmbeddedRecipe(
    recipe: MemeRecipe(top: "TOP", bottom: "BOTTOM"), originalSHA256: String(repeating: "ab", count: 32))

  func render(
    _ name: String, boxes: [TextBox] = [], format: ImageFormat,
    gif: GIFOptions = GIFOptions()
  ) throws -> MemeRenderer.Output {
    var renderer = self.renderer
    renderer.settings.recipe = recipe
    renderer.gif = gif
    return try renderer.render(
      try AnimationDecodeTests.data(name), name: name, boxes: boxes, font: "Anton",
      format: format)
  }

  @Test(arguments: ["pan.gif", "pan-optimized.gif", "disposal.gif", "noloop.gif", "pan.webp"])
  func gifOutKeepsFramesTimingAndLoopCount(name: String) throws {
    let output = try render(name, format: .gif)
    let (source, sourceFrames) = try AnimationDecodeTests.frames(name)
    let (written, frames) = try AnimationDecodeTests.frames(of: output.data)
    #expect(written.frameCount == source.frameCount)
    #expect(written.delays == source.delays)
    if source.format == .gif {
      #expect(written.fileDelays == source.fileDelays)
      #expect(written.loopCount == source.loopCount)
    }
    #expect(written.plays == source.plays)
    #expect(written.recipeText == recipe.encoded())
    for (mine, theirs) in zip(frames, sourceFrames) {
      // Transparency exactly where the source has it; colours close.
      let alphas = zip(
        stride(from: 3, to: mine.image.pixels.count, by: 4).map { mine.image.pixels[$0] >= 128 },
        stride(from: 3, to: theirs.image.pixels.count, by: 4).map { theirs.image.pixels[$0] >= 128 })
      #expect(alphas.allSatisfy { $0 == $1 }, "\(name) frame \(mine.index + 1) transparency")
      #expect(AnimationQuality.psnr(mine.image, theirs.image) > 30, "\(name) frame \(mine.index + 1)")
    }
  }

  @Test func webpOutKeepsFramesTimingAndLoopCount() throws {
    for name in ["pan.gif", "disposal.gif", "pan.webp", "noloop.gif"] {
      let output = try render(name, format: .webp)
      let (source, sourceFrames) = try AnimationDecodeTests.frames(name)
      let decoder = try ImageCodec.openAnimation(output.data, name: "out.webp")
      #expect(decoder.info.frameCount == source.frameCount, "\(name)")
      #expect(decoder.info.delays == source.delays, "\(name)")
      // A GIF without a loop block plays once: a WebP loop count of 1; a NETSCAPE count of 3
      // plays 4 times.
      #expect(decoder.info.plays == source.plays, "\(name)")
      #expect(decoder.info.loopCount == (source.plays ?? 0), "\(name)")
      #expect(decoder.info.recipeText == recipe.encoded())
      var index = 0
      while let frame = try decoder.next() {
        #expect(AnimationQuality.psnr(frame.image, sourceFrames[index].image) > 30)
        index += 1
      }
    }
  }

  @Test func theStillDecoderReadsTheRecipeOfAGIFMemeshWrote() throws {
    let output = try render("pan.gif", format: .gif)
    let still = try ImageCodec.decode(output.data, name: "meme.gif")
    #expect(still.recipe?.embedded == recipe)
  }

  @Test func unchangedAreasAreLeftOutOfLaterFrames() throws {
    // disposal.gif: after the first frame only a 64×64 square changes (and comes back).
    let output = try render("disposal.gif", format: .gif)
    let rectangles = try GIFLayout.frames(of: output.data)
    #expect(rectangles.count == 4)
    #expect(rectangles[0] == PixelRect(x: 0, y: 0, width: 160, height: 120))
    #expect(rectangles[1] == PixelRect(x: 10, y: 10, width: 64, height: 64))
    // The fourth frame has transparent pixels where the third showed clear.png, so the third
    // covers the picture and clears it after it is shown (disposal 2).
    #expect(rectangles[2] == PixelRect(x: 0, y: 0, width: 160, height: 120))
    // A GIF with nothing changing but a small part is much smaller than its frames.
    let panOutput = try render("pan.gif", format: .gif)
    #expect(panOutput.data.count < 8 * 96 * 72)
  }

  @Test func captionsAreOnEveryFrameAndCleanAtTheirEdges() throws {
    let boxes = [TextBox(text: "HELLO", placement: .top)]
    let output = try render("pan.gif", boxes: boxes, format: .gif)
    let (_, frames) = try AnimationDecodeTests.frames(of: output.data)
    let (_, plain) = try AnimationDecodeTests.frames("pan.gif")
    // The caption as drawn in true colour on the first frame.
    var truth = plain[0].image
    let (canvases, _) = try renderer.captions.canvases(
      for: truth.size, top: "HELLO", bottom: "", font: "Anton")
    for canvas in canvases { canvas.composite(onto: &truth) }
    let region = try #require(canvases.first?.region)
    for (frame, source) in zip(frames, plain) {
      let band = ImageOps.crop(frame.image, to: region)
      let before = ImageOps.crop(source.image, to: region)
      #expect(AnimationQuality.psnr(band, before) < 20, "frame \(frame.index + 1) has its caption")
    }
    // Text edges are not dithered: the caption region is close to the true-colour caption.
    let first = ImageOps.crop(frames[0].image, to: region)
    #expect(AnimationQuality.psnr(first, ImageOps.crop(truth, to: region)) > 30)
  }

  @Test func aCaptionLimitedToTheSecondHalfShowsOnlyThere() throws {
    let boxes = [TextBox(text: "LATER", placement: .bottom, start: 0.5, stop: 1)]
    let output = try render("disposal.gif", boxes: boxes, format: .gif)
    let (_, frames) = try AnimationDecodeTests.frames(of: output.data)
    let (_, plain) = try AnimationDecodeTests.frames("disposal.gif")
    // Four frames of 500 ms: frames 3 and 4 start at 0.5 and 0.75.
    let bottom = PixelRect(x: 0, y: 90, width: 160, height: 30)
    for index in 0..<4 {
      let shown = ImageOps.crop(frames[index].image, to: bottom)
      let source = ImageOps.crop(plain[index].image, to: bottom)
      let changed = AnimationQuality.psnr(shown, source) < 25
      #expect(changed == (index >= 2), "frame \(index + 1)")
    }
  }

  @Test func aStillSharedAsGIFIsOneFrame() throws {
    let image = try ImageFixtures.decode("baseline.jpg").image
    let output = try renderer.render(
      still: image, boxes: [TextBox(text: "STILL", placement: .top)], font: "Anton",
      format: .gif)
    let info = try ImageCodec.animationInfo(output.data, name: "still.gif")
    #expect(info.frameCount == 1)
    #expect(info.loopCount == nil)
    #expect(output.size == image.size)
  }

  @Test func aPalettePerFrameKeepsAPanBetterThanOneGlobalPalette() throws {
    var quality: [Bool: [Double]] = [:]
    for global in [false, true] {
      let output = try render(
        "pan.gif", format: .gif, gif: GIFOptions(dither: 0, tolerance: 0, globalPalette: global))
      let (_, frames) = try AnimationDecodeTests.frames(of: output.data)
      let (_, plain) = try AnimationDecodeTests.frames("pan.gif")
      quality[global] = zip(frames, plain).map { AnimationQuality.psnr($0.image, $1.image) }
    }
    // pan.gif's frames have at most 128 colours each: a palette per frame keeps them exactly.
    #expect(quality[false]?.allSatisfy { $0 >= 99 } == true)
    // One palette made from the first frame misses the colours the pan brings in later.
    let global = try #require(quality[true])
    #expect(global[0] >= 99)
    #expect(global.suffix(4).allSatisfy { $0 < 30 })
  }
}

/// The frame rectangles of a GIF, read with giflib's record reader.
enum GIFLayout {
  static func frames(of data: Data) throws -> [PixelRect] {
    let records = try GIFRecords(AnimationBytes(data, format: .gif))
    var rectangles: [PixelRect] = []
    while let (descriptor, _) = try records.nextImage() {
      rectangles.append(
        PixelRect(
          x: Int(descriptor.Left), y: Int(descriptor.Top), width: Int(descriptor.Width),
          height: Int(descriptor.Height)))
      try records.skipImage(descriptor)
    }
    return rectangles
  }
}

/// A loop count survives a trip through the other format and back.
@Suite struct AnimationLoopRoundTripTests {
  let renderer = AnimationRenderer(catalog: .standard())

  /// A two-frame GIF with this NETSCAPE count (nil: no loop block).
  func gif(loopCount: Int?) throws -> Data {
    let writer = try GIFWriter(
      canvas: PixelSize(width: 8, height: 8), loopCount: loopCount, recipe: nil,
      options: GIFOptions())
    for shade in [UInt8(40), 200] {
      try writer.add(
        pixels: [UInt8](repeating: shade, count: 8 * 8 * 4), mask: nil, centiseconds: 10)
    }
    return try writer.finish()
  }

  func through(_ data: Data, _ formats: [ImageFormat]) throws -> AnimationInfo {
    var data = data
    for format in formats {
      data = try renderer.render(
        data, name: "loop", boxes: [], font: "Anton", format: format
      ).data
    }
    return try ImageCodec.animationInfo(data, name: "loop")
  }

  @Test(arguments: [nil, 0, 1, 2, 7])
  func aGIFLoopCountSurvivesWebP(loopCount: Int?) throws {
    let source = try gif(loopCount: loopCount)
    let sourceInfo = try ImageCodec.animationInfo(source, name: "loop.gif")
    let webp = try through(source, [.webp])
    #expect(webp.plays == sourceInfo.plays)
    let back = try through(source, [.webp, .gif])
    #expect(back.loopCount == loopCount)
    #expect(back.plays == sourceInfo.plays)
  }

  @Test func aWebPLoopCountSurvivesGIF() throws {
    // pan.webp plays twice: a NETSCAPE count of 1, then 2 plays again.
    let source = try AnimationDecodeTests.data("pan.webp")
    let gif = try through(source, [.gif])
    #expect(gif.loopCount == 1)
    #expect(gif.plays == 2)
    #expect(try through(source, [.gif, .webp]).loopCount == 2)
  }
}
