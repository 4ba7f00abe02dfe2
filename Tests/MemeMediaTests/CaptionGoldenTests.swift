import Foundation
import MemeCore
import Testing

@testable import MemeMedia

/// Rendered captions compared pixel for pixel with committed PNGs in Fixtures/golden.
///
/// Regenerate with `RECORD_GOLDENS=1 swift test --filter CaptionGoldenTests`, then look at the
/// PNGs before committing them. Fallback glyphs come from the installed fonts (DejaVu, Noto CJK,
/// Noto Color Emoji, TLWG Loma for Thai), so those cases expect the Debian packages `make deps` installs.
@Suite struct CaptionGoldenTests {
  struct Case: CustomStringConvertible, Sendable {
    let name: String
    let width: Int
    let height: Int
    let top: String
    let bottom: String
    var font = "Anton"
    var transparent = false
    /// Text boxes drawn instead of `top` and `bottom` when not empty.
    var boxes: [TextBox] = []
    /// A warning the case must give (a box outside the picture).
    var warning: String?

    var description: String { name }

    /// A case of text boxes on a `width`×`height` gradient.
    static func boxes(
      _ name: String, width: Int, height: Int, _ boxes: [TextBox], warning: String? = nil
    ) -> Case {
      Case(
        name: name, width: width, height: height, top: "", bottom: "", boxes: boxes,
        warning: warning)
    }
  }

  /// A box at fractions of the picture.
  static func box(
    _ text: String, _ x: Double, _ y: Double, _ width: Double, _ height: Double
  ) -> TextBox {
    TextBox(text: text, placement: .rect(TextFrame(x: x, y: y, width: width, height: height)))
  }

  /// Layouts of several boxes: memegen's templates and every style a box has.
  static let boxCases: [Case] = [
    .boxes(
      "boxes-drake", width: 300, height: 300,
      [
        box("writing captions by hand", 0.52, 0.02, 0.46, 0.46),
        box("text boxes anywhere", 0.52, 0.52, 0.46, 0.46),
      ]),
    .boxes(
      "boxes-three-labels", width: 320, height: 200,
      [
        box("me", 0.05, 0.55, 0.25, 0.15),
        box("new framework", 0.35, 0.2, 0.3, 0.2),
        box("the project I should finish", 0.68, 0.6, 0.3, 0.3),
      ]),
    .boxes(
      "boxes-four-brain", width: 240, height: 320,
      [
        box("top and bottom", 0.02, 0.02, 0.46, 0.23),
        box("three labels", 0.02, 0.27, 0.46, 0.23),
        box("four boxes", 0.02, 0.52, 0.46, 0.23),
        box("boxes at any angle", 0.02, 0.77, 0.46, 0.21),
      ]),
    .boxes(
      "box-rotated", width: 240, height: 180,
      [
        TextBox(text: "level", placement: .top),
        {
          var turned = box("turned twenty degrees", 0.2, 0.35, 0.6, 0.3)
          turned.angle = 20
          return turned
        }(),
      ]),
    .boxes(
      "box-aligned", width: 240, height: 180,
      [
        {
          var left = box("left aligned lines of text", 0.04, 0.05, 0.6, 0.4)
          left.alignment = .left
          return left
        }(),
        {
          var right = box("right aligned lines of text", 0.36, 0.55, 0.6, 0.4)
          right.alignment = .right
          return right
        }(),
      ]),
    .boxes(
      "box-colors", width: 240, height: 180,
      [
        TextBox(
          text: "yellow with auto outline", placement: .top,
          fill: TextColor(red: 255, green: 220, blue: 0)),
        TextBox(
          text: "red, blue outline", placement: .middle,
          fill: TextColor(red: 230, green: 30, blue: 30),
          outline: .color(TextColor(red: 0, green: 60, blue: 255))),
        TextBox(
          text: "No outline, as typed", placement: .bottom, textCase: .asTyped, outline: .none),
      ]),
    .boxes(
      "box-black-on-white", width: 240, height: 180,
      [
        TextBox(text: "black text", placement: .top, fill: .black),
        TextBox(text: "white outline", placement: .bottom, fill: .black),
      ]),
    .boxes(
      "box-cjk", width: 240, height: 180,
      [box("猫が好きです 中文", 0.1, 0.3, 0.8, 0.4)]),
    .boxes(
      "box-outside", width: 240, height: 180,
      [box("half in, half out", 0.55, 0.4, 0.6, 0.25)],
      warning: "box 1 reaches outside the picture"),
  ]

