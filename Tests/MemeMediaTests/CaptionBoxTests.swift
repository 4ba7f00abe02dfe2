import Foundation
import MemeCore
import Testing

@testable import MemeMedia

/// Text boxes as a user sees them drawn: each in its own rectangle, aligned, coloured,
/// turned, in list order, clipped at the picture's edge with a warning.
@Suite struct CaptionBoxTests {
  let renderer = CaptionRenderer(catalog: .standard())
  static let gray = RGBA(90, 100, 110)
  static let size = PixelSize(width: 320, height: 240)

  func render(_ boxes: [TextBox], font: String = "Anton", size: PixelSize = size) throws
    -> (image: RGBAImage, report: CaptionReport)
  {
    try renderer.render(
      onto: RGBAImage(width: size.width, height: size.height, fill: Self.gray), boxes: boxes,
      font: font)
  }

  static func box(
    _ text: String, _ x: Double, _ y: Double, _ width: Double, _ height: Double
  ) -> TextBox {
    TextBox(text: text, placement: .rect(TextFrame(x: x, y: y, width: width, height: height)))
  }

  /// The smallest rectangle holding every pixel that is not the background.
  func ink(_ image: RGBAImage) -> (minX: Int, minY: Int, maxX: Int, maxY: Int)? {
    var bounds: (minX: Int, minY: Int, maxX: Int, maxY: Int)?
    for y in 0..<image.height {
      for x in 0..<image.width where image[x, y] != Self.gray {
        let old = bounds ?? (x, y, x, y)
        bounds = (min(old.minX, x), min(old.minY, y), max(old.maxX, x), max(old.maxY, y))
      }
    }
    return bounds
  }

  func pixels(_ image: RGBAImage) -> [RGBA] {
    (0..<image.height).flatMap { y in (0..<image.width).map { image[$0, y] } }
  }

  @Test func topAndBottomAreTwoBoxesDrawnExactlyAsBefore() throws {
    let picture = RGBAImage(width: 320, height: 240, fill: Self.gray)
    let old = try renderer.render(
      onto: picture, top: "one does not simply", bottom: "draw two boxes", font: "Anton")
    let boxes = CaptionRenderer.boxes(top: "one does not simply", bottom: "draw two boxes")
    let new = try renderer.render(onto: picture, boxes: boxes, font: "Anton")
    #expect(old.image == new.image)
    #expect(old.report == new.report)
  }

  @Test(arguments: [true, false])
  func laterBoxesAreDrawnOverEarlierOnes(redFirst: Bool) throws {
    let red = TextColor(red: 255, green: 0, blue: 0)
    let blue = TextColor(red: 0, green: 0, blue: 255)
    var first = Self.box("OVERLAP", 0.1, 0.3, 0.8, 0.4)
    first.fill = redFirst ? red : blue
    first.outline = .none
    var second = first
    second.fill = redFirst ? blue : red
    let (image, _) = try render([first, second])
    let drawn = pixels(image)
    let (hidden, shown) =
      redFirst ? (RGBA(255, 0, 0), RGBA(0, 0, 255)) : (RGBA(0, 0, 255), RGBA(255, 0, 0))
    #expect(drawn.contains(shown))
    #expect(!drawn.contains(hidden), "the first box's letters are under the second's")
  }

  @Test func leftAndRightAlignmentPutLinesAgainstTheBoxEdges() throws {
    var left = Self.box("HI", 0.1, 0.1, 0.8, 0.8)
    left.alignment = .left
    var right = left
    right.alignment = .right
    let center = Self.box("HI", 0.1, 0.1, 0.8, 0.8)
    func inkOf(_ box: TextBox) throws -> (minX: Int, minY: Int, maxX: Int, maxY: Int) {
      try #require(ink(try render([box]).image))
    }
    let leftInk = try inkOf(left)
    let rightInk = try inkOf(right)
    let centerInk = try inkOf(center)
    // The box spans 32…288; text hugs its edge, outline included.
    #expect(abs(leftInk.minX - 32) <= 2, "left text starts at the box's left edge")
    #expect(abs(rightInk.maxX - 287) <= 2, "right text ends at the box's right edge")
    #expect(abs((centerInk.minX + centerInk.maxX) / 2 - 160) <= 2)
    #expect(abs((leftInk.maxX - leftInk.minX) - (rightInk.maxX - rightInk.minX)) <= 1)
  }

