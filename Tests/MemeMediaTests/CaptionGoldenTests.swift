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

    var description: String { name }
  }

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

  @Test(arguments: cases)
  func matchesGolden(test: Case) throws {
    let renderer = CaptionRenderer(catalog: .standard())
    let (image, report) = try renderer.render(
      onto: Self.background(for: test), top: test.top, bottom: test.bottom, font: test.font)
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
