import Testing

@testable import MemeCore

/// A monospaced stand-in for a font: every character half an em wide, a space a quarter.
final class FakeMeasure {
  var calls = 0

  func measure(_ text: String) -> Double {
    calls += 1
    return text.reduce(0) { $0 + ($1 == " " ? 0.25 : 0.5) }
  }
}

/// Offsets after each space: where Latin text may break (MemeMedia finds them by UAX #14).
func spaceBreaks(_ text: String) -> [Int] {
  Array(text).indices.dropFirst().filter { Array(text)[$0 - 1] == " " }
}

let style = CaptionLayout.Style(lineHeight: 1.2, ascent: 0.9, descent: 0.2, outline: 0.07)

func fit(_ text: String, image: PixelSize, measure: FakeMeasure = FakeMeasure())
  -> (CaptionLayout.Result, CaptionLayout.Bands)
{
  let bands = CaptionLayout.Bands(imageSize: image, style: style)
  let result = CaptionLayout.fit(
    text, breaks: spaceBreaks(text), in: bands.top, style: style, minimumSize: bands.minimumSize,
    maximumSize: bands.maximumSize, measure: measure.measure)
  return (result, bands)
}

/// Asserts every line fits its band at the chosen size.
func expectFits(_ result: CaptionLayout.Result, in box: CaptionLayout.Box) {
  let outline = style.outlineWidth(at: result.size)
  for width in result.lineWidths {
    #expect(width + 2 * outline <= box.width + 1e-6)
  }
  #expect(style.height(lines: result.lines.count, size: result.size) <= box.height + 1e-6)
}

@Suite struct CaptionLayoutTests {
  @Test func emptyOrBlankCaptionDrawsNothing() {
    for text in ["", "   ", "\n\t"] {
      let (result, _) = fit(text, image: PixelSize(width: 600, height: 400))
      #expect(result.lines.isEmpty)
    }
  }

  @Test func aShortWideBoxGivesOneWordItsOneLineSize() {
    // A label box only a little taller than one line: three lines would be below the minimum,
    // one line is not.
    let image = PixelSize(width: 320, height: 240)
    let box = CaptionLayout.Box(x: 96, y: 96, width: 128, height: 24)
    let limits = CaptionLayout.sizeLimits(for: box, imageSize: image, style: style)
    let result = CaptionLayout.fit(
      "LABEL", breaks: [], in: box, style: style, minimumSize: limits.minimum,
      maximumSize: limits.maximum, measure: FakeMeasure().measure)
    #expect(result.lines == ["LABEL"])
    #expect(result.size == limits.maximum)
    #expect(limits.maximum > 2 * limits.minimum)
    expectFits(result, in: box)
  }

  @Test func shortCaptionIsOneLineAtTheLargestSize() {
    let (result, bands) = fit("HI", image: PixelSize(width: 600, height: 400))
    #expect(result.lines == ["HI"])
    #expect(result.size == bands.maximumSize)
    #expect(!result.truncated)
  }

  @Test(arguments: [
    "ONE DOES NOT SIMPLY WALK INTO MORDOR",
    "WHEN YOU FINALLY FIX THE BUG AND THEN YOU SEE THE SAME BUG IN PRODUCTION AGAIN",
    "I AM ONCE AGAIN ASKING FOR YOUR FINANCIAL SUPPORT",
  ])
  func longCaptionWrapsIntoAtMostThreeLinesThatFit(text: String) {
    let (result, bands) = fit(text, image: PixelSize(width: 600, height: 600))
    #expect((2...3).contains(result.lines.count))
    #expect(result.lines.joined(separator: " ") == text)
    #expect(!result.truncated)
    expectFits(result, in: bands.top)
  }

  @Test func breakIsBalancedNotGreedy() {
    // Greedy packing would leave "D" alone on the second line; balanced splits in the middle.
    let result = CaptionLayout.balancedBreaks(
      widths: [1, 1, 1, 1], units: CaptionLayout.units(of: "A B C D", breakingBefore: [2, 4, 6]),
      space: 0.5, lines: 2)
    #expect(result == [0..<2, 2..<4])
  }

  @Test func choosesTheLineCountAllowingTheLargestFont() {
    // On a wide, short image one line is best; on a tall narrow one, more lines are.
    let text = "BRACE YOURSELVES WINTER IS COMING"
    let (wide, _) = fit(text, image: PixelSize(width: 2000, height: 300))
    let (tall, _) = fit(text, image: PixelSize(width: 300, height: 2000))
    #expect(wide.lines.count == 1)
    #expect(tall.lines.count == 3)
  }

  @Test func tenThousandCharactersEndWithAnEllipsisAtTheMinimumSize() {
    let measure = FakeMeasure()
    let text = String(repeating: "LOREM IPSUM ", count: 834)
    let (result, bands) = fit(text, image: PixelSize(width: 800, height: 600), measure: measure)
    #expect(result.truncated)
    #expect(result.size == bands.minimumSize)
    #expect(result.lines.count <= 3)
    #expect(result.lines.last?.hasSuffix(CaptionLayout.ellipsis) == true)
    expectFits(result, in: bands.top)
    // Cut early: only the words that fit are measured, not every one of the 1,668 words.
    #expect(measure.calls < 500)
  }

