import CGif
import CMemeshCodec
import Foundation
import MemeCore

/// Every frame of a GIF, composed on its logical screen as browsers show it: each frame's own
/// palette or the global one, its transparent index, and the previous frame's disposal (leave
/// it, clear its rectangle to transparent, or restore what was there before it). Two passes with
/// giflib: the first walks the records without decoding any pixel (frames, delays, loop count,
/// recipe; the limits are checked there), the second decodes one frame per `next()`.
final class GIFAnimationReader: AnimationFrameReader {
  let info: AnimationInfo
  private(set) var warnings: [String] = []
  private let bytes: AnimationBytes
  private let records: GIFRecords
  private var canvas: [UInt8]
  /// The canvas before the frame whose disposal is "restore previous".
  private var saved: [UInt8]?
  /// What the last frame asks to be done before the next is drawn.
  private var pending: (rect: PixelRect, disposal: Int)?
  private var finished = false
  private var decodedFrames = 0
  private let limits: DecodeLimits
  /// Time spent in `next()` so far: the time limit counts decoding, not the pauses between
  /// frames while they are played or encoded.
  private var decodeTime = Duration.zero

  init(_ bytes: AnimationBytes, limits: AnimationLimits) throws(MemeDecodeFailure) {
    self.bytes = bytes
    self.limits = limits.still
    let scan = try GIFRecords(bytes)
    var delays: [Int] = []
    var work = 0
    var scanWarnings: [String] = []
    while true {
      let image: (GifImageDesc, GIFRecords.Control)?
      do {
        image = try scan.nextImage()
        if let image { try scan.skipImage(image.0) }
      } catch {
        // A file cut short after whole frames plays those frames, as browsers do.
        guard !delays.isEmpty else { throw error }
        scanWarnings.append(
          "the GIF ends after \(delays.count) frames (\(error.reason)); the rest is left out")
        break
      }
      guard let (descriptor, control) = image else { break }
      let screen = scan.screen(first: descriptor)
      try limits.check(canvas: screen, frames: delays.count + 1)
      // Each frame's rows are decoded in full, even off the screen: that counts too.
      let frameArea = Int(descriptor.Width) * Int(descriptor.Height)
      try limits.still.check(width: Int(descriptor.Width), height: Int(descriptor.Height))
      work += max(frameArea, screen.width * screen.height)
      if work > limits.maxTotalPixels {
        throw MemeDecodeFailure(
          "the animation's frames are more than "
            + "\(AnimationLimits.megapixels(limits.maxTotalPixels)) in all, the most memesh composes")
      }
      delays.append(control.delay * 10)
    }
    guard let first = scan.firstImage else { throw MemeDecodeFailure("the GIF has no image") }
    let screen = scan.screen(first: first)
    info = AnimationInfo(
      format: .gif, canvas: screen, fileDelays: delays, loopCount: scan.loopCount,
      recipeText: scan.recipeText)
    warnings = scanWarnings
    records = try GIFRecords(bytes)
    canvas = [UInt8](repeating: 0, count: screen.width * screen.height * 4)
  }

  func next() throws(MemeDecodeFailure) -> RGBAImage? {
    guard !finished else { return nil }
    let started = ContinuousClock.now
    let deadline = limits.deadline - decodeTime
    try limits.checkTime(deadline)
    defer { decodeTime += .now - started }
    guard let (descriptor, control) = try records.nextImage() else { return nil }
    let size = info.canvas
    if let pending {
      switch pending.disposal {
      case 2: clear(pending.rect)
      case 3: if let saved { canvas = saved }
      default: break
      }
    }
    saved = control.disposal == 3 ? canvas : nil
    let rect = PixelRect(
      x: Int(descriptor.Left), y: Int(descriptor.Top), width: Int(descriptor.Width),
      height: Int(descriptor.Height))
    pending = (rect, control.disposal)
    guard let map = descriptor.ColorMap ?? records.gif.pointee.SColorMap,
      let colors = map.pointee.Colors
    else { throw MemeDecodeFailure("frame has no colour table") }
    let colorCount = Int(map.pointee.ColorCount)
    let transparent = control.transparentIndex
    let visibleColumns = max(0, min(rect.width, size.width - rect.x))
    do {
      try canvas.withUnsafeMutableBufferPointer { pixels throws(MemeDecodeFailure) in
        guard let base = pixels.baseAddress else { return }
        try records.readLines(descriptor, limits: limits, deadline: deadline) { row, line in
          let y = rect.y + row
          guard y < size.height, visibleColumns > 0 else { return }
          let target = base + (y * size.width + rect.x) * 4
          for column in 0..<visibleColumns {
            let index = Int(line[column])
            guard index != transparent, index < colorCount else { continue }
            let color = colors[index]
            let pixel = target + column * 4
            pixel[0] = color.Red
            pixel[1] = color.Green
            pixel[2] = color.Blue
            pixel[3] = 255
          }
        }
      }
    } catch {
      if error.exceeded != nil { throw error }
      // What was decoded of the frame stays, and the animation ends with it.
      warnings.append(
        "frame \(decodedFrames + 1) is damaged (\(error.reason)); the animation ends there")
      finished = true
    }
    decodedFrames += 1
    return RGBAImage(width: size.width, height: size.height, pixels: canvas)
  }

