import Foundation
import MemeCore
import Testing

@testable import MemeMedia

/// A spliced meme's thumbnail is made from the photo's coded data (the DC coefficients, or the
/// preview proxy for a small photo), with its captions drawn at thumbnail size: it must still
/// show the meme, as the thumbnail of the same meme encoded whole (captions drawn at full size,
/// then reduced) does.
@Suite struct JPEGSpliceThumbnailTests {
  let renderer = MemeRenderer(catalog: .standard())

  /// Mean difference per channel between two pictures of one size (0 ... 255).
  static func meanDifference(_ a: RGBAImage, _ b: RGBAImage) -> Double {
    var total = 0
    for y in 0..<a.height {
      for x in 0..<a.width {
        let (p, q) = (a[x, y], b[x, y])
        total += abs(Int(p.r) - Int(q.r)) + abs(Int(p.g) - Int(q.g)) + abs(Int(p.b) - Int(q.b))
      }
    }
    return Double(total) / Double(a.width * a.height * 3)
  }

  @Test(arguments: [
    // From the DC coefficients: the whole photo, and a crop on the 16×16 blocks.
    (PixelSize(width: 2048, height: 1536), Crop.off),
    (
      PixelSize(width: 2560, height: 1920),
      Crop.rect(PixelRect(x: 256, y: 160, width: 2112, height: 1584))
    ),
    // From the preview proxy: too small for a DC thumbnail.
    (PixelSize(width: 640, height: 480), Crop.off),
  ])
  func theThumbnailShowsTheMeme(size: PixelSize, crop: Crop) throws {
    let bytes = try JPEGSpliceTests.photoJPEG(width: size.width, height: size.height)
    let picture = try JPEGSpliceTests.picture(bytes)
    let state = EditorState(
      picture: picture, top: "one does not simply", bottom: "thumbnail", crop: crop)
    let spliced = try renderer.render(state, format: .jpeg)
    #expect(spliced.report.explanation.contains("jpeg: spliced into the photo's own data"))
    let whole = try renderer.render(
      ImageCodec.decode(bytes, name: "photo.jpg").image,
      boxes: CaptionRenderer.boxes(top: "one does not simply", bottom: "thumbnail"),
      font: state.recipe.font, crop: crop, format: .jpeg)
    #expect(spliced.thumbnailSize == whole.thumbnailSize)
    let thumbnail = try ImageCodec.decode(spliced.thumbnail, name: "thumb.png").image
    let expected = try ImageCodec.decode(whole.thumbnail, name: "thumb.png").image
    try #require(thumbnail.size == spliced.thumbnailSize && expected.size == thumbnail.size)
    // The photo's own part, and the captions' white letters where the whole meme has them.
    #expect(Self.meanDifference(thumbnail, expected) < 6)
    var letters = 0
    var matched = 0
    for y in 0..<expected.height {
      for x in 0..<expected.width where expected[x, y].r > 240 && expected[x, y].g > 240 {
        letters += 1
        if thumbnail[x, y].r > 200 && thumbnail[x, y].g > 200 { matched += 1 }
      }
    }
    #expect(letters > 100 && Double(matched) > Double(letters) * 0.8)
  }
}
