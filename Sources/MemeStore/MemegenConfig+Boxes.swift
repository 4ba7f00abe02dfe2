import Foundation
import MemeCore

extension MemegenConfig {
  /// The boxes as memesh draws them on a picture of `size`, each holding its example text, and
  /// one note for each thing memesh draws otherwise than memegen (a style it has no case for, a
  /// font it does not bundle, a colour's transparency).
  ///
  /// memegen's box is its top-left corner and size in fractions of the picture; memesh's is the
  /// same rectangle (`TextPlacement.rect`). A box exactly where memegen puts its default top or
  /// bottom text becomes memesh's own `top` or `bottom` band, so a classic two-line template
  /// looks like every other memesh meme and `top`/`bottom` work on it. memegen turns a box
  /// counter-clockwise by `angle` and pastes the turned box's bounding rectangle at the anchor;
  /// memesh turns a box clockwise about its center, so the angle changes sign and the rectangle
  /// moves to where memegen's turned box has its center. A box that would lie too far outside
  /// the picture (`TextFrame.isReasonable`) is an error naming `path`, the config.
  public func textBoxes(pictureSize size: PixelSize, path: String) throws(StoreError)
    -> (boxes: [TextBox], notes: [String])
  {
    var boxes: [TextBox] = []
    var notes: [String] = []
    for (index, text) in texts.enumerated() {
      let label = "text \(index + 1)"
      let placement = text.placement(in: size)
      if case .rect(let frame) = placement, !frame.isReasonable {
        throw StoreError.badTemplate(
          path: path, problem: "\(label) lies too far outside the picture")
      }
      var box = TextBox(text: index < examples.count ? examples[index] : "", placement: placement)
      box.angle = text.angle == 0 ? 0 : -text.angle
      box.alignment = TextAlignment(rawValue: text.align) ?? .center
      box.start = text.start
      box.stop = text.stop
      switch text.style {
      case "upper": box.textCase = .upper
      case "none", "default": box.textCase = .asTyped
      default:
        box.textCase = .asTyped
        notes.append(
          "\(label): style '\(text.style)' is drawn as typed (memesh draws upper or as typed)")
      }
      if let color = MemegenColor(text.color) {
        box.fill = color.color
        // memegen outlines every colour in black but black itself (no outline, or a faint one).
        if color.color == .black {
          box.outline = .none
        } else if !color.color.isLight {
          box.outline = .color(.black)
        }
        if color.hasAlpha {
          notes.append("\(label): colour '\(text.color)' is drawn opaque")
        }
      }
      switch text.font {
      case nil, "titilliumweb", "thick": break
      case "impact": box.font = "Anton"
      case "notosans": box.font = "DejaVuSans-Bold"
      case let font?:
        notes.append("\(label): font '\(font)' is not bundled; drawn in the meme's font")
      }
      boxes.append(box)
    }
    if examples.count > texts.count {
      notes.append(
        "\(examples.count) examples for \(texts.count) boxes; the last "
          + "\(examples.count - texts.count) left out")
    }
    return (boxes, notes)
  }
}

extension MemegenText {
  /// memegen's default top box: the top fifth, level.
  static let topFrame = TextFrame(x: 0, y: 0, width: 1, height: 0.2)
  /// memegen's default bottom box.
  static let bottomFrame = TextFrame(x: 0, y: 0.8, width: 1, height: 0.2)

  /// Where memesh puts this box on a picture of `size` (see `MemegenConfig.textBoxes`).
  func placement(in size: PixelSize) -> TextPlacement {
    let width = Double(max(size.width, 1))
    let height = Double(max(size.height, 1))
    var frame = TextFrame(x: anchorX, y: anchorY, width: scaleX, height: scaleY)
    if angle == 0 {
      if frame == Self.topFrame { return .top }
      if frame == Self.bottomFrame { return .bottom }
      return .rect(frame)
    }
    let radians = angle * .pi / 180
    let boxWidth = scaleX * width
    let boxHeight = scaleY * height
    let turnedWidth = boxWidth * abs(cos(radians)) + boxHeight * abs(sin(radians))
    let turnedHeight = boxWidth * abs(sin(radians)) + boxHeight * abs(cos(radians))
    frame.x = anchorX + (turnedWidth - boxWidth) / 2 / width
    frame.y = anchorY + (turnedHeight - boxHeight) / 2 / height
    return .rect(frame)
  }
}

/// A colour as memegen's config gives it (Pillow's colour names and hex forms): a name memesh
/// knows, or `#RGB`, `#RRGGBB`, `#RRGGBBAA` (memesh draws it opaque).
struct MemegenColor {
  var color: TextColor
  var hasAlpha: Bool

  init?(_ text: String) {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    if trimmed.hasPrefix("#"), trimmed.count == 9 {
      guard let color = TextColor(parsing: String(trimmed.prefix(7))),
        trimmed.dropFirst(7).allSatisfy(\.isHexDigit)
      else { return nil }
      self.color = color
      hasAlpha = !trimmed.lowercased().hasSuffix("ff")
      return
    }
    guard
      trimmed.hasPrefix("#")
        || TextColor.names.contains(where: { $0.name == trimmed.lowercased() }),
      let color = TextColor(parsing: trimmed)
    else { return nil }
    self.color = color
    hasAlpha = false
  }
}