  /// Disposal 2: the rectangle becomes transparent (as browsers do, not the background colour).
  private func clear(_ rect: PixelRect) {
    let size = info.canvas
    let left = max(0, rect.x)
    let right = min(size.width, rect.x + rect.width)
    guard left < right else { return }
    for y in max(0, rect.y)..<max(max(0, rect.y), min(size.height, rect.y + rect.height)) {
      let start = (y * size.width + left) * 4
      for index in start..<(start + (right - left) * 4) { canvas[index] = 0 }
    }
  }
}

/// One pass over a GIF's records with giflib: the extensions before each image (its graphic
/// control block, the loop count, the recipe comment), then the image's lines.
final class GIFRecords {
  /// What a graphic control extension says about the next image.
  struct Control {
    /// In centiseconds.
    var delay = 0
    /// 0 or 1 leave the frame, 2 clear it to transparent, 3 restore what was before it.
    var disposal = 0
    var transparentIndex = -1
  }

  /// The longest comment read (a recipe is a few hundred bytes).
  private static let maxCommentSize = 1 << 20

  let gif: UnsafeMutablePointer<GifFileType>
  private let source: GIFFile.Source
  private let bytes: AnimationBytes
  private(set) var loopCount: Int?
  private(set) var recipeText: String?
  private(set) var firstImage: GifImageDesc?

  init(_ bytes: AnimationBytes) throws(MemeDecodeFailure) {
    self.bytes = bytes
    source = GIFFile.Source(UnsafeRawBufferPointer(bytes.buffer))
    var error: Int32 = 0
    let context = Unmanaged.passUnretained(source).toOpaque()
    guard let gif = DGifOpen(context, GIFFile.readBytes, &error) else {
      throw source.failure(error)
    }
    self.gif = gif
  }

  deinit { DGifCloseFile(gif, nil) }

  /// The logical screen; a GIF that leaves it unset is as large as its first frame.
  func screen(first: GifImageDesc) -> PixelSize {
    let width = Int(gif.pointee.SWidth)
    let height = Int(gif.pointee.SHeight)
    if width > 0, height > 0 { return PixelSize(width: width, height: height) }
    let frame = firstImage ?? first
    return PixelSize(
      width: Int(frame.Left) + Int(frame.Width), height: Int(frame.Top) + Int(frame.Height))
  }

  /// The next image's descriptor and control block, or nil at the end of the file.
  func nextImage() throws(MemeDecodeFailure) -> (GifImageDesc, Control)? {
    var control = Control()
    while true {
      var type = UNDEFINED_RECORD_TYPE
      guard DGifGetRecordType(gif, &type) == GIF_OK else { throw source.failure(gif.pointee.Error) }
      switch type {
      case IMAGE_DESC_RECORD_TYPE:
        guard DGifGetImageDesc(gif) == GIF_OK else { throw source.failure(gif.pointee.Error) }
        let descriptor = gif.pointee.Image
        guard descriptor.Width > 0, descriptor.Height > 0 else {
          throw MemeDecodeFailure("a frame of the GIF has no pixels")
        }
        if firstImage == nil { firstImage = descriptor }
        return (descriptor, control)
      case EXTENSION_RECORD_TYPE:
        try readExtension(&control)
      case TERMINATE_RECORD_TYPE:
        return nil
      default:
        throw MemeDecodeFailure("the GIF is damaged (an unknown record)")
      }
    }
  }

