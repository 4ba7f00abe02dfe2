import CMemeshCoefficients
import Foundation
import MemeCore
import Testing

@testable import MemeMedia

/// The splicer's scan index (where every MCU starts, read from the photo's own stuffed bytes)
/// on photos other programs write: noisy ones at high quality, whose coded data is full of
/// stuffed 0xFF bytes (some at MCU boundaries), restart markers every row or every few rows,
/// every sampling, crops that start and end mid-row, and a photo large enough for the second
/// indexing thread. A wrong offset or DC predictor anywhere shows as changed blocks (or a
/// refusal) in the spliced meme.
@Suite struct JPEGSpliceIndexTests {
  /// A photo-like gradient with deterministic noise: at quality 95–100 nearly every coefficient
  /// is coded, so the entropy-coded data holds a 0xFF byte (stuffed with 0x00) about every 256
  /// bytes, and with thousands of MCUs many fall on or next to an MCU boundary.
  static func noisyPhoto(width: Int, height: Int) -> RGBAImage {
    var image = RGBAImage(width: width, height: height)
    var seed: UInt32 = 0x2545_F491
    for y in 0..<height {
      for x in 0..<width {
        seed = seed &* 1_664_525 &+ 1_013_904_223
        let noise = Int(seed >> 26)  // 0..<64
        image[x, y] = RGBA(
          UInt8(min(255, x * 180 / max(1, width - 1) + noise)),
          UInt8(min(255, y * 180 / max(1, height - 1) + (noise ^ 21))),
          UInt8(min(255, (x + 2 * y) % 180 + (noise >> 1))), 255)
      }
    }
    return image
  }

  static func encode(
    _ image: RGBAImage, _ settings: memesh_test_jpeg_settings
  ) throws -> Data {
    var settings = settings
    var bytes: UnsafeMutablePointer<UInt8>?
    var size = 0
    let status = image.pixels.withUnsafeBufferPointer { pixels in
      memesh_test_encode_jpeg(
        pixels.baseAddress, UInt32(image.width), UInt32(image.height), &settings, &bytes, &size)
    }
    let written = try #require(bytes, "libjpeg could not encode the test photo")
    defer { memesh_coefficients_free_jpeg(written) }
    try #require(status == 0)
    return Data(bytes: written, count: size)
  }

  /// Stuffed 0xFF bytes and restart markers in `jpeg`'s entropy-coded data.
  static func markers(_ jpeg: Data) -> (stuffed: Int, restarts: Int) {
    let bytes = [UInt8](jpeg)
    var start = 0
    // The scan starts after the SOS segment.
    for index in 0..<bytes.count - 3 where bytes[index] == 0xFF && bytes[index + 1] == 0xDA {
      start = index + 2 + Int(bytes[index + 2]) << 8 + Int(bytes[index + 3])
      break
    }
    var (stuffed, restarts) = (0, 0)
    for index in start..<bytes.count - 1 where bytes[index] == 0xFF {
      if bytes[index + 1] == 0 { stuffed += 1 }
      if (0xD0...0xD7).contains(bytes[index + 1]) { restarts += 1 }
    }
    return (stuffed, restarts)
  }

  struct Case: Sendable, CustomTestStringConvertible {
    var width: Int
    var height: Int
    var quality: Int32
    var components: Int32
    var h: Int32
    var v: Int32
    var restartRows: Int32 = 0
    var twoThreads = false
    var testDescription: String {
      "\(width)x\(height) q\(quality) \(components == 1 ? "gray" : "\(h)x\(v)") "
        + "restart rows \(restartRows)\(twoThreads ? " two threads" : "")"
    }
  }

