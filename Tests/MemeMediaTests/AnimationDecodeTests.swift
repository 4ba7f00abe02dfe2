import Foundation
import MemeCore
import Testing

@testable import MemeMedia

/// Animated GIF and WebP in: every frame composed as a browser shows it, against ImageMagick's
/// coalesced frames (GIF) and the frames the WebP was made from; delays, loop counts, limits.
/// Fixtures: scripts/make-animation-fixtures.py.
@Suite struct AnimationDecodeTests {
  static let folder = ImageFixtures.root.appendingPathComponent("animation", isDirectory: true)

  static func data(_ name: String) throws -> Data {
    try Data(contentsOf: folder.appendingPathComponent(name))
  }

  /// The reference's frames, stacked top to bottom in NAME.ref.png.
  static func referenceFrames(_ name: String, count: Int) throws -> [RGBAImage] {
    let stacked = try ImageCodec.decode(try data(name + ".ref.png"), name: name).image
    let height = stacked.height / count
    return (0..<count).map { index in
      ImageOps.crop(stacked, to: PixelRect(x: 0, y: index * height, width: stacked.width, height: height))
    }
  }

  static func frames(_ name: String, limits: AnimationLimits = .default) throws -> (
    AnimationInfo, [AnimationFrame]
  ) {
    let decoder = try ImageCodec.openAnimation(try data(name), name: name, limits: limits)
    var frames: [AnimationFrame] = []
    while let frame = try decoder.next() { frames.append(frame) }
    return (decoder.info, frames)
  }

  /// Same transparency everywhere and the same colour wherever the reference is visible.
  static func sameVisiblePixels(_ image: RGBAImage, _ reference: RGBAImage) -> Bool {
    guard image.size == reference.size else { return false }
    for y in 0..<image.height {
      for x in 0..<image.width {
        let (mine, theirs) = (image[x, y], reference[x, y])
        guard (mine.a == 0) == (theirs.a == 0) else { return false }
        if theirs.a > 0, mine != theirs { return false }
      }
    }
    return true
  }

  @Test(arguments: ["pan.gif", "pan-optimized.gif", "disposal.gif", "noloop.gif"])
  func gifFramesMatchImageMagick(name: String) throws {
    let (info, frames) = try Self.frames(name)
    #expect(frames.count == info.frameCount)
    let references = try Self.referenceFrames(name, count: info.frameCount)
    for (frame, reference) in zip(frames, references) {
      #expect(Self.sameVisiblePixels(frame.image, reference), "\(name) frame \(frame.index + 1)")
    }
  }

  @Test func gifDelaysAndLoopCount() throws {
    let pan = try ImageCodec.animationInfo(try Self.data("pan.gif"), name: "pan.gif")
    #expect(pan.frameCount == 8)
    #expect(pan.canvas == PixelSize(width: 96, height: 72))
    #expect(pan.fileDelays == [0, 10, 20, 50, 100, 200, 300, 400])
    // 0 and 1 cs play as 10 cs, as in browsers; 2 cs is 20 ms.
    #expect(pan.delays == [100, 100, 20, 50, 100, 200, 300, 400])
    #expect(pan.duration == 1270)
    #expect(pan.loopCount == 0)
    #expect(pan.loopDescription == "forever")
    let disposal = try ImageCodec.animationInfo(try Self.data("disposal.gif"), name: "d.gif")
    #expect(disposal.loopCount == 3)
    // NETSCAPE2.0's count is the repeats after the first play, as browsers play it.
    #expect(disposal.plays == 4)
    #expect(disposal.loopDescription == "4 times")
    #expect(disposal.delays == [500, 500, 500, 500])
    let once = try ImageCodec.animationInfo(try Self.data("noloop.gif"), name: "n.gif")
    #expect(once.loopCount == nil)
    #expect(once.loopDescription == "once")
  }

