import Foundation
import MemeCore
import MemeMedia

extension FuzzTarget {
  /// A canvas small enough that one input takes milliseconds.
  static let canvas = RGBAImage(width: 96, height: 64, fill: RGBA(40, 90, 160))
  static let renderer = CaptionRenderer(catalog: .standard())

  /// Caption text (any bytes, read as UTF-8 the way the shell reads a line): the top caption up
  /// to the first NUL, the bottom caption after it, shaped and drawn in the default font.
  static let caption = FuzzTarget(name: "caption", summary: "caption text, top NUL bottom") {
    data in
    let parts = data.split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false)
    let top = String(decoding: parts.first ?? Data(), as: UTF8.self)
    let bottom = parts.count > 1 ? String(decoding: parts[1], as: UTF8.self) : ""
    let normalized = CaptionLayout.normalize(top)
    precondition(!normalized.unicodeScalars.contains { $0.value < 0x20 }, "control kept")
    var image = canvas
    _ = try? renderer.draw(into: &image, top: top, bottom: bottom, font: "Anton")
    precondition(image.width == canvas.width && image.height == canvas.height, "size changed")
  }
}