  @Test(arguments: [
    Case(width: 1024, height: 384, quality: 100, components: 3, h: 2, v: 2),
    Case(width: 1000, height: 410, quality: 97, components: 3, h: 2, v: 2, restartRows: 1),
    Case(width: 600, height: 300, quality: 100, components: 3, h: 1, v: 1, restartRows: 2),
    Case(width: 610, height: 330, quality: 95, components: 3, h: 2, v: 1),
    Case(width: 500, height: 250, quality: 100, components: 1, h: 1, v: 1, restartRows: 1),
    Case(width: 2048, height: 1040, quality: 98, components: 3, h: 2, v: 2, twoThreads: true),
    Case(width: 2048, height: 1040, quality: 98, components: 3, h: 2, v: 2, restartRows: 1),
  ])
  func everyBlockOutsideTheTouchedRowsComesThroughExactly(_ test: Case) throws {
    let photo = Self.noisyPhoto(width: test.width, height: test.height)
    let source = try Self.encode(
      photo,
      memesh_test_jpeg_settings(
        quality: test.quality, components: test.components, h: test.h, v: test.v,
        restart_rows: test.restartRows, restart_mcus: 0, optimize: 0))
    let (stuffed, restarts) = Self.markers(source)
    #expect(stuffed > 200, "the test photo should have plenty of stuffed 0xFF bytes")
    #expect((restarts > 0) == (test.restartRows > 0))
    let plan = try JPEGSplice.plan(source, crop: .off).get()
    let mcu = plan.mcuSize
    if test.twoThreads {
      let opened = try JPEGSplice.Source.open(
        source, maxPixels: 1 << 30, waitForSecondThread: true
      ).get()
      // With the first thread waiting at the start, the second began a run from the middle and
      // then ones halfway back towards the start, each ending where it met the run after it;
      // the first thread took over from the earliest, in the first eighth or so of the photo.
      let mcus = (test.width / mcu.width) * ((test.height + mcu.height - 1) / mcu.height)
      #expect(opened.tailMCU > 0 && opened.tailMCU < mcus / 4, "\(opened.tailMCU) of \(mcus)")
    }
    // The whole photo, and a crop whose edges are mid-row on both sides (its first MCU of each
    // row has its DC difference coded again, its last ends inside the source's row).
    let crops: [(Crop, PixelRect)] = [
      (.off, PixelRect(x: 0, y: 0, width: test.width, height: test.height)),
      {
        let rect = PixelRect(
          x: mcu.width, y: 2 * mcu.height, width: test.width - 2 * mcu.width - 3,
          height: test.height - 2 * mcu.height - 5)
        return (.rect(rect), rect)
      }(),
    ]
    for (crop, rect) in crops {
      // A box in the top quarter and one at the bottom, as captions are.
      let regions = [
        PixelRect(x: rect.width / 10, y: rect.height / 10, width: rect.width / 2, height: 20),
        PixelRect(x: 0, y: rect.height - 30, width: rect.width, height: 30),
      ]
      var touched = Set<Int>()
      for region in regions {
        touched.formUnion((region.y / mcu.height)...((region.y + region.height - 1) / mcu.height))
      }
      let spliced = try JPEGSplice.splice(
        source, crop: crop, regions: regions, maxPixels: 1 << 30,
        waitForSecondThread: test.twoThreads
      ).get()
      #expect(spliced.touchedRows == touched.count)
      let (same, _) = try JPEGSpliceTests().compareBlocks(
        source: source, meme: spliced.jpeg,
        originMCU: (rect.x / mcu.width, rect.y / mcu.height), touched: touched)
      let rows = (rect.height + mcu.height - 1) / mcu.height
      #expect(same >= rows - touched.count, "\(crop)")
      let decoded = try ImageCodec.decode(spliced.jpeg, name: "spliced.jpg")
      #expect(decoded.image.size == rect.size)
      #expect(decoded.warnings.isEmpty, "\(decoded.warnings)")
    }
  }

  /// A large photo's coded data damaged in the first half, the second or in every run's stretch:
  /// it is refused, or spliced into the very same bytes, whether what the second indexing thread
  /// does was waited for (its runs followed from the first sixteenth, or the rows after the
  /// middle restart marker) or used as it came. Without restart markers and with one per row.
  @Test(arguments: [0, 1] as [Int32])
  func damagedDataGetsTheSameAnswerWhicheverThreadIndexedIt(restartRows: Int32) throws {
    let source = try Self.encode(
      Self.noisyPhoto(width: 2048, height: 1040),
      memesh_test_jpeg_settings(
        quality: 98, components: 3, h: 2, v: 2, restart_rows: restartRows, restart_mcus: 0,
        optimize: 0))
    let bytes = [UInt8](source)
    var generator = SeededGenerator(seed: 19)
    var refused = 0
    for round in 0..<24 {
      var damaged = bytes
      // Somewhere in the scan (which takes nearly all of the file): a changed byte or three, a
      // cut, bytes removed, or a marker where none belongs.
      let at = bytes.count / 20 + Int(generator.next() % UInt64(bytes.count * 9 / 10))
      switch round % 4 {
      case 0:
        for offset in 0..<(1 + round % 3) { damaged[at + offset * 977] ^= 0x5A }
      case 1: damaged.removeSubrange(at...)
      case 2: damaged.removeSubrange(at..<at + 1 + round)
      default: damaged.replaceSubrange(at..<at + 2, with: [0xFF, 0xD0 + UInt8(round % 8)])
      }
      let regions = [PixelRect(x: 0, y: 400, width: 2048, height: 40)]
      let waited = JPEGSplice.splice(
        Data(damaged), crop: .off, regions: regions, maxPixels: 1 << 30,
        waitForSecondThread: true)
      let asTheyCame = JPEGSplice.splice(
        Data(damaged), crop: .off, regions: regions, maxPixels: 1 << 30)
      switch (waited, asTheyCame) {
      case (.success(let one), .success(let other)):
        #expect(one.jpeg == other.jpeg, "round \(round): the same meme")
      case (.failure(let one), .failure(let other)):
        #expect(one == other, "round \(round)")
        refused += 1
      default:
        Issue.record("round \(round): \(waited) and \(asTheyCame)")
      }
    }
    // Every cut is refused (the scan must end in EOI); most other damage is too.
    #expect(refused >= 6)
  }

  /// Restart markers inside rows of MCUs cannot be spliced (rows would start mid-interval).
  @Test func restartMarkersInsideRowsAreRefused() throws {
    let source = try Self.encode(
      Self.noisyPhoto(width: 320, height: 160),
      memesh_test_jpeg_settings(
        quality: 90, components: 3, h: 2, v: 2, restart_rows: 0, restart_mcus: 7, optimize: 0))
    #expect(Self.markers(source).restarts > 0)
    #expect(JPEGSplice.plan(source, crop: .off) == .failure(.restartMarkers))
  }
}

/// A small deterministic generator (xorshift), so a failing round can be run again.
struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 | 1 }
  mutating func next() -> UInt64 {
    state ^= state << 13
    state ^= state >> 7
    state ^= state << 17
    return state
  }
}
