import MemeCore

/// Pictures and text helpers shared by the terminal preview tests.
enum PreviewFixture {
  /// A 160×80 picture a user would recognise in a preview: sky-blue top half, grass-green
  /// bottom half, a red sun in the top left and a white bar across the middle.
  static let landscape: RGBAImage = {
    var image = RGBAImage(width: 160, height: 80, fill: RGBA(70, 140, 230))
    for y in 40..<80 {
      for x in 0..<160 { image[x, y] = RGBA(40, 160, 60) }
    }
    for y in 8..<32 {
      for x in 12..<36 where (x - 24) * (x - 24) + (y - 20) * (y - 20) <= 144 {
        image[x, y] = RGBA(230, 40, 30)
      }
    }
    for y in 36..<44 {
      for x in 20..<140 { image[x, y] = RGBA(255, 255, 255) }
    }
    return image
  }()

  /// A tall 40×120 picture: yellow above, purple below.
  static let portrait: RGBAImage = {
    var image = RGBAImage(width: 40, height: 120, fill: RGBA(240, 220, 40))
    for y in 60..<120 {
      for x in 0..<40 { image[x, y] = RGBA(120, 40, 160) }
    }
    return image
  }()
}

/// Terminal text as a user sees it: escape sequences removed.
enum VisibleText {
  /// `text` without CSI (`ESC[ … letter`), OSC, APC, DCS sequences and other `ESC x` pairs.
  static func strip(_ text: String) -> String {
    var result = ""
    var scalars = text.unicodeScalars.makeIterator()
    while let scalar = scalars.next() {
      guard scalar == "\u{1B}" else {
        result.unicodeScalars.append(scalar)
        continue
      }
      guard let kind = scalars.next() else { break }
      switch kind {
      case "[":
        while let next = scalars.next(), !(0x40...0x7E).contains(next.value) {}
      case "]", "_", "P":
        // Until ST (ESC \) or BEL.
        var previous: Unicode.Scalar = " "
        while let next = scalars.next() {
          if next == "\u{07}" || (previous == "\u{1B}" && next == "\\") { break }
          previous = next
        }
      default:
        break
      }
    }
    return result
  }

  /// The visible lines of `text`.
  static func lines(_ text: String) -> [String] {
    strip(text).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  }
}