  static let cases: [Case] = [
    Case(
      name: "short", width: 240, height: 180, top: "one does not simply",
      bottom: "walk into mordor"),
    Case(
      name: "long", width: 240, height: 180,
      top: "when you finally fix the bug and then you see the same bug in production again",
      bottom: "straße"),
    Case(
      name: "multiline", width: 160, height: 240, top: "brace yourselves winter is coming",
      bottom: "i am once again asking for your financial support"),
    Case(
      name: "ten-thousand", width: 240, height: 180,
      top: String(repeating: "lorem ipsum ", count: 834), bottom: "the end"),
    Case(name: "tall-20x4000", width: 20, height: 4000, top: "tall", bottom: "image"),
    Case(name: "wide-4000x20", width: 4000, height: 20, top: "wide", bottom: "image"),
    Case(name: "tiny-1x1", width: 1, height: 1, top: "hi", bottom: "there"),
    Case(
      name: "transparent", width: 200, height: 150, top: "see through", bottom: "png",
      transparent: true),
    Case(
      name: "font-oswald", width: 240, height: 180, top: "oswald at 700",
      bottom: "variable font", font: "Oswald"),
    Case(
      name: "font-bebasneue", width: 240, height: 180, top: "bebas neue",
      bottom: "all caps anyway", font: "BebasNeue"),
    Case(
      name: "font-dejavusans-bold", width: 240, height: 180, top: "dejavu sans bold",
      bottom: "kerning: AV To", font: "DejaVuSans-Bold"),
    Case(name: "cyrillic", width: 240, height: 180, top: "привет мир", bottom: "съешь ещё"),
    Case(name: "greek", width: 240, height: 180, top: "γειά σου κόσμε", bottom: "ΑΒΓ"),
    Case(name: "arabic-hebrew", width: 240, height: 180, top: "مرحبا بالعالم", bottom: "שלום"),
    Case(name: "cjk", width: 240, height: 180, top: "猫が好き", bottom: "中文 OK"),
    Case(name: "devanagari", width: 240, height: 180, top: "नमस्ते दुनिया", bottom: "क्षमा कीजिए"),
    Case(
      name: "japanese", width: 200, height: 200, top: "キャプションが長すぎて困っています",
      bottom: "ちょっと待って！"),
    Case(
      name: "chinese-latin", width: 200, height: 200, top: "我用Swift写了一个meme生成器",
      bottom: "真的OK吗？"),
    Case(
      name: "thai", width: 200, height: 200, top: "ภาษาไทยง่ายนิดเดียว",
      bottom: "สวัสดีครับทุกคน"),
    Case(
      name: "arabic-digits", width: 240, height: 180, top: "عام 2024 سعيد",
      bottom: "الإصدار 3.5 جاهز"),
    Case(
      name: "hebrew-latin", width: 240, height: 180, top: "שלום world", bottom: "גרסה Swift 6 חדשה"),
    Case(name: "emoji", width: 240, height: 180, top: "deploy friday", bottom: "😀🔥 lol 👍🏽"),
  ]

  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures/golden", isDirectory: true)

  /// A deterministic background: a gradient, or a transparent picture with a translucent
  /// square, so compositing over alpha is covered.
  static func background(for test: Case) -> RGBAImage {
    var image = RGBAImage(width: test.width, height: test.height)
    for y in 0..<test.height {
      for x in 0..<test.width {
        if test.transparent {
          let inside = x > test.width / 4 && x < test.width * 3 / 4
          image[x, y] = inside ? RGBA(40, 120, 200, 128) : RGBA(0, 0, 0, 0)
        } else {
          image[x, y] = RGBA(
            UInt8(40 + x * 160 / max(test.width, 1)), UInt8(60 + y * 140 / max(test.height, 1)),
            150)
        }
      }
    }
    return image
  }

  @Test(arguments: cases + boxCases)
  func matchesGolden(test: Case) throws {
    let renderer = CaptionRenderer(catalog: .standard())
    let (image, report) =
      test.boxes.isEmpty
      ? try renderer.render(
        onto: Self.background(for: test), top: test.top, bottom: test.bottom, font: test.font)
      : try renderer.render(onto: Self.background(for: test), boxes: test.boxes, font: test.font)
    if let warning = test.warning {
      #expect(report.warnings.contains { $0.hasPrefix(warning) }, "\(report.warnings)")
    } else if !test.boxes.isEmpty {
      #expect(report.warnings.isEmpty, "\(report.warnings)")
    }
    if test.name == "emoji" && report.warnings.contains(where: { $0.contains("color emoji") }) {
      // No color emoji font here: the warning is the behaviour; the golden is for color.
      return
    }
    let file = Self.directory.appendingPathComponent("\(test.name).png")
    let encoded = try ImageCodec.encode(image, as: .png)
    if ProcessInfo.processInfo.environment["RECORD_GOLDENS"] == "1" {
      try FileManager.default.createDirectory(
        at: Self.directory, withIntermediateDirectories: true)
      try encoded.write(to: file)
      return
    }
    guard let data = try? Data(contentsOf: file) else {
      Issue.record("missing golden \(file.lastPathComponent): run with RECORD_GOLDENS=1")
      return
    }
    let expected = try ImageCodec.decode(data, name: file.lastPathComponent).image
    #expect(expected.size == image.size)
    let differing = zip(expected.pixels, image.pixels).lazy.filter { $0 != $1 }.count
    if differing > 0 {
      let failure = FileManager.default.temporaryDirectory
        .appendingPathComponent("memesh-golden-\(test.name).png")
      try? encoded.write(to: failure)
      Issue.record(
        "\(test.name): \(differing) bytes differ from the golden; actual in \(failure.path)")
    }
  }
}