  @Test func disposalToBackgroundLeavesTransparency() throws {
    let (_, frames) = try Self.frames("disposal.gif")
    // Frame 3 (clear.png at 60,40) is disposed to background: frame 4 shows nothing there,
    // except where its own square (at 90,50) lies.
    #expect(frames[3].image[70, 45].a == 0)
    #expect(frames[3].image[100, 60].a == 255)
    // Frame 2 (the square at 10,10) is disposed to previous: frame 3 shows the cat again there.
    #expect(frames[2].image[20, 20] == frames[0].image[20, 20])
  }

  @Test func webpFramesAreTheFramesItWasMadeFrom() throws {
    let (info, frames) = try Self.frames("pan.webp")
    #expect(info.frameCount == 8)
    #expect(info.fileDelays == [80, 120, 80, 120, 80, 120, 80, 120])
    #expect(info.loopCount == 2)
    let references = try Self.referenceFrames("pan.webp", count: 8)
    for (frame, reference) in zip(frames, references) {
      #expect(frame.image == reference, "frame \(frame.index + 1)")
    }
    let (lossyInfo, lossy) = try Self.frames("pan-lossy.webp")
    #expect(lossyInfo.loopCount == 0)
    #expect(lossy.count == 8)
    for (frame, reference) in zip(lossy, references) {
      #expect(AnimationQuality.psnr(frame.image, reference) > 28)
    }
  }

  @Test func animationInfoCountsFramesWithoutDecodingAndRefusesOtherFormats() throws {
    let info = { (data: Data) throws in try ImageCodec.animationInfo(data, name: "x") }
    #expect(try info(Self.data("pan.gif")).frameCount > 1)
    #expect(try info(Self.data("pan.webp")).frameCount > 1)
    #expect(try info(ImageFixtures.data("gif-transparent.gif")).frameCount == 1)
    #expect(try info(ImageFixtures.data("webp-lossy.webp")).frameCount == 1)
    #expect(throws: MediaError.self) { try info(ImageFixtures.data("baseline.jpg")) }
  }

  // MARK: - Limits and bombs

  @Test func aMillionFramesAreRefusedBeforeDecoding() throws {
    let bomb = GIFBytes.make(screen: (1, 1), frames: 10_001, frame: (1, 1), delay: 0)
    #expect(throws: MediaError.self) { try ImageCodec.openAnimation(bomb, name: "bomb.gif") }
    do {
      _ = try ImageCodec.openAnimation(bomb, name: "bomb.gif")
    } catch {
      #expect(
        error.message
          == "cannot load 'bomb.gif': the animation has more than 10000 frames, the most memesh reads")
    }
  }

  @Test func aHugeCanvasWithTinyFramesIsRefused() throws {
    let bomb = GIFBytes.make(screen: (10000, 10000), frames: 2, frame: (1, 1), delay: 5)
    do {
      _ = try ImageCodec.openAnimation(bomb, name: "canvas.gif")
      Issue.record("a 10000×10000 animation was opened")
    } catch {
      #expect(error.message.contains("canvas is 10000×10000 pixels, more than the limit"))
    }
  }

  @Test func framesTimesPixelsAreCapped() throws {
    let many = GIFBytes.make(screen: (1000, 1000), frames: 50, frame: (1, 1), delay: 5)
    let limits = AnimationLimits(maxTotalPixels: 20_000_000)
    do {
      _ = try ImageCodec.openAnimation(many, name: "many.gif", limits: limits)
      Issue.record("50 frames of a megapixel passed a 20-megapixel cap")
    } catch {
      #expect(error.message.contains("more than 20 megapixels in all"))
    }
  }

  @Test func aLoopOfZeroDelayFramesPlaysAtTenFramesASecond() throws {
    let spin = GIFBytes.make(screen: (2, 2), frames: 3, frame: (2, 2), delay: 0, loop: 0)
    let (info, frames) = try Self.frames(of: spin)
    #expect(info.fileDelays == [0, 0, 0])
    #expect(frames.map(\.delay) == [100, 100, 100])
    #expect(info.duration == 300)
  }

  @Test func aGIFCutShortKeepsItsWholeFrames() throws {
    let whole = GIFBytes.make(screen: (2, 2), frames: 5, frame: (2, 2), delay: 4)
    // Cut inside the fourth frame's data.
    let cut = whole.prefix(whole.count - 20)
    let decoder = try ImageCodec.openAnimation(Data(cut), name: "cut.gif")
    #expect(decoder.info.frameCount >= 2 && decoder.info.frameCount < 5)
    #expect(decoder.warnings.first?.contains("the GIF ends after") == true)
  }

  static func frames(of data: Data) throws -> (AnimationInfo, [AnimationFrame]) {
    let decoder = try ImageCodec.openAnimation(data, name: "made.gif")
    var frames: [AnimationFrame] = []
    while let frame = try decoder.next() { frames.append(frame) }
    return (decoder.info, frames)
  }
}