  @Test func aRotatedBoxIsTurnedAboutItsCenter() throws {
    let level = Self.box("LEVEL TEXT", 0.1, 0.4, 0.8, 0.2)
    var upright = level
    upright.angle = 90
    let levelInk = try #require(ink(try render([level]).image))
    let turnedInk = try #require(ink(try render([upright]).image))
    #expect(levelInk.maxX - levelInk.minX > 2 * (levelInk.maxY - levelInk.minY))
    #expect(turnedInk.maxY - turnedInk.minY > 2 * (turnedInk.maxX - turnedInk.minX))
    // The same center, and the same extent turned.
    #expect(abs((turnedInk.minX + turnedInk.maxX) - (levelInk.minX + levelInk.maxX)) <= 3)
    #expect(abs((turnedInk.minY + turnedInk.maxY) - (levelInk.minY + levelInk.maxY)) <= 3)
    #expect(
      abs((turnedInk.maxY - turnedInk.minY) - (levelInk.maxX - levelInk.minX)) <= 3)
    // Antialiased: edge pixels between the outline and the background, not only the two.
    let (image, _) = try render([
      {
        var box = level; box.angle = 17; return box
      }()
    ])
    let values = Set(pixels(image).map(\.r))
    #expect(values.count > 40)
  }

  @Test func aBoxPartlyOutsideIsClippedWithAWarning() throws {
    let (image, report) = try render([Self.box("HALF OUT", 0.6, 0.4, 0.8, 0.2)])
    #expect(image.size == Self.size)
    #expect(report.warnings == ["box 1 reaches outside the picture: the part outside is cut off"])
    let inside = try render([Self.box("INSIDE", 0.1, 0.4, 0.8, 0.2)])
    #expect(inside.report.warnings.isEmpty)
    // A level box inside that would reach out once turned warns too.
    var turned = Self.box("TURNED OUT", 0.05, 0.45, 0.9, 0.1)
    turned.angle = 90
    #expect(try render([turned]).report.warnings.contains { $0.contains("reaches outside") })
  }

  @Test func coloursAndOutlinesAreTheBoxes() throws {
    var yellow = Self.box("YELLOW", 0.1, 0.1, 0.8, 0.3)
    yellow.fill = TextColor(red: 255, green: 255, blue: 0)
    var black = Self.box("BLACK", 0.1, 0.6, 0.8, 0.3)
    black.fill = .black
    let drawn = pixels(try render([yellow, black]).image)
    #expect(drawn.contains(RGBA(255, 255, 0)))
    #expect(drawn.contains(RGBA(0, 0, 0)), "the light fill's automatic outline is black")
    #expect(drawn.contains(RGBA(255, 255, 255)), "the dark fill's automatic outline is white")
    var plain = Self.box("PLAIN", 0.1, 0.1, 0.8, 0.8)
    plain.outline = .none
    let bare = pixels(try render([plain]).image)
    #expect(bare.contains(RGBA(255, 255, 255)))
    #expect(bare.allSatisfy { $0.r >= Self.gray.r }, "no outline: nothing darker than the photo")
  }

  @Test func explainReportsEveryBox() throws {
    var left = Self.box("left one", 0.05, 0.05, 0.4, 0.2)
    left.alignment = .left
    left.textCase = .asTyped
    var turned = Self.box("turned", 0.5, 0.5, 0.4, 0.2)
    turned.angle = -12.5
    turned.font = "Oswald"
    let (_, report) = try render([left, TextBox(text: "", placement: .bottom), turned])
    let explanation = report.explanation
    #expect(explanation.contains("box 1: \"left one\"\n  rectangle: 16 12 128×48 px"))
    #expect(explanation.contains("box 2 (bottom): (empty)"))
    #expect(explanation.contains("box 3: \"TURNED\"\n  rectangle: 160 120 128×48 px"))
    #expect(explanation.contains("style: aligned left; as typed"))
    #expect(explanation.contains("style: turned -12.5°"))
    #expect(explanation.contains("font: Oswald at"))
    #expect(explanation.contains("font: Anton at"))
  }

  @Test func aBoxFontThatCannotBeFoundIsDrawnInTheMemesWithAWarning() throws {
    var box = Self.box("FONTLESS", 0.1, 0.1, 0.8, 0.8)
    box.font = "No Such Font"
    let (image, report) = try render([box])
    #expect(report.warnings == ["box 1's font 'No Such Font' is not available: drawn in Anton"])
    #expect(ink(image) != nil)
  }

  @Test func splicingATurnedBoxReEncodesOnlyTheRowsItTouches() throws {
    let source = try JPEGSpliceTests.photoJPEG(width: 320, height: 240)
    let plan = try JPEGSplice.plan(source, crop: .off).get()
    var turned = Self.box("TURNED", 0.3, 0.4, 0.4, 0.1)
    turned.angle = 30
    let (canvases, _) = try renderer.canvases(
      boxes: [turned], font: "Anton", imageSize: plan.rect.size)
    let region = try #require(canvases.first?.region)
    // Turned, the box reaches further up and down than level.
    #expect(region.height > 24)
    let opened = try JPEGSplice.Source.open(source, maxPixels: 1 << 30).get()
    let spliced = try JPEGSplice.splice(
      opened, plan: plan, canvases: canvases, recipe: ""
    ).get()
    let touched = Set((region.y / 16)...((region.y + region.height - 1) / 16))
    #expect(spliced.touchedRows == touched.count)
    let (_, different) = try JPEGSpliceTests().compareBlocks(
      source: source, meme: spliced.jpeg, originMCU: (0, 0), touched: touched)
    #expect(different > 0)
  }

  @Test(arguments: [ImageFormat.png, .jpeg])
  func aMemeDrawsEveryBoxOfItsRecipe(format: ImageFormat) throws {
    let source = try JPEGSpliceTests.photoJPEG(width: 320, height: 240)
    var third = Self.box("THIRD BOX", 0.3, 0.45, 0.4, 0.1)
    third.angle = 10
    let recipe = MemeRecipe(
      boxes: [
        TextBox(text: "top", placement: .top), TextBox(text: "bottom", placement: .bottom), third,
      ])
    let state = EditorState(picture: try JPEGSpliceTests.picture(source), recipe: recipe)
    let output = try MemeRenderer(catalog: .standard()).render(state, format: format)
    #expect(output.report.explanation.contains("box 3: \"THIRD BOX\""))
    let meme = try ImageCodec.decode(output.data, name: "meme").image
    let photo = try ImageCodec.decode(source, name: "photo").image
    // The middle of the picture, where only box 3 is, changed.
    let changed = (100..<140).flatMap { y in (60..<260).map { (x: $0, y: y) } }.filter {
      let (a, b) = (meme[$0.x, $0.y], photo[$0.x, $0.y])
      return abs(Int(a.r) - Int(b.r)) + abs(Int(a.g) - Int(b.g)) + abs(Int(a.b) - Int(b.b)) > 60
    }
    #expect(changed.count > 300)
  }
}
