import Foundation
import MemeCore
import MemeMedia
import Testing

/// Every PngSuite file: the `decode` ones load with the MANIFEST's size and exactly the pixels of
/// the independent reference (`scripts/pngsuite-reference.py`, pypng), the `x*` ones are refused
/// with one line naming the file and libpng's reason.
@Suite struct ImagePngSuiteTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var file: String
    var width: Int
    var height: Int
    var sha256: String
    var testDescription: String { file }
  }

  static let decodable: [Case] = {
    let manifest =
      (try? ImageFixtures.table(
        ImageFixtures.pngSuite.appendingPathComponent("MANIFEST.tsv"))) ?? []
    let reference =
      (try? ImageFixtures.table(
        ImageFixtures.pngSuite.appendingPathComponent("reference.tsv"))) ?? []
    let digests = Dictionary(
      reference.map { ($0[0], $0[3]) }, uniquingKeysWith: { first, _ in first })
    return manifest.filter { $0[1] == "decode" }.map { row in
      Case(
        file: row[0], width: Int(row[2]) ?? -1, height: Int(row[3]) ?? -1,
        sha256: digests[row[0]] ?? "missing from reference.tsv")
    }
  }()

  /// The files PngSuite marks as broken, with the reason libpng gives (worded by memesh).
  static let broken: [(file: String, reason: String)] = [
    ("xc1n0g08.png", "invalid IHDR data: invalid color type in IHDR"),
    ("xc9n2c08.png", "invalid IHDR data: invalid color type in IHDR"),
    ("xcrn0g04.png", "PNG file corrupted by ASCII conversion"),
    ("xcsn0g01.png", "IDAT: CRC error"),
    ("xd0n2c08.png", "invalid IHDR data: invalid color type/bit depth combination in IHDR"),
    ("xd3n2c08.png", "invalid IHDR data: invalid color type/bit depth combination in IHDR"),
    ("xd9n2c08.png", "invalid IHDR data: invalid bit depth in IHDR"),
    ("xdtn0g01.png", "IEND: out of place"),  // no IDAT at all
    ("xhdn0g08.png", "IHDR: CRC error"),
    ("xlfn0g04.png", "PNG file corrupted by ASCII conversion"),
    ("xs1n0g01.png", #"not a PNG file (starts with "\x09PNG")"#),
    ("xs2n0g01.png", #"not a PNG file (starts with "\x89QNG")"#),
    ("xs4n0g01.png", #"not a PNG file (starts with "\x89PNg")"#),
    ("xs7n0g01.png", "PNG file corrupted by ASCII conversion"),
  ]

  @Test func manifestIsComplete() throws {
    let manifest = try ImageFixtures.table(
      ImageFixtures.pngSuite.appendingPathComponent("MANIFEST.tsv"))
    #expect(Self.decodable.count == 161)
    #expect(manifest.filter { $0[1] == "reject" }.map { $0[0] } == Self.broken.map(\.file))
  }

  @Test(arguments: decodable)
  func decodesWithTheReferencePixels(_ test: Case) throws {
    let data = try Data(contentsOf: ImageFixtures.pngSuite.appendingPathComponent(test.file))
    let decoded = try ImageCodec.decode(data, name: test.file)
    #expect(decoded.format == .png)
    #expect(decoded.image.size == PixelSize(width: test.width, height: test.height))
    #expect(Checksum.sha256(Data(decoded.image.pixels)) == test.sha256)
  }

  @Test(arguments: broken)
  func refusesBrokenFiles(_ test: (file: String, reason: String)) throws {
    let data = try Data(contentsOf: ImageFixtures.pngSuite.appendingPathComponent(test.file))
    let error = #expect(throws: MediaError.self) {
      try ImageCodec.decode(data, name: test.file)
    }
    #expect(error?.message == "cannot load '\(test.file)': \(test.reason)")
  }
}
