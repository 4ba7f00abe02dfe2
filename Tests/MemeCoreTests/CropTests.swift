import MemeCore
import Testing

@Suite struct CropTests {
  @Test(arguments: [
    (["off"], Crop.off),
    (["16:9"], Crop.aspect(width: 16, height: 9)),
    (["1", "2", "30", "40"], Crop.rect(PixelRect(x: 1, y: 2, width: 30, height: 40))),
  ])
  func parses(words: [String], expected: Crop) throws {
    #expect(try Crop(words: words) == expected)
    #expect(Crop(stored: expected.description) == expected)
  }

  @Test(arguments: [["0:9"], ["abc"], ["1", "2", "3"], ["1", "2", "0", "4"], ["-1", "0", "4", "4"]])
  func rejects(words: [String]) {
    #expect(throws: CropError.self) { try Crop(words: words) }
  }

  @Test func aspectIsCenteredAndAsLargeAsFits() throws {
    let square = try Crop.aspect(width: 1, height: 1).resolved(in: PixelSize(width: 400, height: 300))
    #expect(square == PixelRect(x: 50, y: 0, width: 300, height: 300))
    let wide = try Crop.aspect(width: 16, height: 9).resolved(in: PixelSize(width: 100, height: 100))
    #expect(wide == PixelRect(x: 0, y: 22, width: 100, height: 56))
  }

  @Test func rectangleOutsideThePictureIsAnError() {
    #expect(throws: CropError.self) {
      try Crop.rect(PixelRect(x: 50, y: 0, width: 60, height: 10)).resolved(
        in: PixelSize(width: 100, height: 100))
    }
  }
}
