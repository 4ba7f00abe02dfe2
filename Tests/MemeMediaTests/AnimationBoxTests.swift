import Foundation
import MemeCore
import Testing

@testable import MemeMedia

/// Every text box of an animated meme is drawn: any number of
/// boxes, placed, turned and coloured, each only on the frames within its `start`/`stop`.
@Suite struct AnimationBoxTests {
  let renderer = AnimationRenderer(catalog: .standard())

  /// disposal.gif: four frames of 500 ms, starting at 0, 0.25, 0.5 and 0.75 of the play.
  static let name = "disposal.gif"

  /// Three boxes: a top caption, a yellow one turned 30° in the middle, and a bottom one that
  /// shows from half-way.
  static let boxes = [
    TextBox(text: "TOP TEXT", placement: .top),
    TextBox(
      text: "SPIN", placement: .rect(TextFrame(x: 0.2, y: 0.3, width: 0.6, height: 0.35)),
      fill: TextColor(red: 255, green: 220, blue: 0), angle: 30),
    TextBox(text: "LATER", placement: .bottom, start: 0.5, stop: 1),
  ]

  /// Frame `index`'s source pixels with `boxes` composited in true colour.
  func truth(_ plain: RGBAImage, boxes: [TextBox]) throws -> RGBAImage {
    var image = plain
    let (canvases, _) = try renderer.captions.canvases(
      boxes: boxes, font: "Anton", imageSize: plain.size)
    for canvas in canvases { canvas.composite(onto: &image) }
    return image
  }

  /// The pixels box `number` (0-based) covers on a picture of `size`.
  func region(of number: Int, size: PixelSize) throws -> PixelRect {
    let (canvases, _) = try renderer.captions.canvases(
      boxes: [Self.boxes[number]], font: "Anton", imageSize: size)
    return try #require(canvases.first?.region)
  }

  /// Checks `frames` (as shared or previewed) against the truth: each frame close to its source
  /// with the boxes that show on it, and far, in each box's region, from the same frame with
  /// box 3 toggled or box 2 level.
  func expectBoxes(_ frames: [RGBAImage], plain: [RGBAImage], closeAbove: Double, what: String)
    throws
  {
    #expect(frames.count == 4, "\(what)")
    let starts = [0, 0.25, 0.5, 0.75]
    let size = plain[0].size
    let later = try region(of: 2, size: size)
    let spin = try region(of: 1, size: size)
    for (index, frame) in frames.enumerated() {
      let shown = Self.boxes.filter { $0.shows(at: starts[index]) }
      #expect(shown.count == (index >= 2 ? 3 : 2))
      let right = try truth(plain[index], boxes: shown)
      #expect(
        AnimationQuality.psnr(frame, right) > closeAbove, "\(what) frame \(index + 1) as drawn")
      // Box 3 there exactly when it should be.
      let toggled = index >= 2 ? Array(shown.prefix(2)) : Self.boxes
      let wrong = try truth(plain[index], boxes: toggled)
      #expect(
        AnimationQuality.psnr(ImageOps.crop(frame, to: later), ImageOps.crop(wrong, to: later))
          < 22, "\(what) frame \(index + 1): box 3 \(index >= 2 ? "missing" : "drawn too early")")
      // Box 2 turned, not level.
      var level = shown
      level[1].angle = 0
      let flat = try truth(plain[index], boxes: level)
      #expect(
        AnimationQuality.psnr(ImageOps.crop(frame, to: spin), ImageOps.crop(flat, to: spin)) < 22,
        "\(what) frame \(index + 1): box 2 turned")
    }
  }

  @Test(arguments: [ImageFormat.gif, .webp])
  func threeBoxesAreSharedOnTheirFrames(format: ImageFormat) throws {
    let output = try renderer.render(
      try AnimationDecodeTests.data(Self.name), name: Self.name, boxes: Self.boxes, font: "Anton",
      format: format)
    let decoder = try ImageCodec.openAnimation(output.data, name: "out.\(format.fileExtension)")
    var frames: [RGBAImage] = []
    while let frame = try decoder.next() { frames.append(frame.image) }
    let (_, plain) = try AnimationDecodeTests.frames(Self.name)
    try expectBoxes(
      frames, plain: plain.map(\.image), closeAbove: 30, what: format.name)
    // The report names all three boxes, as a still share's does.
    #expect(output.report.explanation.contains("box 3"), "\(output.report.explanation)")
  }

  @Test func threeBoxesArePreviewedOnTheirFrames() throws {
    let (_, plain) = try AnimationDecodeTests.frames(Self.name)
    // At the picture's own size, so the preview's boxes are laid out as the share's.
    let preview = try AnimationPreview(
      try AnimationDecodeTests.data(Self.name), name: Self.name, boxes: Self.boxes,
      font: "Anton", crop: .off, fitting: plain[0].image.size, catalog: .standard())
    #expect(preview.size == plain[0].image.size)
    var frames: [RGBAImage] = []
    while let (image, _) = try preview.next() { frames.append(image) }
    try expectBoxes(frames, plain: plain.map(\.image), closeAbove: 45, what: "preview")
  }

  @Test func aBoxShowsFromItsStartUpToItsStop() {
    let middle = TextBox(text: "A", placement: .top, start: 0.25, stop: 0.5)
    #expect(!middle.shows(at: 0.2))
    #expect(middle.shows(at: 0.25))
    #expect(!middle.shows(at: 0.5))
    let end = TextBox(text: "B", placement: .top, start: 0.5, stop: 1)
    #expect(end.shows(at: 0.99))
    #expect(end.shows(at: 1))
  }
}
