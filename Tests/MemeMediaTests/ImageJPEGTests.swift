import Foundation
import MemeCore
import MemeMedia
import Testing

/// libjpeg-turbo decoding of what users have: baseline, progressive, grey, CMYK, every chroma
/// subsampling, odd sizes, restart markers, truncated files.
@Suite struct ImageJPEGTests {
  /// The arithmetic-coded pair is baseline.jpg through `jpegtran -arithmetic [-progressive]`
  /// (libjpeg-turbo-progs; Pillow cannot write them): a libjpeg built without arithmetic
  /// decoding would refuse them.
  @Test(arguments: [
    "baseline.jpg", "progressive.jpg", "restart.jpg", "cmyk-adobe.jpg", "ycck-adobe.jpg",
    "cmyk-plain.jpg", "arithmetic.jpg", "arithmetic-progressive.jpg",
  ])
  func decodesWithTheRightColours(_ file: String) throws {
    let decoded = try ImageFixtures.decode(file)
    #expect(decoded.format == .jpeg)
    #expect(decoded.image.size == PixelSize(width: 32, height: 24))
    #expect(decoded.warnings.isEmpty)
    #expect(
      Quadrants.matches(decoded.image), "\(file): \(Quadrants.colours(of: decoded.image))")
    #expect(decoded.image.isOpaque)
  }

  @Test func grayscaleBecomesGreyRGB() throws {
    let image = try ImageFixtures.decode("grayscale.jpg").image
    #expect(image.size == PixelSize(width: 32, height: 24))
    let expected: [UInt8] = [40, 110, 170, 230]
    for (colour, level) in zip(Quadrants.colours(of: image), expected) {
      #expect(colour.r == colour.g && colour.g == colour.b && colour.a == 255)
      #expect(abs(Int(colour.r) - Int(level)) <= 4, "\(colour) should be grey \(level)")
    }
  }

  static let subsamplings = ["444", "422", "420", "411"].flatMap { sampling in
    [(32, 24), (33, 17), (7, 5), (1, 1), (17, 1), (1, 9)].map { (sampling, $0.0, $0.1) }
  }

  @Test(arguments: subsamplings)
  func everySubsamplingAndOddSize(_ test: (sampling: String, width: Int, height: Int)) throws {
    let file = "sub\(test.sampling)-\(test.width)x\(test.height).jpg"
    let image = try ImageFixtures.decode(file).image
    #expect(image.size == PixelSize(width: test.width, height: test.height))
    if test.width >= 16, test.height >= 16 {
      #expect(Quadrants.matches(image, tolerance: 48), "\(file): \(Quadrants.colours(of: image))")
    } else if test.width == 1 || test.height == 1 {
      // Too small for quadrants (the 7×5 ones are compared with Pillow below): plain red.
      #expect(image[0, 0].distance(to: Quadrants.red) <= 40, "\(file): \(image[0, 0])")
    }
  }

  /// Its pixels are checked by `decodesWithTheRightColours` and `ImageJPEGReferenceTests`.
  @Test func restartFixtureReallyHasRestartMarkers() throws {
    let data = try ImageFixtures.data("restart.jpg")
    #expect(data.contains(Data([0xFF, 0xD0])))
  }

  @Test func truncatedFileLoadsWithAVisibleWarning() throws {
    let decoded = try ImageFixtures.decode("truncated.jpg")
    #expect(decoded.image.size == PixelSize(width: 64, height: 64))
    #expect(decoded.warnings.first == "'truncated.jpg': premature end of JPEG file")
    // libjpeg fills the missing part with grey: the bottom row is not the picture's colours.
    #expect(decoded.image[60, 63] == RGBA(128, 128, 128))
  }

  /// Cut anywhere before its image data, a JPEG says so, not what libjpeg made of its own
  /// end-of-image marker ("bogus DQT index 15", "JPEG datastream contains no image").
  @Test(arguments: ["baseline.jpg", "progressive.jpg", "exif-6.jpg", "cmyk-adobe.jpg"])
  func cutBeforeTheImageDataEndsEarly(_ file: String) throws {
    let whole = try ImageFixtures.data(file)
    let scan = try #require(whole.firstRange(of: Data([0xFF, 0xDA]))).lowerBound
    var messages: [String: [Int]] = [:]
    for length in 1..<scan {
      do {
        _ = try ImageCodec.decode(whole.prefix(length), name: "cut.jpg")
        messages["loaded", default: []].append(length)
      } catch {
        messages[(error as? MediaError)?.message ?? "\(error)", default: []].append(length)
      }
    }
    #expect(Array(messages.keys) == ["cannot load 'cut.jpg': the file ends early"])
  }

  @Test func damageAfterTheLastRowLoadsWithAWarning() throws {
    // A stray scan header between the image data and EOI: every pixel is there.
    let whole = try ImageFixtures.data("baseline.jpg")
    let stray: [UInt8] = [
      0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3F, 0x00, 0, 0, 0xFF, 0xD9,
    ]
    let decoded = try ImageCodec.decode(whole.dropLast(2) + Data(stray), name: "s.jpg")
    #expect(decoded.image == (try ImageCodec.decode(whole, name: "b.jpg")).image)
    #expect(
      decoded.warnings == [
        "'s.jpg': damaged after the image data: didn't expect more than one scan"
      ])
  }

  @Test func bytesAfterTheEndAreIgnored() throws {
    // Motion photos append a video after EOI.
    let whole = try ImageFixtures.data("baseline.jpg")
    let decoded = try ImageCodec.decode(whole + Data("....ftypmp42".utf8), name: "m.jpg")
    #expect(decoded.warnings.isEmpty)
    #expect(decoded.image == (try ImageCodec.decode(whole, name: "b.jpg")).image)
  }

  @Test func truncatedPNGIsRefused() throws {
    let data = try ImageFixtures.data("rgba-5x3.png")
    let error = #expect(throws: MediaError.self) {
      try ImageCodec.decode(data.prefix(data.count - 20), name: "cut.png")
    }
    #expect(error?.message.hasPrefix("cannot load 'cut.png': ") == true)
  }

  @Test func pngCutAfterItsImageDataLoadsWithAWarning() throws {
    let data = try ImageFixtures.data("rgba-5x3.png")
    let decoded = try ImageCodec.decode(data.dropLast(12), name: "no-iend.png")  // IEND gone
    #expect(decoded.image == (try ImageCodec.decode(data, name: "whole.png")).image)
    #expect(
      decoded.warnings == ["'no-iend.png': damaged after the image data: the file ends early"])
  }

  /// libpng's "IDAT: Too much image data" reads as the other messages do, lowercase after the
  /// chunk's name.
  @Test func pngWithTooMuchImageDataWarnsInLowercase() throws {
    // 2×2 RGB rows (a filter byte and 6 bytes each) and 10 bytes more, in one stored deflate
    // block (zlib header, BFINAL + stored, LEN, NLEN, bytes, Adler-32).
    let raw = [UInt8](repeating: 0, count: 24)
    var a: UInt32 = 1
    var b: UInt32 = 0
    for byte in raw {
      a = (a + UInt32(byte)) % 65521
      b = (b + a) % 65521
    }
    let adler = (b << 16) | a
    let checksum = [24, 16, 8, 0].map { UInt8(adler >> $0 & 0xFF) }
    let zlib: [UInt8] = [0x78, 0x01, 0x01, 24, 0, 0xE7, 0xFF] + raw + checksum
    let header: [UInt8] = [0, 0, 0, 2, 0, 0, 0, 2, 8, 2, 0, 0, 0]
    let png =
      Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + PNGChunk.make("IHDR", header)
      + PNGChunk.make("IDAT", zlib) + PNGChunk.make("IEND", [])
    let decoded = try ImageCodec.decode(png, name: "long.png")
    #expect(decoded.image.size == PixelSize(width: 2, height: 2))
    #expect(decoded.warnings == ["'long.png': IDAT: too much image data"])
  }

  @Test func pngWithAlphaKeepsIt() throws {
    let image = try ImageFixtures.decode("rgba-5x3.png").image
    #expect(image.size == PixelSize(width: 5, height: 3))
    #expect(image[4, 2] == RGBA(10, 20, 30, 128))
    #expect(!image.isOpaque)
  }
}

