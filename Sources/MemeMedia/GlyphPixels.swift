import MemeSystem

#if canImport(Glibc)
  import Glibc
#endif

/// A glyph's bytes at one fixed address for as long as they live, so a caption's glyphs can be
/// handed to the C compositor by pointer. Written once while being made, then only read (that is
/// why the class is `@unchecked Sendable`).
final class GlyphPixels: @unchecked Sendable {
  let bytes: UnsafeMutableBufferPointer<UInt8>
  /// The arena block holding `bytes`, kept alive by them; nil when they are the class's own.
  private let block: GlyphArena.Block?

  /// `count` bytes, set by `fill` (which must set every one), or zeros without it; taken from
  /// `arena` when it has room.
  init(
    count: Int, in arena: GlyphArena? = nil,
    fill: ((UnsafeMutableBufferPointer<UInt8>) -> Void)? = nil
  ) {
    (bytes, block) = GlyphPixels.take(count, from: arena)
    if let fill { fill(bytes) } else if block == nil { bytes.initialize(repeating: 0) }
  }

  /// `count` zero bytes, then `draw` (which may leave some of them zero); taken from `arena`
  /// when it has room, whose bytes are zero already: a renderer that writes only where a glyph
  /// reaches leaves the rest of those pages untouched.
  init(zeroed count: Int, in arena: GlyphArena?, draw: (UnsafeMutableBufferPointer<UInt8>) -> Void)
  {
    (bytes, block) = GlyphPixels.take(count, from: arena)
    if block == nil { bytes.initialize(repeating: 0) }
    draw(bytes)
  }

  /// `count` bytes from `arena`, or of their own (block nil) when it has no room.
  private static func take(_ count: Int, from arena: GlyphArena?) -> (
    UnsafeMutableBufferPointer<UInt8>, GlyphArena.Block?
  ) {
    if let (bytes, block) = arena?.take(count) { return (bytes, block) }
    return (.allocate(capacity: max(0, count)), nil)
  }

  /// A copy of `array`.
  convenience init(_ array: [UInt8]) {
    self.init(count: array.count) { target in
      _ = target.initialize(from: array)
    }
  }

  deinit { if block == nil { bytes.deallocate() } }

  var count: Int { bytes.count }

  subscript(index: Int) -> UInt8 { bytes[index] }
}

/// Memory for the glyphs of captions drawn large (a 12-MP photo's: some 4 MB of fills and
/// outlines), handed out from 2-MB blocks (`PageMapping`, small pages) one after the other: a
/// mapping per block instead of one per bitmap, and no `malloc` bookkeeping. Nothing is given
/// back before the block is gone: each `GlyphPixels` keeps its block, which is unmapped when the
/// last of them goes. Used by one thread at a time (the text lock).
final class GlyphArena {
  /// The block size.
  static let blockSize = 2 << 20

  /// One mapped block.
  final class Block: @unchecked Sendable {
    let start: UnsafeMutableRawPointer

    /// A new block, or nil when it cannot be mapped.
    init?() {
      guard let mapping = PageMapping(length: GlyphArena.blockSize) else { return nil }
      start = mapping.start
    }

    deinit { munmap(start, GlyphArena.blockSize) }
  }

  private var block: Block?
  private var used = 0

  /// `count` bytes from the current block, or a new one, all zero (a block's bytes are handed
  /// out once, from a fresh mapping); nil for more than a block holds (or when no block can be
  /// mapped): the caller allocates those itself.
  func take(_ count: Int) -> (UnsafeMutableBufferPointer<UInt8>, Block)? {
    guard count > 0, count <= Self.blockSize else { return nil }
    // 16-byte steps keep every bitmap aligned as malloc's would be.
    let rounded = (count + 15) & ~15
    if block == nil || used + rounded > Self.blockSize {
      guard let fresh = Block() else { return nil }
      block = fresh
      used = 0
    }
    guard let block else { return nil }
    let start = (block.start + used).bindMemory(to: UInt8.self, capacity: count)
    used += rounded
    return (UnsafeMutableBufferPointer(start: start, count: count), block)
  }
}
