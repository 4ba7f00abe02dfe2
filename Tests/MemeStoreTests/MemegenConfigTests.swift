import Foundation
import MemeCore
import Testing

@testable import MemeStore

/// memegen's `config.yml`: what is read, what each key becomes in memesh's boxes, and the one-line
/// refusal of everything else.
struct MemegenConfigTests {
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("transcripts/templates")

  func parse(_ text: String) throws(StoreError) -> MemegenConfig {
    try MemegenConfig.parse(Data(text.utf8), path: "t/config.yml")
  }

  func problem(_ text: String) -> String? {
    do {
      _ = try parse(text)
      return nil
    } catch {
      return error.message
    }
  }

  @Test func memegenDefaultsWhenKeysAreLeftOut() throws {
    let config = try parse("name: Plain\n")
    #expect(config.name == "Plain")
    #expect(config.texts.count == 2)
    #expect(config.texts[0].anchorY == 0 && config.texts[0].scaleX == 1)
    #expect(config.texts[0].scaleY == 0.2 && config.texts[1].anchorY == 0.8)
    #expect(config.texts[0].style == "upper" && config.texts[0].color == "white")
    let (boxes, notes) = try config.textBoxes(
      pictureSize: PixelSize(width: 400, height: 300), path: "t")
    // memegen's default top and bottom fifths are memesh's own top and bottom bands.
    #expect(boxes.map(\.placement) == [.top, .bottom])
    #expect(boxes.allSatisfy { $0.textCase == .upper && $0.fill == .white })
    #expect(notes.isEmpty)
  }

  @Test func memegensOwnConfigShapesAreRead() throws {
    // Older memegen configs: `styles` with `no` (YAML 1.1 would make it a boolean) and `sample`.
    let config = try parse(
      """
      name: Drakeposting
      source: http://knowyourmeme.com/memes/drakeposting
      text:
        - color: white
          style: upper
          anchor_x: 0.0
          anchor_y: 0.0
          angle: 0.0
          scale_x: 1.0
          scale_y: 0.2
      styles:
        - beat
        - no
      sample:
        - ''
      overlay:
        - center_x: 0.5
          center_y: 0.5
          scale: 0.25
      keywords: [drake, hotline]
      """)
    #expect(config.styles == ["beat", "no"])
    #expect(config.examples == [""])
    #expect(config.keywords == ["drake", "hotline"])
    #expect(config.source == "http://knowyourmeme.com/memes/drakeposting")
    #expect(config.texts.count == 1)
  }

