import Foundation
import MemeCore
@testable import MemeMedia
import Testing

/// Crop by rectangle or centered ratio, and the two downscales (area average, DCT scaling).
@Suite struct ImageCropScaleTests {
  /// 40×30 with a different colour per pixel column and row.
  static let picture: RGBAImage = {
    var image = RGBAImage(width: 40, height: 30)
    for y in 0..<30 {
      for x in 0..<40 { image[x, y] = RGBA(UInt8(x), UInt8(y), 7) }
    }
    return image
  }()

  @Test func rectangleCropTakesExactlyThosePixels() throws {
    let cropped = try ImageOps.crop(Self.picture, try Crop(words: ["5", "6", "10", "4"]))
    #expect(cropped.size == PixelSize(width: 10, height: 4))
    #expect(cropped[0, 0] == RGBA(5, 6, 7))
    #expect(cropped[9, 3] == RGBA(14, 9, 7))
  }

  @Test(arguments: [
    ("1:1", PixelRect(x: 5, y: 0, width: 30, height: 30)),
    ("16:9", PixelRect(x: 0, y: 3, width: 40, height: 23)),
    ("9:16", PixelRect(x: 11, y: 0, width: 17, height: 30)),
    ("100000:1", PixelRect(x: 0, y: 14, width: 40, height: 1)),
  ])
  func ratioCropIsCenteredAndAsLargeAsFits(_ test: (words: String, rect: PixelRect)) throws {
    let crop = try Crop(words: [test.words])
    #expect(try crop.resolved(in: Self.picture.size) == test.rect)
    let cropped = try ImageOps.crop(Self.picture, crop)
    #expect(cropped.size == test.rect.size)
    #expect(cropped[0, 0] == Self.picture[test.rect.x, test.rect.y])
  }

  @Test func cropOffKeepsThePicture() throws {
    #expect(try ImageOps.crop(Self.picture, try Crop(words: ["off"])) == Self.picture)
  }

  @Test(arguments: [
    ["9223372036854775807", "0", "1", "1"],
    ["0", "9223372036854775807", "1", "1"],
    ["1", "1", "9223372036854775807", "1"],
    ["0", "0", "1", "9223372036854775807"],
    ["9223372036854775807", "9223372036854775807", "9223372036854775807", "9223372036854775807"],
  ])
  func hugeNumbersAreAnErrorNotACrash(_ words: [String]) throws {
    let crop = try Crop(words: words)
    let error = #expect(throws: CropError.self) { try ImageOps.crop(Self.picture, crop) }
    #expect(error?.message.contains("does not fit in the 40×30 picture") == true)
  }

  @Test func numbersPastIntAreRefusedWhenParsed() {
    #expect(throws: CropError.self) { try Crop(words: ["99999999999999999999", "0", "1", "1"]) }
  }

  @Test func rectangleCropClampsHugeRectangles() {
    let rect = PixelRect(x: Int.max, y: Int.max, width: Int.max, height: Int.max)
    #expect(ImageOps.crop(Self.picture, to: rect).size == PixelSize(width: 0, height: 0))
    let wide = PixelRect(x: 38, y: -5, width: Int.max, height: Int.max)
    #expect(ImageOps.crop(Self.picture, to: wide).size == PixelSize(width: 2, height: 30))
  }

  @Test func areaAverageMixesCoveredPixels() {
    var image = RGBAImage(width: 4, height: 2, fill: RGBA(0, 0, 0))
    image[1, 0] = RGBA(200, 100, 40)
    image[1, 1] = RGBA(200, 100, 40)
    let half = ImageOps.scaled(image, toFit: 2, 1)
    #expect(half.size == PixelSize(width: 2, height: 1))
    #expect(half[0, 0] == RGBA(100, 50, 20))
    #expect(half[1, 0] == RGBA(0, 0, 0))
  }

  @Test func transparentPixelsDoNotDarkenTheAverage() {
    var image = RGBAImage(width: 2, height: 1, fill: RGBA(0, 0, 0, 0))
    image[0, 0] = RGBA(250, 250, 250)
    let one = ImageOps.scaled(image, toFit: 1, 1)
    #expect(one[0, 0] == RGBA(250, 250, 250, 128))
  }

  @Test func scaleKeepsTheRatioAndNeverEnlarges() {
    #expect(ImageOps.scaled(Self.picture, toFit: 400, 400) == Self.picture)
    #expect(ImageOps.scaled(Self.picture, toFit: 20, 100).size == PixelSize(width: 20, height: 15))
    #expect(ImageOps.scaled(Self.picture, toFit: 1, 1).size == PixelSize(width: 1, height: 1))
  }

  @Test(arguments: [(16, 2), (8, 4), (4, 8), (3, 8), (32, 1)])
  func proxyUsesDCTScaling(_ test: (limit: Int, denominator: Int)) throws {
    // 32×24 JPEG: DCT scaling picks the largest reduction that keeps at least `limit` pixels.
    let data = try ImageFixtures.data("baseline.jpg")
    var asked: Int?
    let raw = try ImageCodec.decodeRaw(data, format: .jpeg, name: "b.jpg", limits: .default) {
      size in
      #expect(size == PixelSize(width: 32, height: 24))
      asked = [8, 4, 2].first { (32 + $0 - 1) / $0 >= test.limit } ?? 1
      return asked ?? 1
    }
    #expect(asked == test.denominator)
    let expected = PixelSize(
      width: (32 + test.denominator - 1) / test.denominator,
      height: (24 + test.denominator - 1) / test.denominator)
    #expect(raw.image.size == expected)
    let proxy = try ImageCodec.decodeProxy(data, name: "b.jpg", maxDimension: test.limit)
    #expect(
      proxy.size
        == ImageOps.fittedSize(of: PixelSize(width: 32, height: 24), toFit: test.limit, test.limit))
    #expect(Quadrants.matches(proxy, tolerance: 60), "\(Quadrants.colours(of: proxy))")
  }

  @Test(arguments: ["progressive.jpg", "cmyk-adobe.jpg", "ycck-adobe.jpg", "restart.jpg"])
  func proxyKeepsColoursOfEveryKind(_ file: String) throws {
    let proxy = try ImageCodec.decodeProxy(
      try ImageFixtures.data(file), name: file, maxDimension: 8)
    #expect(proxy.size == PixelSize(width: 8, height: 6))
    #expect(Quadrants.matches(proxy, tolerance: 60), "\(file): \(Quadrants.colours(of: proxy))")
  }

  @Test func proxyOfARotatedPhotoIsUpright() throws {
    let proxy = try ImageCodec.decodeProxy(
      try ImageFixtures.data("exif-6.jpg"), name: "r.jpg", maxDimension: 12)
    #expect(proxy.size == PixelSize(width: 12, height: 8))
    #expect(Quadrants.matches(proxy, tolerance: 60), "\(Quadrants.colours(of: proxy))")
  }
}