/// Every decodable JPEG fixture compared pixel by pixel with what Pillow (an independent
/// decoder, with its own libjpeg-turbo and EXIF handling) shows: `jpeg-reference.tsv`.
@Suite struct ImageJPEGReferenceTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var file: String
    var size: PixelSize
    var pixels: [UInt8]
    var testDescription: String { file }
  }

  static let cases: [Case] = {
    let rows =
      (try? ImageFixtures.table(
        ImageFixtures.images.appendingPathComponent("jpeg-reference.tsv"))) ?? []
    return rows.map { row in
      let hex = Array(row[3].utf8)
      let pixels = stride(from: 0, to: hex.count - 1, by: 2).map { index in
        UInt8(String(decoding: hex[index..<index + 2], as: UTF8.self), radix: 16) ?? 0
      }
      return Case(
        file: row[0], size: PixelSize(width: Int(row[1]) ?? 0, height: Int(row[2]) ?? 0),
        pixels: pixels)
    }
  }()

  @Test func everyJPEGFixtureHasAReference() {
    #expect(Self.cases.count == 53)
  }

  /// Where memesh deliberately differs from Pillow (both checked by their own tests):
  /// Pillow inverts every CMYK JPEG, libjpeg's convention is to invert only with the Adobe
  /// marker; and Pillow applies an orientation stored as LONG or with count 2, which the EXIF
  /// specification (SHORT, count 1) and browsers do not.
  static let knownDifferences: Set<String> = [
    "cmyk-plain.jpg", "exif-bad-type.jpg", "exif-bad-count.jpg",
  ]

  @Test(arguments: cases.filter { !knownDifferences.contains($0.file) })
  func matchesPillow(_ test: Case) throws {
    let image = try ImageFixtures.decode(test.file).image
    #expect(image.size == test.size)
    guard image.pixels.count == test.pixels.count else { return }
    let worst = zip(image.pixels, test.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
    #expect(worst <= 2, "\(test.file): a channel differs by \(worst)")
  }
}
