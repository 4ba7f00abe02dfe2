import CGif
import CMemeshCodec
import Foundation
import MemeCore

/// How an animated GIF is made from true-colour frames. The defaults are the measured choice
/// (README, Speed: animated GIF): a palette per frame (one palette from the first frame loses
/// the colours a pan brings in), of at most 200 colours (255 made files larger than
/// ImageMagick's for a few dB nobody sees; a frame with at most 255 colours keeps them exactly),
/// light dithering outside the captions, and pixels within 6 of what is shown left alone.
public struct GIFOptions: Sendable, Equatable {
  /// Error diffusion strength in 16ths (0 none, 16 full Floyd–Steinberg); caption pixels are
  /// never dithered.
  public var dither: Int
  /// A pixel whose channels moved by at most this since it was drawn is left as it is shown.
  public var tolerance: Int
  /// One palette from the first frame for all frames, instead of one per frame.
  public var globalPalette: Bool
  /// A frame with at most 255 colours to draw keeps them exactly (else Wu's palette).
  public var exactColours: Bool
  /// The most colours of a frame's palette (2…255).
  public var maxColours: Int

  public init(
    dither: Int = 12, tolerance: Int = 6, globalPalette: Bool = false, exactColours: Bool = true,
    maxColours: Int = 200
  ) {
    self.maxColours = maxColours
    self.dither = dither
    self.tolerance = tolerance
    self.globalPalette = globalPalette
    self.exactColours = exactColours
  }
}

/// Writes an animated GIF one frame at a time, as gifsicle's optimizer would shape it: each
/// frame holds only the rectangle that changed, unchanged pixels in it transparent, with its own
/// palette (`memesh_gif_state_add` chooses the pixels and colours); giflib writes the blocks and
/// the LZW data. A frame is written when the next one arrives, because whether it must clear
/// itself after it is shown (disposal 2) depends on whether the next has transparent pixels.
final class GIFWriter {
  /// The frame waiting for its successor.
  private struct Pending {
    var pixels: [UInt8]
    var mask: [UInt8]?
    var centiseconds: Int
  }

  let canvas: PixelSize
  private let options: GIFOptions
  private let sink = Sink()
  private let gif: UnsafeMutablePointer<GifFileType>
  private let state: OpaquePointer
  private var pending: Pending?
  private var closed = false
  private(set) var frameCount = 0

  /// The bytes giflib writes, collected in memory in blocks, so a growing GIF is never copied
  /// into a larger buffer (an array doubling its capacity held up to twice the file, and a copy
  /// of it at the end). Blocks and the joined file are mapped pages of their own, so each block
  /// goes back to the system as soon as it is copied: the file is in memory about once.
  final class Sink {
    static let blockSize = 1 << 20
    private var blocks: [UnsafeMutableRawPointer] = []
    /// Bytes used in the last block.
    private var used = Sink.blockSize
    private(set) var count = 0
    /// A block could not be mapped: the GIF is incomplete.
    private(set) var failed = false

    deinit { for block in blocks { munmap(block, Sink.blockSize) } }

    func append(_ bytes: UnsafeRawBufferPointer) {
      guard var source = bytes.baseAddress, !failed else { return }
      var left = bytes.count
      while left > 0 {
        if used == Sink.blockSize {
          guard let block = Sink.map(Sink.blockSize) else {
            failed = true
            return
          }
          blocks.append(block)
          used = 0
        }
        let part = min(left, Sink.blockSize - used)
        (blocks[blocks.count - 1] + used).copyMemory(from: source, byteCount: part)
        used += part
        source += part
        left -= part
      }
      count += bytes.count
    }

    /// The bytes as one `Data` of exactly their size, each block unmapped once copied; nil
    /// when memory ran out.
    func data() -> Data? {
      guard !failed else { return nil }
      guard count > 0 else { return Data() }
      guard let joined = Sink.map(count) else { return nil }
      for (index, block) in blocks.enumerated() {
        let length = min(Sink.blockSize, count - index * Sink.blockSize)
        (joined + index * Sink.blockSize).copyMemory(from: block, byteCount: length)
        munmap(block, Sink.blockSize)
      }
      blocks = []
      return Data(bytesNoCopy: joined, count: count, deallocator: .custom { munmap($0, $1) })
    }

    /// `length` bytes of fresh zeroed pages, or nil.
    private static func map(_ length: Int) -> UnsafeMutableRawPointer? {
      let address = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
      return address == MAP_FAILED ? nil : address
    }
  }

