import MemeCore

/// A key `place` understands.
enum PlaceKey: Equatable {
  enum Direction: Equatable { case up, down, left, right }
  /// An arrow: moves the box (`large`: Ctrl held, ten steps at once).
  case move(Direction, large: Bool)
  /// Shift and an arrow: the right or bottom edge out or in (`large`: Ctrl held too).
  case resize(Direction, large: Bool)
  /// `]` and `[`: the whole box larger or smaller about its center.
  case grow, shrink
  /// `r` and `R`: a turn clockwise or back.
  case rotate(clockwise: Bool)
  /// Enter: keep the box where it is.
  case keep
  /// Esc or Ctrl-C: put the box back.
  case cancel
  /// Anything else.
  case other

  /// Reads one key through `next`, which gives the next byte, waiting when `wait` is true and
  /// only if one is already there otherwise (nil: none, or the end of input). An escape
  /// sequence is read whole: `ESC [ A` is Up, `ESC [ 1 ; 2 A` Shift+Up, `ESC O A` Up in the
  /// application key mode; a lone Esc is `cancel`. Nil at the end of input.
  static func read(_ next: (_ wait: Bool) -> UInt8?) -> PlaceKey? {
    guard let byte = next(true) else { return nil }
    switch byte {
    case 0x1B:
      guard let introducer = next(false) else { return .cancel }
      guard introducer == UInt8(ascii: "[") || introducer == UInt8(ascii: "O") else {
        return .other
      }
      var parameters: [UInt8] = []
      while let part = next(false) {
        if (0x40...0x7E).contains(part) { return arrow(part, parameters: parameters) }
        parameters.append(part)
        if parameters.count > 16 { return .other }
      }
      return .other
    case UInt8(ascii: "\r"), UInt8(ascii: "\n"): return .keep
    case 0x03: return .cancel
    case UInt8(ascii: "]"), UInt8(ascii: "+"): return .grow
    case UInt8(ascii: "["), UInt8(ascii: "-"): return .shrink
    case UInt8(ascii: "r"): return .rotate(clockwise: true)
    case UInt8(ascii: "R"): return .rotate(clockwise: false)
    default: return .other
    }
  }

  /// The arrow a sequence ending in `final` names, with xterm's modifier parameter (`1;2`:
  /// Shift, `1;5`: Ctrl, `1;6`: Ctrl+Shift).
  private static func arrow(_ final: UInt8, parameters: [UInt8]) -> PlaceKey {
    let direction: Direction
    switch final {
    case UInt8(ascii: "A"): direction = .up
    case UInt8(ascii: "B"): direction = .down
    case UInt8(ascii: "C"): direction = .right
    case UInt8(ascii: "D"): direction = .left
    default: return .other
    }
    let modifier =
      String(decoding: parameters, as: UTF8.self).split(separator: ";").last.flatMap {
        Int($0)
      } ?? 1
    let bits = max(0, modifier - 1)
    let shift = bits & 1 != 0
    let control = bits & 4 != 0
    return shift ? .resize(direction, large: control) : .move(direction, large: control)
  }
}

/// A box being placed: where it is now and where it was, as fractions of the picture, and what
/// each key does to it. Steps are 1 % of the picture (10 % with Ctrl), growing and shrinking 5 %,
/// turning 5°. The box never leaves the picture entirely and never gets smaller than a step.
struct PlaceEdit: Equatable {
  let original: TextBox
  var box: TextBox
  /// The displayed picture's size, which turns a named place (`top`) into its rectangle.
  let pictureSize: PixelSize

  static let step = 0.01
  static let largeStep = 0.1
  static let growth = 1.05
  static let turn = 5.0
  static let smallest = 0.02

  init(_ box: TextBox, pictureSize: PixelSize) {
    original = box
    self.box = box
    self.pictureSize = pictureSize
  }

  /// The box's rectangle as fractions.
  var frame: TextFrame { box.placement.frame(in: pictureSize) }

  /// True when the box differs from where it started.
  var changed: Bool { box != original }

  /// Applies a moving, resizing or turning key (others change nothing).
  mutating func apply(_ key: PlaceKey) {
    var frame = self.frame
    switch key {
    case .move(let direction, let large):
      let step = large ? Self.largeStep : Self.step
      switch direction {
      case .up: frame.y -= step
      case .down: frame.y += step
      case .left: frame.x -= step
      case .right: frame.x += step
      }
    case .resize(let direction, let large):
      let step = large ? Self.largeStep : Self.step
      switch direction {
      case .up: frame.height -= step
      case .down: frame.height += step
      case .left: frame.width -= step
      case .right: frame.width += step
      }
    case .grow, .shrink:
      let factor = key == .grow ? Self.growth : 1 / Self.growth
      let (centerX, centerY) = (frame.x + frame.width / 2, frame.y + frame.height / 2)
      frame.width *= factor
      frame.height *= factor
      frame.x = centerX - frame.width / 2
      frame.y = centerY - frame.height / 2
    case .rotate(let clockwise):
      var angle = box.angle + (clockwise ? Self.turn : -Self.turn)
      angle = angle.truncatingRemainder(dividingBy: 360)
      if angle > 180 { angle -= 360 }
      if angle <= -180 { angle += 360 }
      box.angle = (angle * 1000).rounded() / 1000
      return
    case .keep, .cancel, .other:
      return
    }
    box.placement = .rect(Self.clamped(frame))
  }

  /// `frame` with sides between `smallest` and the largest a box may have, and at least a step
  /// of it inside the picture; numbers rounded to 1/10,000 (the stored precision).
  static func clamped(_ frame: TextFrame) -> TextFrame {
    func round(_ value: Double) -> Double { (value * 10_000).rounded() / 10_000 }
    let largest = TextBox.maximumRectangleSide
    let width = round(min(largest, max(smallest, frame.width)))
    let height = round(min(largest, max(smallest, frame.height)))
    let x = round(min(1 - step, max(step - width, frame.x)))
    let y = round(min(1 - step, max(step - height, frame.y)))
    return TextFrame(x: x, y: y, width: width, height: height)
  }

  /// Where the box is, then which keys do what.
  var status: String {
    let angle = box.angle == 0 ? "" : ", turned \(Self.degrees(box.angle))°"
    return "at \(frame.percentages)\(angle)"
  }

  /// The keys, shortest first-read order.
  static let keys =
    "arrows move · Shift+arrows or [ ] size · r R turn · Enter keeps · Esc puts back"

  static func degrees(_ angle: Double) -> String {
    angle == angle.rounded() ? String(Int(angle)) : String(angle)
  }
}
