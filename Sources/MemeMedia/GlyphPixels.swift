/// A glyph's bytes at one fixed address for as long as they live, so a caption's glyphs can be
/// handed to the C compositor by pointer. Written once while being made, then only read (that is
/// why the class is `@unchecked Sendable`).
final class GlyphPixels: @unchecked Sendable {
  let bytes: UnsafeMutableBufferPointer<UInt8>

  /// `count` bytes, set by `fill` (which must set every one), or zeros without it.
  init(count: Int, fill: ((UnsafeMutableBufferPointer<UInt8>) -> Void)? = nil) {
    bytes = .allocate(capacity: max(0, count))
    if let fill { fill(bytes) } else { bytes.initialize(repeating: 0) }
  }

  /// A copy of `array`.
  convenience init(_ array: [UInt8]) {
    self.init(count: array.count) { target in
      _ = target.initialize(from: array)
    }
  }

  deinit { bytes.deallocate() }

  var count: Int { bytes.count }

  subscript(index: Int) -> UInt8 { bytes[index] }
}