  /// Starts a GIF of `canvas` that plays `loopCount` times (nil: once, no NETSCAPE block; 0:
  /// forever), with `recipe` in a comment before the first frame.
  init(
    canvas: PixelSize, loopCount: Int?, recipe: String?, iccProfile: Data? = nil,
    options: GIFOptions
  ) throws(MediaError) {
    guard canvas.width > 0, canvas.height > 0, canvas.width <= 65535, canvas.height <= 65535 else {
      throw .tooLarge(format: .gif, size: canvas, limit: 65535, animated: true)
    }
    self.canvas = canvas
    self.options = options
    do {
      try SharedLibrary.load([.gif])
    } catch {
      throw .cannotEncode(format: .gif, .libraryMissing(error))
    }
    guard
      let state = memesh_gif_state_new(UInt32(canvas.width), UInt32(canvas.height))
    else { throw .cannotEncode(format: .gif, .outOfMemory) }
    self.state = state
    var error: Int32 = 0
    guard let gif = EGifOpen(Unmanaged.passUnretained(sink).toOpaque(), GIFWriter.write, &error)
    else {
      memesh_gif_state_free(state)
      throw GIFWriter.failure(error)
    }
    self.gif = gif
    EGifSetGifVersion(gif, true)
    try check(EGifPutScreenDesc(gif, Int32(canvas.width), Int32(canvas.height), 8, 0, nil))
    if let loopCount {
      let count = UInt16(clamping: loopCount)
      try check(EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE))
      try check(EGifPutExtensionBlock(gif, 11, Array("NETSCAPE2.0".utf8)))
      try check(EGifPutExtensionBlock(gif, 3, [1, UInt8(count & 0xFF), UInt8(count >> 8)]))
      try check(EGifPutExtensionTrailer(gif))
    }
    if let iccProfile, !iccProfile.isEmpty {
      // Where ImageMagick keeps a GIF's colour profile, and memesh's GIF reader finds it.
      try check(EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE))
      try check(EGifPutExtensionBlock(gif, 11, Array("ICCRGBG1012".utf8)))
      var rest = [UInt8](iccProfile)[...]
      while !rest.isEmpty {
        let block = Array(rest.prefix(255))
        try check(EGifPutExtensionBlock(gif, Int32(block.count), block))
        rest = rest.dropFirst(block.count)
      }
      try check(EGifPutExtensionTrailer(gif))
    }
    if let recipe {
      try check(EGifPutComment(gif, GIFRecords.recipeKeyword + " " + recipe))
    }
  }

  /// A one-frame GIF of `rows` (their captions drawn), with the recipe and colour profile of
  /// `settings`: what `ImageCodec.encode` writes for GIF.
  static func still(
    rows: UnsafePointer<memesh_rows>, settings: EncodeSettings
  ) throws(MediaError) -> Data {
    let width = Int(rows.pointee.width)
    let height = Int(rows.pointee.height)
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    pixels.withUnsafeMutableBufferPointer { target in
      guard let base = target.baseAddress, let sources = rows.pointee.rows else { return }
      for row in 0..<height {
        guard let source = sources[row] else { continue }
        (base + row * width * 4).update(from: source, count: width * 4)
      }
    }
    var mask: [UInt8]?
    if let overlay = rows.pointee.overlay {
      var marks = [UInt8](repeating: 0, count: width * height)
      var scratch = [UInt8](repeating: 0, count: width * 2)
      pixels.withUnsafeMutableBufferPointer { pixels in
        marks.withUnsafeMutableBufferPointer { marks in
          scratch.withUnsafeMutableBufferPointer { scratch in
            memesh_overlay_draw_marking(
              overlay, pixels.baseAddress, UInt32(width), UInt32(height), marks.baseAddress,
              scratch.baseAddress)
          }
        }
      }
      mask = marks
    }
    let writer = try GIFWriter(
      canvas: PixelSize(width: width, height: height), loopCount: nil,
      recipe: settings.recipe?.encoded(), iccProfile: settings.iccProfile, options: GIFOptions())
    try writer.add(pixels: pixels, mask: mask, centiseconds: 0)
    return try writer.finish()
  }

  deinit {
    if !closed { EGifCloseFile(gif, nil) }
    memesh_gif_state_free(state)
  }

  /// giflib's output callback: appends to the sink.
  private static let write: OutputFunc = { gif, bytes, count in
    guard let gif, let bytes, count > 0, let context = gif.pointee.UserData else { return 0 }
    let sink = Unmanaged<Sink>.fromOpaque(context).takeUnretainedValue()
    sink.append(UnsafeRawBufferPointer(start: bytes, count: Int(count)))
    return sink.failed ? 0 : count
  }

  /// Adds a frame: `pixels` is the whole canvas (RGBA, captions drawn), `mask` marks the
  /// caption's pixels, shown for `centiseconds`.
  func add(pixels: [UInt8], mask: [UInt8]?, centiseconds: Int) throws(MediaError) {
    precondition(pixels.count == canvas.width * canvas.height * 4)
    let next = Pending(pixels: pixels, mask: mask, centiseconds: centiseconds)
    if let pending {
      let transparent = pixels.withUnsafeBufferPointer { buffer in
        memesh_rgba_has_transparency(buffer.baseAddress, canvas.width * canvas.height)
      }
      try write(pending, nextHasTransparency: transparent != 0)
    }
    pending = next
  }

  /// Writes the last frame and the trailer; the GIF's bytes.
  func finish() throws(MediaError) -> Data {
    if let pending { try write(pending, nextHasTransparency: false) }
    pending = nil
    var error: Int32 = 0
    closed = true
    guard EGifCloseFile(gif, &error) == GIF_OK else { throw GIFWriter.failure(error) }
    guard let data = sink.data() else { throw .cannotEncode(format: .gif, .outOfMemory) }
    return data
  }

  private func write(_ frame: Pending, nextHasTransparency: Bool) throws(MediaError) {
    var settings = memesh_gif_options(
      dither: Int32(options.dither), tolerance: Int32(options.tolerance),
      global_palette: options.globalPalette ? 1 : 0, exact_colours: options.exactColours ? 1 : 0,
      max_colours: Int32(options.maxColours))
    var planned = memesh_gif_frame()
    let status = frame.pixels.withUnsafeBufferPointer { pixels in
      withOptionalBuffer(frame.mask) { mask in
        memesh_gif_state_add(
          state, pixels.baseAddress, mask, nextHasTransparency ? 1 : 0, &settings, &planned)
      }
    }
    guard status == Int32(MEMESH_OK), let indices = planned.indices else {
      throw .cannotEncode(format: .gif, .outOfMemory)
    }
    var control = GraphicsControlBlock(
      DisposalMode: planned.disposal, UserInputFlag: false,
      DelayTime: Int32(clamping: frame.centiseconds), TransparentColor: planned.transparent_index)
    var extensionBytes = [GifByteType](repeating: 0, count: 4)
    let length = EGifGCBToExtension(&control, &extensionBytes)
    try check(EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, Int32(length), extensionBytes))
    // giflib wants a power of two colours.
    var tableSize = 2
    while tableSize < Int(planned.palette_size) { tableSize *= 2 }
    var colors = [GifColorType](repeating: GifColorType(), count: tableSize)
    withUnsafeBytes(of: planned.palette) { palette in
      for index in 0..<Int(planned.palette_size) {
        colors[index] = GifColorType(
          Red: palette[index * 3], Green: palette[index * 3 + 1], Blue: palette[index * 3 + 2])
      }
    }
    guard let map = GifMakeMapObject(Int32(tableSize), colors) else {
      throw .cannotEncode(format: .gif, .outOfMemory)
    }
    defer { GifFreeMapObject(map) }
    try check(
      EGifPutImageDesc(
        gif, Int32(planned.left), Int32(planned.top), Int32(planned.width),
        Int32(planned.height), false, map))
    try check(
      EGifPutLine(
        gif, UnsafeMutablePointer(mutating: indices), Int32(planned.width * planned.height)))
    frameCount += 1
  }

  private func check(_ status: Int32) throws(MediaError) {
    guard status == GIF_OK else { throw GIFWriter.failure(gif.pointee.Error) }
  }

  private static func failure(_ code: Int32) -> MediaError {
    if code == E_GIF_ERR_NOT_ENOUGH_MEM { return .cannotEncode(format: .gif, .outOfMemory) }
    let reason = GifErrorString(code).map { String(cString: $0) } ?? "error \(code)"
    return .cannotEncode(
      format: .gif, .library(reason: "giflib: \(ImageCodec.userWording(reason))"))
  }
}

/// Calls `body` with the bytes' address, or nil when there are none.
private func withOptionalBuffer<Result>(
  _ bytes: [UInt8]?, _ body: (UnsafePointer<UInt8>?) -> Result
) -> Result {
  guard let bytes else { return body(nil) }
  return bytes.withUnsafeBufferPointer { body($0.baseAddress) }
}
