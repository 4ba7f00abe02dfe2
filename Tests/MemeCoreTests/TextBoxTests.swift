import Foundation
import MemeCore
import Testing

@Suite struct TextBoxTests {
  @Test func topAndBottomAreTheBandsCaptionsHaveAlwaysUsed() {
    let size = PixelSize(width: 1000, height: 800)
    #expect(TextPlacement.top.box(in: size) == CaptionLayout.Box(x: 40, y: 24, width: 920, height: 225))
    #expect(
      TextPlacement.bottom.box(in: size) == CaptionLayout.Box(x: 40, y: 551, width: 920, height: 225))
    let right = TextPlacement.right.box(in: size)
    #expect(right.x + right.width == 960)
    #expect(TextPlacement.left.box(in: size).width == right.width)
  }

  @Test func aPlainCaptionIsStoredWithOnlyItsTextAndPlace() throws {
    let box = TextBox(text: "don't", placement: .top)
    let json = String(decoding: try JSONEncoder().encode(box), as: UTF8.self)
    #expect(json == #"{"at":"top","text":"don't"}"# || json == #"{"text":"don't","at":"top"}"#)
    #expect(try JSONDecoder().decode(TextBox.self, from: Data(json.utf8)) == box)
  }

  @Test func everyStyleSurvivesStoring() throws {
    let box = TextBox(
      text: "Ça va", placement: .rect(TextFrame(x: 0.5, y: -0.1, width: 0.45, height: 0.25)),
      alignment: .right, textCase: .asTyped, fill: TextColor(red: 1, green: 2, blue: 3),
      outline: .none, font: "Impact", angle: -12.5, start: 0.25, stop: 0.75)
    let data = try PropertyListEncoder().encode([box])
    #expect(try PropertyListDecoder().decode([TextBox].self, from: data) == [box])
  }

  @Test(arguments: [
    #"{"at":"somewhere"}"#, #"{"at":"0 0 0 1"}"#, #"{"at":"5 5 0.1 0.1"}"#,
    #"{"at":"top","color":"chartreuse-ish"}"#, #"{"at":"top","align":"justify"}"#,
    #"{"at":"top","angle":1e308}"#, #"{"at":"top","start":0.9,"stop":0.1}"#,
    #"{"at":"top","case":"lower"}"#, #"{"text":"no place"}"#,
  ])
  func unreasonableStoredBoxesAreRefused(json: String) {
    #expect(throws: DecodingError.self) { try JSONDecoder().decode(TextBox.self, from: Data(json.utf8)) }
  }

  @Test func coloursParseByNameAndHex() {
    #expect(TextColor(parsing: "Yellow") == TextColor(red: 255, green: 255, blue: 0))
    #expect(TextColor(parsing: "#F80") == TextColor(red: 255, green: 136, blue: 0))
    #expect(TextColor(parsing: "1a2B3c")?.description == "#1a2b3c")
    #expect(TextColor(parsing: "#12345") == nil)
    #expect(TextColor(parsing: "１２３４５６") == nil)
  }

  @Test func automaticOutlineContrastsWithTheFill() {
    #expect(TextBox(placement: .top).outlineColor == .black)
    #expect(TextBox(placement: .top, fill: .black).outlineColor == .white)
    #expect(TextBox(placement: .top, fill: TextColor(parsing: "blue")!).outlineColor == .white)
    #expect(TextBox(placement: .top, fill: TextColor(parsing: "yellow")!).outlineColor == .black)
    #expect(TextBox(placement: .top, outline: .none).outlineColor == nil)
  }

  @Test func framesListAsPercentages() {
    #expect(TextFrame(x: 0.5, y: 0.125, width: 0.45, height: 1.0 / 3).percentages == "50% 12.5% 45% 33.3%")
    #expect(TextPlacement(stored: "0.5 0 0.5 0.3333") == .rect(TextFrame(x: 0.5, y: 0, width: 0.5, height: 0.3333)))
    #expect(TextPlacement.rect(TextFrame(x: 0.5, y: 0, width: 0.5, height: 1.0 / 3)).description == "0.5 0 0.5 0.3333")
  }
}