  @Test func wordLongerThanTheImageBreaksBetweenCharacters() {
    let text = String(repeating: "A", count: 400)
    let (result, bands) = fit(text, image: PixelSize(width: 200, height: 300))
    #expect(result.lines.count > 1)
    #expect(result.truncated)
    expectFits(result, in: bands.top)
  }

  @Test func unitsAreTheTextBetweenBreaksWithSpacesRemembered() {
    // Breaks before が, 好, き and after each space run, as UAX #14 gives them.
    let units = CaptionLayout.units(of: "猫が好き I LIKE  cats", breakingBefore: [1, 2, 3, 5, 7, 13])
    #expect(units.map(\.text) == ["猫", "が", "好", "き", "I", "LIKE", "cats"])
    #expect(units.map(\.spaceBefore) == [false, false, false, false, true, true, true])
    #expect(CaptionLayout.join(units[...]) == "猫が好き I LIKE cats")
  }

  @Test func aSpaceWithoutABreakStaysInsideItsUnit() {
    // "( A" has no break after the parenthesis and its space (UAX #14 rule LB14).
    let units = CaptionLayout.units(of: "( A B", breakingBefore: [4])
    #expect(units.map(\.text) == ["( A", "B"])
  }

  @Test func breaksOnlyWhereAllowed() {
    // No break offsets at all: one line, shrunk, never split.
    let text = "ABCDEFGHIJKLMNOPQRSTUVWX"
    let bands = CaptionLayout.Bands(imageSize: PixelSize(width: 300, height: 600), style: style)
    let result = CaptionLayout.fit(
      text, breaks: [], in: bands.top, style: style, minimumSize: 1,
      maximumSize: bands.maximumSize, measure: FakeMeasure().measure)
    #expect(result.lines == [text])
    let broken = CaptionLayout.fit(
      text, breaks: [12], in: bands.top, style: style, minimumSize: 1,
      maximumSize: bands.maximumSize, measure: FakeMeasure().measure)
    #expect(broken.lines == ["ABCDEFGHIJKL", "MNOPQRSTUVWX"])
  }

  @Test func aSpaceIsPreferredToABreakBetweenLetters() {
    // Every character may break (as in CJK), and "ABCDEFGHIJ K" / "LMNOPQRSTUV" would be a
    // little narrower, but the space splits the caption nearly as well: the lines break there.
    let text = "ABCDEFGHIJ KLMNOPQRSTUV"
    let everywhere = Array(1..<text.count).filter { $0 != 10 }
    let bands = CaptionLayout.Bands(imageSize: PixelSize(width: 600, height: 600), style: style)
    let result = CaptionLayout.fit(
      text, breaks: everywhere, in: bands.top, style: style, minimumSize: 1,
      maximumSize: bands.maximumSize, measure: FakeMeasure().measure)
    #expect(result.lines == ["ABCDEFGHIJ", "KLMNOPQRSTUV"])
    // With no space, the same letters break in the middle.
    let unspaced = "ABCDEFGHIJKLMNOPQRSTUV"
    let middle = CaptionLayout.fit(
      unspaced, breaks: Array(1..<unspaced.count), in: bands.top, style: style, minimumSize: 1,
      maximumSize: bands.maximumSize, measure: FakeMeasure().measure)
    #expect(middle.lines == ["ABCDEFGHIJK", "LMNOPQRSTUV"])
  }

  @Test(arguments: [
    PixelSize(width: 1, height: 1), PixelSize(width: 20, height: 4000),
    PixelSize(width: 4000, height: 20), PixelSize(width: 640, height: 480),
    PixelSize(width: 4032, height: 3024),
  ])
  func bandsStayInsideTheImageAndNeverOverlap(size: PixelSize) {
    let bands = CaptionLayout.Bands(imageSize: size, style: style)
    for band in [bands.top, bands.bottom] {
      #expect(band.x >= 0 && band.y >= 0)
      #expect(band.x + band.width <= Double(size.width))
      #expect(band.maxY <= Double(size.height))
    }
    #expect(bands.top.maxY <= bands.bottom.y)
    #expect(bands.minimumSize <= bands.maximumSize)
  }

  @Test(arguments: [
    PixelSize(width: 20, height: 4000), PixelSize(width: 4000, height: 20),
    PixelSize(width: 64, height: 64),
  ])
  func extremeImagesStillFitTheBand(size: PixelSize) {
    let (result, bands) = fit("SUCH WOW VERY CAPTION", image: size)
    #expect(!result.lines.isEmpty)
    #expect(result.size <= bands.maximumSize)
    #expect(style.height(lines: result.lines.count, size: result.size) <= bands.top.height + 1e-6)
  }

  @Test(arguments: [
    ("straße", "STRASSE"), ("  one\ttwo\nthree  ", "ONE TWO THREE"), ("a\u{0}b", "AB"),
    ("\u{202E}abc", "ABC"), ("ǆ ﬁ", "Ǆ FI"), ("👍🏽 ok", "👍🏽 OK"), ("\n\t ", ""),
  ])
  func normalizesTheWayItIsDrawn(typed: String, drawn: String) {
    #expect(CaptionLayout.normalize(typed) == drawn)
  }
}