/// Small GIFs built byte by byte, for the limits (a real encoder would not write them).
enum GIFBytes {
  /// A GIF89a of `screen` with `frames` images of `frame` size, each one pixel colour per
  /// image (LZW: clear, index 0 repeated as literal codes, end), `delay` centiseconds each.
  static func make(
    screen: (Int, Int), frames: Int, frame: (Int, Int), delay: Int, loop: Int? = nil
  ) -> Data {
    var bytes = Array("GIF89a".utf8)
    func short(_ value: Int) { bytes += [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
    short(screen.0)
    short(screen.1)
    // A global table of 2 colours: black, white.
    bytes += [0x80, 0, 0, 0, 0, 0, 255, 255, 255]
    if let loop {
      bytes += [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1]
      short(loop)
      bytes += [0]
    }
    let pixels = frame.0 * frame.1
    let data = lzw(count: pixels)
    for _ in 0..<frames {
      bytes += [0x21, 0xF9, 4, 0]
      short(delay)
      bytes += [0, 0]
      bytes += [0x2C]
      short(0)
      short(0)
      short(frame.0)
      short(frame.1)
      bytes += [0, 2]
      var rest = data[...]
      while !rest.isEmpty {
        let block = rest.prefix(255)
        bytes += [UInt8(block.count)] + block
        rest = rest.dropFirst(block.count)
      }
      bytes += [0]
    }
    bytes += [0x3B]
    return Data(bytes)
  }

  /// LZW codes for `count` pixels of index 0 at minimum code size 2: a clear code before every
  /// pixel keeps the code width at 3 bits.
  private static func lzw(count: Int) -> [UInt8] {
    var codes: [Int] = []
    for _ in 0..<count { codes += [4, 0] }
    codes.append(5)
    var bytes: [UInt8] = []
    var accumulator = 0
    var bits = 0
    for code in codes {
      accumulator |= code << bits
      bits += 3
      while bits >= 8 {
        bytes.append(UInt8(accumulator & 0xFF))
        accumulator >>= 8
        bits -= 8
      }
    }
    if bits > 0 { bytes.append(UInt8(accumulator & 0xFF)) }
    return bytes
  }
}

/// Picture quality as the bench reports it.
enum AnimationQuality {
  /// Peak signal-to-noise ratio over R, G and B of the pixels both show (alpha ≥ 128), in dB.
  static func psnr(_ image: RGBAImage, _ reference: RGBAImage) -> Double {
    guard image.size == reference.size else { return 0 }
    var squares = 0.0
    var count = 0
    for index in stride(from: 0, to: image.pixels.count, by: 4)
    where reference.pixels[index + 3] >= 128 {
      for channel in 0..<3 {
        let difference = Double(image.pixels[index + channel]) - Double(reference.pixels[index + channel])
        squares += difference * difference
      }
      count += 3
    }
    guard count > 0, squares > 0 else { return 99 }
    return 10 * log10(255 * 255 / (squares / Double(count)))
  }
}
