import Foundation
import MemeCore
import Testing

@testable import MemeMedia

/// Behaviour a user sees in rendered captions, without golden files.
@Suite struct CaptionRendererTests {
  let renderer = CaptionRenderer(catalog: .standard())
  static let gray = RGBA(90, 100, 110)

  func render(
    _ top: String, _ bottom: String = "", font: String = "Anton",
    size: PixelSize = PixelSize(width: 320, height: 240), fill: RGBA = gray
  ) throws -> (image: RGBAImage, report: CaptionReport) {
    try renderer.render(
      onto: RGBAImage(width: size.width, height: size.height, fill: fill), top: top,
      bottom: bottom, font: font)
  }

  /// Rows of `image` holding any pixel other than `background`.
  func inkedRows(_ image: RGBAImage, background: RGBA) -> [Int] {
    (0..<image.height).filter { y in (0..<image.width).contains { image[$0, y] != background } }
  }

  @Test func emptyCaptionsLeaveThePictureUntouched() throws {
    let (image, report) = try render("", "   ")
    #expect(image == RGBAImage(width: 320, height: 240, fill: Self.gray))
    #expect(report.warnings.isEmpty)
    #expect(report.explanation.contains("box 1 (top): (empty)"))
  }

  @Test func captionIsWhiteWithABlackOutline() throws {
    let (image, _) = try render("HELLO")
    #expect(image.pixels.count == 320 * 240 * 4)
    let pixels = (0..<image.height).flatMap { y in (0..<image.width).map { image[$0, y] } }
    #expect(pixels.contains(RGBA(255, 255, 255)))
    #expect(pixels.contains(RGBA(0, 0, 0)))
  }

  @Test func topStaysNearTheTopAndBottomNearTheBottom() throws {
    let (image, _) = try render("TOP TEXT", "BOTTOM TEXT")
    let rows = inkedRows(image, background: Self.gray)
    let middle = rows.filter { $0 > 240 / 3 && $0 < 240 * 2 / 3 }
    #expect(middle.isEmpty, "nothing drawn in the middle third")
    #expect((rows.first ?? 240) < 30)
    #expect((rows.last ?? 0) > 210)
  }

  @Test func lowercaseIsUpperCasedTheUnicodeWay() throws {
    let (_, report) = try render("straße")
    #expect(report.explanation.contains("\"STRASSE\""))
  }

  @Test func sameInputsGiveSamePixels() throws {
    let first = try render("deterministic 猫 😀", "مرحبا")
    let second = try render("deterministic 猫 😀", "مرحبا")
    #expect(first.image == second.image)
    #expect(first.report == second.report)
  }

  @Test func rendersFromManyTasksAtOnceWithTheSameResult() async throws {
    let renderer = self.renderer
    let picture = RGBAImage(width: 160, height: 120, fill: Self.gray)
    let images = try await withThrowingTaskGroup(of: RGBAImage.self) { group in
      for font in ["Anton", "Oswald", "Anton", "Oswald", "Anton", "Oswald"] {
        group.addTask {
          try renderer.render(onto: picture, top: "in parallel 猫", bottom: "😀", font: font)
            .image
        }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    let distinct = Set(images.map(\.pixels))
    #expect(distinct.count == 2, "one picture per font, whatever the interleaving")
  }

  @Test func drawsOverTransparentPicturesWithoutLeavingHoles() throws {
    let clear = RGBA(0, 0, 0, 0)
    let (image, _) = try render("GHOST", size: PixelSize(width: 200, height: 150), fill: clear)
    let drawn = (0..<image.height).flatMap { y in (0..<image.width).map { image[$0, y] } }
      .filter { $0 != clear }
    #expect(!drawn.isEmpty)
    #expect(drawn.contains(RGBA(255, 255, 255, 255)))
    // Antialiased edges over nothing are black with partial alpha, never a colour fringe.
    #expect(drawn.allSatisfy { $0.r == $0.g && $0.g == $0.b })
    #expect(image[100, 75] == clear)
  }

  @Test func tenThousandCharactersAreCutWithAnEllipsisAndAWarning() throws {
    let text = String(repeating: "all work and no play ", count: 477)
    #expect(text.count > 10_000)
    let (_, report) = try render(text)
    #expect(report.warnings.contains { $0.contains("top caption is too long") })
    #expect(report.explanation.contains("\(CaptionLayout.ellipsis)\""))
  }

  @Test func explainTellsLinesSizeShrinkAndFallbacks() throws {
    let (_, report) = try render(
      "when the build is green but the tests never ran at all", "猫 😀")
    let explanation = report.explanation
    #expect(explanation.contains("box 1 (top): \"WHEN THE BUILD"))
    #expect(explanation.contains("lines (2)") || explanation.contains("lines (3)"))
    #expect(explanation.contains("font: Anton at"))
    #expect(explanation.contains("shrank"))
    #expect(explanation.contains("fallback fonts: Noto Sans CJK"))
    #expect(explanation.contains("Noto Color Emoji"))
    #expect(explanation.contains("missing characters: none"))
  }

  @Test func charactersNoFontHasAreNamedInAWarning() throws {
    let (_, report) = try render("A\u{F0000}B")
    #expect(report.warnings.contains { $0.contains("U+F0000") })
    #expect(report.explanation.contains("missing characters: '"))
  }

  @Test func colorEmojiAreDrawnInColor() throws {
    let (image, report) = try render("", "😀", size: PixelSize(width: 200, height: 200))
    if report.warnings.contains(where: { $0.contains("color emoji") }) { return }
    let pixels = (0..<image.height).flatMap { y in (0..<image.width).map { image[$0, y] } }
    // Noto's grinning face is yellow: red and green high, blue low.
    #expect(pixels.contains { $0.r > 200 && $0.g > 150 && $0.b < 80 })
  }

  @Test func cjkComesFromAFallbackFontNotEmptyBoxes() throws {
    let (image, report) = try render("猫")
    #expect(!report.warnings.contains { $0.contains("no installed font") })
    #expect(!inkedRows(image, background: Self.gray).isEmpty)
  }

  @Test(arguments: [
    PixelSize(width: 1, height: 1), PixelSize(width: 2, height: 300),
    PixelSize(width: 20, height: 4000), PixelSize(width: 4000, height: 20),
  ])
  func extremeSizesNeverCrashAndNeverDrawOutside(size: PixelSize) throws {
    let (image, report) = try render("extreme sizes", "still fine", size: size)
    #expect(image.size == size)
    #expect(!report.explanation.isEmpty)
  }

  @Test func unknownFontIsAOneLineErrorListingTheFonts() throws {
    #expect {
      try render("HI", font: "Comic Sans")
    } throws: { error in
      let message = (error as? UserFacingError)?.message ?? ""
      return message.hasPrefix("font: unknown font 'Comic Sans' (available: Anton")
        && !message.contains("\n")
    }
  }

  @Test func everyBundledFontDrawsASample() throws {
    for font in ["Anton", "Oswald", "BebasNeue", "DejaVuSans-Bold"] {
      let sample = try renderer.sample(font: font)
      #expect(sample.height == 40)
      #expect(sample.width > 100)
      let pixels = (0..<sample.height).flatMap { y in (0..<sample.width).map { sample[$0, y] } }
      #expect(pixels.contains(RGBA(255, 255, 255)), "\(font) sample has white letters")
    }
  }
}
