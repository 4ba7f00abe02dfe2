import Foundation
import MemeCore
import MemeMedia
import Testing

/// EXIF orientation is applied on load: the size and pixels are what a photo viewer shows.
@Suite struct ImageOrientationTests {
  @Test(arguments: 1...8)
  func everyOrientationLoadsUpright(_ orientation: Int) throws {
    let decoded = try ImageFixtures.decode("exif-\(orientation).jpg")
    #expect(decoded.orientation == orientation)
    #expect(decoded.image.size == PixelSize(width: 24, height: 16))
    #expect(
      Quadrants.matches(decoded.image),
      "orientation \(orientation): \(Quadrants.colours(of: decoded.image))")
  }

  @Test(arguments: ["exif-6-bigendian.jpg", "exif-after-xmp.jpg"])
  func orientationSixFoundWhereverItIs(_ file: String) throws {
    let decoded = try ImageFixtures.decode(file)
    #expect(decoded.orientation == 6)
    #expect(decoded.image.size == PixelSize(width: 24, height: 16))
    #expect(Quadrants.matches(decoded.image), "\(Quadrants.colours(of: decoded.image))")
  }

  @Test func aPNGsExifOrientationIsAppliedWhenItComesBeforeTheImage() throws {
    let early = try ImageFixtures.decode("png-exif-6.png")
    #expect(early.orientation == 6)
    #expect(early.image.size == PixelSize(width: 24, height: 16))
    #expect(Quadrants.matches(early.image), "\(Quadrants.colours(of: early.image))")
    // The same chunk after the image data is ignored, as browsers ignore it.
    let late = try ImageFixtures.decode("png-exif-6-late.png")
    #expect(late.orientation == 1)
    #expect(late.image.size == PixelSize(width: 16, height: 24))
    #expect(late.warnings.isEmpty)
  }

  @Test(arguments: [
    "exif-bad-9.jpg", "exif-bad-0.jpg", "exif-bad-type.jpg", "exif-bad-count.jpg",
    "exif-bad-offset.jpg", "exif-bad-entries.jpg", "exif-bad-header.jpg", "exif-truncated.jpg",
  ])
  func malformedExifActsAsOrientationOne(_ file: String) throws {
    let decoded = try ImageFixtures.decode(file)
    #expect(decoded.orientation == 1)
    #expect(decoded.image.size == PixelSize(width: 24, height: 16))
    #expect(Quadrants.matches(decoded.image))
  }

  /// A 3×2 picture with every pixel different, and where each orientation puts its pixels
  /// (the EXIF specification's table: the stored row 0 / column 0 becomes which side).
  @Test(arguments: 1...8)
  func orientedMovesEveryPixel(_ orientation: Int) {
    var stored = RGBAImage(width: 3, height: 2)
    for y in 0..<2 {
      for x in 0..<3 { stored[x, y] = RGBA(UInt8(x), UInt8(y), 0) }
    }
    let shown = ImageOps.oriented(stored, orientation: orientation)
    let swaps = orientation >= 5
    #expect(shown.size == PixelSize(width: swaps ? 2 : 3, height: swaps ? 3 : 2))
    for y in 0..<2 {
      for x in 0..<3 {
        // Where stored (x, y) appears on screen.
        let (w, h) = (3, 2)
        let target: (Int, Int) =
          switch orientation {
          case 1: (x, y)
          case 2: (w - 1 - x, y)
          case 3: (w - 1 - x, h - 1 - y)
          case 4: (x, h - 1 - y)
          case 5: (y, x)
          case 6: (h - 1 - y, x)
          case 7: (h - 1 - y, w - 1 - x)
          default: (y, w - 1 - x)
          }
        #expect(shown[target.0, target.1] == stored[x, y], "orientation \(orientation) (\(x),\(y))")
      }
    }
  }

  @Test(arguments: [0, 9, -1, Int.max])
  func outOfRangeOrientationLeavesThePicture(_ orientation: Int) {
    let image = RGBAImage(width: 3, height: 2, fill: RGBA(1, 2, 3))
    #expect(ImageOps.oriented(image, orientation: orientation) == image)
  }

  @Test func exifParserTrustsNoOffset() {
    #expect(Exif.orientation(tiff: Data()) == 1)
    #expect(Exif.orientation(tiff: Data([0x49, 0x49, 0x2A, 0x00, 0xFF, 0xFF, 0xFF, 0xFF])) == 1)
    // Little-endian, IFD at 8, one entry: orientation SHORT 1 = 8.
    let good: [UInt8] = [
      0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00, 0x01, 0x00,
      0x12, 0x01, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00,
    ]
    #expect(Exif.orientation(tiff: Data(good)) == 8)
    for length in 0..<good.count {
      #expect(Exif.orientation(tiff: Data(good.prefix(length))) == 1)
    }
  }
}
