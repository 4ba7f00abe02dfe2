import CMemeshCoefficients
import Foundation
import MemeCore
import Testing

@testable import MemeMedia

/// The spliced meme is written by two threads: both make the captions' bands, then write the
/// rows, one from the top into the meme itself, the other from the bottom into a buffer of its
/// own that is copied after. Whatever thread writes which row, the meme must be the same bytes:
/// every row after its restart marker, in order, every untouched block as it was.
@Suite struct JPEGSpliceWriteTests {
  /// The restart markers in `jpeg`'s scan, in order (0 for RST0 ... 7 for RST7).
  static func restarts(_ jpeg: Data) -> [Int] {
    let bytes = [UInt8](jpeg)
    guard
      let sos = (0..<bytes.count - 3).first(where: { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA })
    else { return [] }
    let start = sos + 2 + Int(bytes[sos + 2]) << 8 + Int(bytes[sos + 3])
    return (start..<bytes.count - 1).compactMap { index in
      bytes[index] == 0xFF && (0xD0...0xD7).contains(bytes[index + 1])
        ? Int(bytes[index + 1]) - 0xD0 : nil
    }
  }

  /// Where the captions are, as fractions of the height (top, bottom).
  struct Layout: Sendable, CustomTestStringConvertible {
    var testDescription: String
    var bands: [(top: Double, bottom: Double)]
  }

  static let layouts: [Layout] = [
    // Nothing drawn: every row copied.
    Layout(testDescription: "no captions", bands: []),
    // One caption: its band cut in two for the two threads, the rows after it written aside.
    Layout(testDescription: "one caption at the top", bands: [(0, 0.3)]),
    Layout(testDescription: "top and bottom", bands: [(0.05, 0.2), (0.8, 0.95)]),
    Layout(
      testDescription: "four captions", bands: [(0, 0.12), (0.3, 0.4), (0.55, 0.6), (0.85, 1)]),
    // Every other row: many bands and rows between them.
    Layout(
      testDescription: "stripes",
      bands: (0..<20).map { (top: Double($0) / 20, bottom: Double($0) / 20 + 0.01) }),
  ]

  @Test(arguments: layouts)
  func everyWayTheRowsAreSharedGivesTheSameMeme(_ layout: Layout) throws {
    let name = layout.testDescription
    let (width, height) = (1024, 768)
    let source = try JPEGSpliceIndexTests.encode(
      JPEGSpliceIndexTests.noisyPhoto(width: width, height: height),
      memesh_test_jpeg_settings(
        quality: 95, components: 3, h: 2, v: 2, restart_rows: 0, restart_mcus: 0, optimize: 0))
    let regions = layout.bands.compactMap { band -> PixelRect? in
      let (top, bottom) = (Int(band.top * Double(height)), Int(band.bottom * Double(height)))
      return bottom > top ? PixelRect(x: 100, y: top, width: 600, height: bottom - top) : nil
    }
    var touched = Set<Int>()
    for region in regions {
      touched.formUnion((region.y / 16)...((region.y + region.height - 1) / 16))
    }
    let first = try JPEGSplice.splice(
      source, crop: .off, regions: regions, maxPixels: 1 << 30
    ).get()
    #expect(first.touchedRows == touched.count, "\(name)")
    // The same bytes every time, however the two threads raced.
    for _ in 0..<6 {
      let again = try JPEGSplice.splice(
        source, crop: .off, regions: regions, maxPixels: 1 << 30
      ).get()
      // A Bool: a failing comparison of the two Data would diff them, for minutes.
      let same = again.jpeg == first.jpeg
      #expect(same, "\(name): another splice wrote other bytes")
    }
    // A restart marker between each two rows, numbered in order.
    let rows = height / 16
    #expect(Self.restarts(first.jpeg) == (0..<rows - 1).map { $0 % 8 }, "\(name)")
    let (same, _) = try JPEGSpliceTests().compareBlocks(
      source: source, meme: first.jpeg, originMCU: (0, 0), touched: touched)
    #expect(same >= rows - touched.count, "\(name)")
    let decoded = try ImageCodec.decode(first.jpeg, name: "spliced.jpg")
    #expect(decoded.image.size == PixelSize(width: width, height: height))
    #expect(decoded.warnings.isEmpty, "\(name): \(decoded.warnings)")
  }
}
