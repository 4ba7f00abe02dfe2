import MemeCore
import Testing

@testable import MemeShell

/// The keys of `place N` and what each does to the box (the terminal loop is in
/// PlaceTerminalTests).
@Suite struct PlaceEditTests {
  /// Reads keys from `bytes` as a terminal would deliver them (all already waiting).
  func keys(_ bytes: [UInt8]) -> [PlaceKey] {
    var remaining = bytes[...]
    var keys: [PlaceKey] = []
    while let key = PlaceKey.read({ _ in remaining.popFirst() }) { keys.append(key) }
    return keys
  }

  @Test func escapeSequencesAreReadWhole() {
    let escape: UInt8 = 0x1B
    let typed: [UInt8] =
      [escape, 91, 65] + [escape, 79, 66] + [escape] + Array("[1;2C".utf8) + [escape]
      + Array("[1;5D".utf8) + [escape] + Array("[1;6B".utf8) + Array("[]rR\r".utf8) + [3, escape]
    #expect(
      keys(typed) == [
        .move(.up, large: false), .move(.down, large: false), .resize(.right, large: false),
        .move(.left, large: true), .resize(.down, large: true), .shrink, .grow,
        .rotate(clockwise: true), .rotate(clockwise: false), .keep, .cancel, .cancel,
      ])
  }

  @Test func aNamedPlaceBecomesItsRectangleOnceMoved() {
    let size = PixelSize(width: 400, height: 300)
    var edit = PlaceEdit(TextBox(text: "HI", placement: .top), pictureSize: size)
    let before = TextPlacement.top.frame(in: size)
    edit.apply(.move(.right, large: false))
    edit.apply(.move(.down, large: true))
    guard case .rect(let frame) = edit.box.placement else {
      Issue.record("still named")
      return
    }
    #expect(abs(frame.x - (before.x + 0.01)) < 1e-4)
    #expect(abs(frame.y - (before.y + 0.1)) < 1e-4)
    #expect(abs(frame.width - before.width) < 1e-4)
    #expect(edit.changed)
  }

  @Test func resizingGrowingAndTurning() {
    let size = PixelSize(width: 100, height: 100)
    let start = TextFrame(x: 0.2, y: 0.2, width: 0.4, height: 0.2)
    var edit = PlaceEdit(TextBox(placement: .rect(start)), pictureSize: size)
    edit.apply(.resize(.right, large: false))
    edit.apply(.resize(.up, large: false))
    #expect(edit.frame == TextFrame(x: 0.2, y: 0.2, width: 0.41, height: 0.19))
    edit.apply(.grow)
    #expect(abs(edit.frame.width - 0.41 * 1.05) < 1e-4)
    #expect(abs((edit.frame.x + edit.frame.width / 2) - 0.405) < 1e-4, "grows about its center")
    for _ in 0..<3 { edit.apply(.rotate(clockwise: false)) }
    #expect(edit.box.angle == -15)
    for _ in 0..<40 { edit.apply(.rotate(clockwise: true)) }
    #expect(edit.box.angle == 185 - 360)
  }

  @Test func theBoxNeverLeavesThePictureNorVanishes() {
    var edit = PlaceEdit(
      TextBox(placement: .rect(TextFrame(x: 0.1, y: 0.1, width: 0.3, height: 0.3))),
      pictureSize: PixelSize(width: 10, height: 10))
    for _ in 0..<50 { edit.apply(.move(.left, large: true)) }
    for _ in 0..<50 { edit.apply(.resize(.up, large: true)) }
    #expect(edit.frame.x + edit.frame.width > 0)
    #expect(edit.frame.height >= PlaceEdit.smallest)
    #expect(edit.frame.isReasonable)
    for _ in 0..<500 { edit.apply(.grow) }
    #expect(edit.frame.isReasonable)
  }
}