  @Test func eachTextKeyMapsToTheBox() throws {
    let config = try parse(
      """
      text:
        - anchor_x: 0.5
          anchor_y: 0.1
          scale_x: 0.5
          scale_y: 0.4
          align: left
          style: none
          color: '#FF0000'
          font: impact
          start: 0.25
          stop: 0.75
        - anchor_x: 0.1
          anchor_y: 0.6
          scale_x: 0.3
          scale_y: 0.2
          color: black
          style: default
          font: kalam
      example: [drake says no, drake says yes, a third]
      """)
    let (boxes, notes) = try config.textBoxes(
      pictureSize: PixelSize(width: 480, height: 480), path: "t")
    #expect(boxes.count == 2)
    #expect(boxes[0].placement == .rect(TextFrame(x: 0.5, y: 0.1, width: 0.5, height: 0.4)))
    #expect(boxes[0].alignment == .left)
    #expect(boxes[0].textCase == .asTyped)
    #expect(boxes[0].fill == TextColor(red: 255, green: 0, blue: 0))
    #expect(boxes[0].outlineColor == .black)
    #expect(boxes[0].font == "Anton")
    #expect(boxes[0].start == 0.25 && boxes[0].stop == 0.75)
    #expect(boxes[0].text == "drake says no")
    #expect(boxes[1].text == "drake says yes")
    // Black text has no outline in memegen.
    #expect(boxes[1].fill == .black && boxes[1].outline == TextOutline.none)
    #expect(boxes[1].font == nil)
    #expect(
      notes == [
        "text 2: font 'kalam' is not bundled; drawn in the meme's font",
        "3 examples for 2 boxes; the last 1 left out",
      ])
  }

  @Test func aDarkColourIsOutlinedInBlackAsMemegenDoes() throws {
    let config = try parse("text:\n  - color: '#000080'\n  - color: '#FFFF0080'\n")
    let (boxes, notes) = try config.textBoxes(
      pictureSize: PixelSize(width: 100, height: 100), path: "t")
    #expect(boxes[0].outlineColor == .black)
    #expect(boxes[1].fill == TextColor(red: 255, green: 255, blue: 0))
    #expect(notes == ["text 2: colour '#FFFF0080' is drawn opaque"])
  }

  @Test func stylesMemeshCannotDrawAreNoted() throws {
    let config = try parse("text:\n  - style: mock\n  - style: lower\n  - style: upper\n")
    let (boxes, notes) = try config.textBoxes(
      pictureSize: PixelSize(width: 100, height: 100), path: "t")
    #expect(boxes.map(\.textCase) == [.asTyped, .asTyped, .upper])
    #expect(notes.count == 2)
    #expect(notes[0].contains("style 'mock' is drawn as typed"))
  }

  /// memegen turns a box counter-clockwise and pastes the turned box's bounding rectangle at the
  /// anchor; memesh turns clockwise about the center. The sign flips and the center lands where
  /// memegen's turned box has its center.
  @Test func aTurnedBoxKeepsMemegensCenter() throws {
    let config = try parse(
      "text:\n  - anchor_x: 0.1\n    anchor_y: 0.2\n    scale_x: 0.4\n    scale_y: 0.1\n"
        + "    angle: 90\n")
    let size = PixelSize(width: 200, height: 100)
    let (boxes, _) = try config.textBoxes(pictureSize: size, path: "t")
    #expect(boxes[0].angle == -90)
    guard case .rect(let frame) = boxes[0].placement else {
      Issue.record("not a rectangle")
      return
    }
    // 80×10 pixels turned a quarter: a 10×80 bounding box at (20, 20), centered at (25, 60).
    #expect(frame.width == 0.4 && frame.height == 0.1)
    #expect(abs((frame.x + frame.width / 2) * 200 - 25) < 1e-9)
    #expect(abs((frame.y + frame.height / 2) * 100 - 60) < 1e-9)
  }

  @Test(arguments: [
    ("text:\n  - anchor_x: [0.1\n", "t/config.yml': not valid YAML: line"),
    ("name: A\ncolour: red\n", "line 2: unknown key 'colour' (memegen's keys: name,"),
    ("text:\n  - anchor_x: 0.1\n    colour: red\n", "line 3: unknown key 'colour' in text 1"),
    ("text:\n  - anchor_x: 1e308\n", "line 2: text 1: anchor_x 1e308 is out of range (-1 to 2)"),
    ("text:\n  - scale_y: .inf\n", "text 1: scale_y '.inf' is not a number"),
    ("text:\n  - scale_y: -0.5\n", "text 1: scale_y -0.5 is out of range"),
    ("text:\n  - angle: 1e400\n", "text 1: angle 1e400 is out of range"),
    ("text:\n  - anchor_x: half\n", "text 1: anchor_x 'half' is not a number"),
    ("text:\n  - anchor_x: [1, 2]\n", "text 1: anchor_x must be a number, not a list"),
    ("text:\n  - start: 0.8\n    stop: 0.2\n", "text 1: start 0.8 is not before stop 0.2"),
    ("text:\n  - style: shouting\n", "text 1: style 'shouting' is not one of memegen's"),
    ("text:\n  - color: blurple\n", "text 1: color 'blurple' is not a colour"),
    ("text:\n  - font: papyrus\n", "text 1: font 'papyrus' is not one of memegen's fonts"),
    ("text:\n  - align: justify\n", "text 1: align 'justify' is not left, center or right"),
    ("text: 3\n", "text must be a list of boxes, not a single value"),
    ("text:\n  - 3\n", "text 1 must be a mapping"),
    ("- a\n- b\n", "not a mapping of memegen's keys"),
    ("", "empty"),
    ("name: A\nname: B\n", "'name' given twice"),
    ("styles:\n  - ../up\n", "style '../up' is not a file name"),
    ("base: &b {anchor_x: 0.1}\ntext:\n  - *b\n", "line 1: anchors and aliases"),
    ("example: [" + String(repeating: "[", count: 300) + "\n", "nested more than 100 deep"),
    ("text:\n" + String(repeating: "- ", count: 5000) + "x\n", "nested more than 100 deep"),
  ])
  func refusedInOneLine(_ text: String, _ expected: String) {
    let message = problem(text)
    #expect(message?.contains(expected) == true, "\(message ?? "accepted")")
    #expect(message?.contains("\n") == false)
    #expect(message?.hasPrefix("cannot import 't/config.yml': ") == true)
  }

  @Test func aBillionLaughsIsRefusedBeforeParsing() {
    var text = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
    for level in 1...9 {
      let previous = "*a\(level - 1)"
      text +=
        "a\(level): &a\(level) [" + Array(repeating: previous, count: 10).joined(separator: ", ")
        + "]\n"
    }
    text += "? *a9\n: 1\n"
    #expect(problem(text)?.contains("anchors and aliases") == true)
  }

  @Test func aStarOrAmpersandInsideTextIsText() throws {
    let config = try parse(
      "name: Q&A * 2\nexample:\n  - 'quoted *star'\n  - \"&amp\"\n  - plain *star & more\n")
    #expect(config.name == "Q&A * 2")
    #expect(config.examples == ["quoted *star", "&amp", "plain *star & more"])
  }

  @Test func tooLargeAFileIsRefusedUnread() {
    let text = "name: " + String(repeating: "a", count: MemegenConfig.maximumBytes)
    #expect(problem(text)?.contains("larger than 64 KB") == true)
  }

  // MARK: - Folders

  @Test func theFixtureFoldersRead() throws {
    let drake = try MemegenFolder.read(Self.fixtures.appendingPathComponent("drake").path)
    #expect(drake.config.name == "Drake-like")
    #expect(drake.picture.file == "default.png" && drake.picture.format == .png)
    let (boxes, _) = try drake.config.textBoxes(
      pictureSize: PixelSize(width: 480, height: 480), path: drake.configPath)
    #expect(
      boxes.map(\.placement) == [
        .rect(TextFrame(x: 0.5, y: 0, width: 0.5, height: 0.5)),
        .rect(TextFrame(x: 0.5, y: 0.5, width: 0.5, height: 0.5)),
      ])
    let labels = try MemegenFolder.read(Self.fixtures.appendingPathComponent("three-labels").path)
    #expect(labels.config.texts.count == 3)
    let four = try MemegenFolder.read(Self.fixtures.appendingPathComponent("four-boxes").path)
    #expect(four.config.texts.count == 4 && four.config.examples.count == 4)
    // `styles` names blue.png; green.png is a style too, as memegen lists every other picture.
    let buttons = try MemegenFolder.read(Self.fixtures.appendingPathComponent("two-buttons").path)
    #expect(buttons.styles.map(\.name) == ["blue", "green"])
    #expect(buttons.config.examples == ["tabs", "spaces"])
  }

  @Test(arguments: [
    ("bad-yaml", "bad-yaml/config.yml': not valid YAML: line 4:"),
    ("unknown-key", "unknown-key/config.yml': line 4: unknown key 'colour' in text 1"),
    ("no-picture", "no-picture': no picture (default.png, default.jpg"),
    ("huge-numbers", "huge-numbers/config.yml': line 3: text 1: anchor_x 1e308 is out of range"),
    ("missing-style", "missing-style/config.yml': style 'gone' has no picture"),
    ("symlinked-picture", "symlinked-picture/default.png': it is a symlink, refused"),
    ("absent", "absent': no such file"),
  ])
  func hostileFoldersAreRefused(_ name: String, _ expected: String) {
    do {
      _ = try MemegenFolder.read(Self.fixtures.appendingPathComponent(name).path)
      Issue.record("\(name) was read")
    } catch {
      #expect(error.message.contains(expected), "\(error.message)")
      #expect(error.message.hasPrefix("cannot import '"))
    }
  }

  @Test func aFolderNameBecomesATemplateName() {
    #expect(MemegenFolder.templateName(forFolder: "/x/templates/drake/") == "drake")
    #expect(MemegenFolder.templateName(forFolder: "Drake Posting") == "drake-posting")
    #expect(MemegenFolder.templateName(forFolder: "/x/..") == nil)
    #expect(MemegenFolder.templateName(forFolder: "___") == nil)
  }
}