  /// Skips the image's compressed data without decoding it.
  func skipImage(_ descriptor: GifImageDesc) throws(MemeDecodeFailure) {
    var codeSize: Int32 = 0
    var block: UnsafeMutablePointer<GifByteType>?
    guard DGifGetCode(gif, &codeSize, &block) == GIF_OK else {
      throw source.failure(gif.pointee.Error)
    }
    while block != nil {
      guard DGifGetCodeNext(gif, &block) == GIF_OK else { throw source.failure(gif.pointee.Error) }
    }
  }

  /// Decodes the image's lines, handing each to `body` with its row in the frame (interlaced
  /// frames come in four passes: every 8th row from 0, every 8th from 4, every 4th from 2,
  /// every 2nd from 1); stops with the time limit's failure once `deadline` has passed.
  func readLines(
    _ descriptor: GifImageDesc, limits: DecodeLimits, deadline: ContinuousClock.Instant,
    _ body: (Int, UnsafeBufferPointer<GifPixelType>) -> Void
  ) throws(MemeDecodeFailure) {
    let width = Int(descriptor.Width)
    let height = Int(descriptor.Height)
    var line = [GifPixelType](repeating: 0, count: width)
    let passes: [(start: Int, step: Int)] =
      descriptor.Interlace ? [(0, 8), (4, 8), (2, 4), (1, 2)] : [(0, 1)]
    for pass in passes {
      for row in stride(from: pass.start, to: height, by: pass.step) {
        try limits.checkTime(deadline)
        let status = line.withUnsafeMutableBufferPointer { buffer in
          DGifGetLine(gif, buffer.baseAddress, Int32(width))
        }
        guard status == GIF_OK else { throw source.failure(gif.pointee.Error) }
        line.withUnsafeBufferPointer { body(row, $0) }
      }
    }
  }

  /// One extension: a graphic control block for the next image, the NETSCAPE2.0 loop count, a
  /// comment holding the recipe; others are skipped.
  private func readExtension(_ control: inout Control) throws(MemeDecodeFailure) {
    var code: Int32 = 0
    var block: UnsafeMutablePointer<GifByteType>?
    guard DGifGetExtension(gif, &code, &block) == GIF_OK else {
      throw source.failure(gif.pointee.Error)
    }
    var application: [UInt8]?
    var comment: [UInt8] = []
    var firstBlock = true
    while let current = block {
      let length = Int(current[0])
      let payload = UnsafeBufferPointer(start: current + 1, count: length)
      if code == GRAPHICS_EXT_FUNC_CODE, firstBlock {
        var parsed = GraphicsControlBlock()
        if DGifExtensionToGCB(length, current + 1, &parsed) == GIF_OK {
          control = Control(
            delay: Int(parsed.DelayTime), disposal: Int(parsed.DisposalMode),
            transparentIndex: Int(parsed.TransparentColor))
        }
      } else if code == APPLICATION_EXT_FUNC_CODE, firstBlock {
        application = Array(payload)
      } else if code == APPLICATION_EXT_FUNC_CODE, let name = application, length >= 3,
        payload[0] == 1,
        name == Array("NETSCAPE2.0".utf8) || name == Array("ANIMEXTS1.0".utf8)
      {
        loopCount = Int(payload[1]) | Int(payload[2]) << 8
      } else if code == COMMENT_EXT_FUNC_CODE, comment.count + length <= GIFRecords.maxCommentSize
      {
        comment += payload
      }
      firstBlock = false
      guard DGifGetExtensionNext(gif, &block) == GIF_OK else {
        throw source.failure(gif.pointee.Error)
      }
    }
    if let recipe = GIFRecords.recipe(inComment: comment) { recipeText = recipe }
  }

  /// The recipe in a comment memesh wrote (`memesh:recipe {…}`), or nil.
  static func recipe(inComment comment: [UInt8]) -> String? {
    let prefix = Array((GIFRecords.recipeKeyword + " ").utf8)
    guard comment.starts(with: prefix) else { return nil }
    return String(bytes: comment.dropFirst(prefix.count), encoding: .utf8)
  }

  /// The first word of the comment that holds a recipe.
  static let recipeKeyword = MEMESH_RECIPE_KEYWORD
}
