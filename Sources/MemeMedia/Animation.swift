import Foundation
import MemeCore

/// What an animated picture is, read from its structure without decoding its pixels: the
/// canvas, each frame's delay and the loop count.
public struct AnimationInfo: Sendable, Equatable {
  public var format: ImageFormat
  /// The canvas every frame is composed on (a GIF's logical screen, a WebP's canvas).
  public var canvas: PixelSize
  /// Each frame's delay as the file states it, in milliseconds (a GIF's centiseconds × 10).
  public var fileDelays: [Int]
  /// The loop count as the file states it: nil when it says nothing (a GIF without a
  /// NETSCAPE2.0 block), 0 forever, else that number, which the formats read differently
  /// (`plays`).
  public var loopCount: Int?
  /// The memesh recipe embedded in the file (a GIF comment, a WebP XMP packet), as text.
  public var recipeText: String?

  public init(
    format: ImageFormat, canvas: PixelSize, fileDelays: [Int], loopCount: Int?,
    recipeText: String? = nil
  ) {
    self.format = format
    self.canvas = canvas
    self.fileDelays = fileDelays
    self.loopCount = loopCount
    self.recipeText = recipeText
  }

  public var frameCount: Int { fileDelays.count }

  /// Each frame's delay as browsers play it: a delay of 10 ms or less (GIF's 0 and 1
  /// centiseconds, used to mean "as fast as possible") is shown for 100 ms, as Chrome and
  /// Firefox do — which also keeps a loop of zero-delay frames from spinning.
  public var delays: [Int] { fileDelays.map(AnimationInfo.playedDelay) }

  /// The delay a browser shows for a frame whose file says `milliseconds`.
  public static func playedDelay(_ milliseconds: Int) -> Int {
    milliseconds <= 10 ? 100 : milliseconds
  }

  /// One play of the animation, in milliseconds, as browsers play it.
  public var duration: Int { delays.reduce(0, +) }

  /// When each frame starts within one play, as a fraction of `duration` (0 for the first).
  public var startFractions: [Double] {
    let total = Double(max(1, duration))
    var start = 0
    return delays.map { delay in
      defer { start += delay }
      return Double(start) / total
    }
  }

  /// How many times browsers play the animation, nil for forever. A WebP's loop count is the
  /// plays; a GIF's NETSCAPE2.0 count is the repeats after the first play (Chrome and Firefox
  /// play a count of 1 twice), and a GIF without one plays once.
  public var plays: Int? {
    switch (format, loopCount) {
    case (_, 0): nil
    case (.gif, let count?): count + 1
    case (_, let count?): count
    case (_, nil): 1
    }
  }

  /// The plays in words: `forever`, `once`, `3 times`.
  public var loopDescription: String {
    switch plays {
    case nil: "forever"
    case 1: "once"
    case let count?: "\(count) times"
    }
  }
}

/// One frame of an animation, composed on the canvas as a browser shows it.
public struct AnimationFrame: Sendable {
  /// 0 for the first frame.
  public var index: Int
  /// The whole canvas after this frame is drawn (and before its disposal).
  public var image: RGBAImage
  /// As browsers play it, in milliseconds (`AnimationInfo.delays`).
  public var delay: Int
  /// As the file states it, in milliseconds.
  public var fileDelay: Int

  public init(index: Int, image: RGBAImage, delay: Int, fileDelay: Int) {
    self.index = index
    self.image = image
    self.delay = delay
    self.fileDelay = fileDelay
  }
}

/// What keeps a hostile animation from eating memory or time, on top of `DecodeLimits`.
public struct AnimationLimits: Sendable, Equatable {
  /// The pixel cap of a still picture, which also bounds one frame.
  public var still: DecodeLimits
  /// The most frames read (a 1×1 GIF of a million frames is refused before its first pixel).
  public var maxFrames: Int
  /// The largest canvas of an animation: every frame is composed on it, and a few of them live
  /// at once (the shown frame, the one a GIF restores, the one being encoded).
  public var maxCanvasPixels: Int
  /// The most pixels composed over all frames (frames × canvas): the work a load or share does.
  public var maxTotalPixels: Int

  public init(
    still: DecodeLimits = .default, maxFrames: Int = 10_000,
    maxCanvasPixels: Int = 7680 * 4320, maxTotalPixels: Int = 1_000_000_000
  ) {
    self.still = still
    self.maxFrames = maxFrames
    self.maxCanvasPixels = min(maxCanvasPixels, still.maxPixels)
    self.maxTotalPixels = maxTotalPixels
  }

  public static let `default` = AnimationLimits()

  /// Refuses a canvas or a frame count over the limits, in words that say which.
  func check(canvas: PixelSize, frames: Int) throws(MemeDecodeFailure) {
    try still.check(width: canvas.width, height: canvas.height)
    let pixels = canvas.width * canvas.height
    if frames > 1, pixels > maxCanvasPixels {
      throw MemeDecodeFailure(
        "the animation's canvas is \(canvas) pixels, more than the limit of "
          + "\(AnimationLimits.megapixels(maxCanvasPixels)) for an animation")
    }
    if frames > maxFrames {
      throw MemeDecodeFailure(
        "the animation has more than \(maxFrames) frames, the most memesh reads")
    }
    let total = pixels.multipliedReportingOverflow(by: frames)
    if total.overflow || total.partialValue > maxTotalPixels {
      throw MemeDecodeFailure(
        "the animation's \(frames) frames of \(canvas) pixels are more than "
          + "\(AnimationLimits.megapixels(maxTotalPixels)) in all, the most memesh composes")
    }
  }

  static func megapixels(_ pixels: Int) -> String {
    let value = Double(pixels) / 1_000_000
    return value == value.rounded()
      ? "\(Int(value)) megapixels" : String(format: "%.1f megapixels", value)
  }
}

/// A source of an animation's frames, read one at a time so memory holds a few frames, never
/// the whole animation.
protocol AnimationFrameReader: AnyObject {
  var info: AnimationInfo { get }
  /// Non-fatal problems met so far (a frame cut short), in the library's words.
  var warnings: [String] { get }
  /// The next frame composed on the canvas, or nil after the last.
  func next() throws(MemeDecodeFailure) -> RGBAImage?
}

/// An animation opened for reading: its facts, then its frames one by one, from the first again
/// after `rewind()`.
public final class AnimationDecoder {
  public let info: AnimationInfo
  /// The file's name as it appears in messages.
  public let name: String
  private let bytes: AnimationBytes
  private let limits: AnimationLimits
  private var reader: any AnimationFrameReader
  private var index = 0

  init(bytes: AnimationBytes, name: String, limits: AnimationLimits) throws(MediaError) {
    self.bytes = bytes
    self.name = name
    self.limits = limits
    reader = try AnimationDecoder.reader(bytes, name: name, limits: limits)
    info = reader.info
  }

  private static func reader(
    _ bytes: AnimationBytes, name: String, limits: AnimationLimits
  ) throws(MediaError) -> any AnimationFrameReader {
    do throws(MemeDecodeFailure) {
      switch bytes.format {
      case .gif: return try GIFAnimationReader(bytes, limits: limits)
      case .webp: return try WebPAnimationReader(bytes, limits: limits)
      default: throw MemeDecodeFailure("\(bytes.format.name) has no animations memesh reads")
      }
    } catch {
      throw .cannotLoad(
        name: name, .undecodable(reason: ImageCodec.userWording(error.reason), hint: nil))
    }
  }

  /// Non-fatal problems met so far, each naming the file.
  public var warnings: [String] {
    reader.warnings.map { "'\(name)': \(ImageCodec.userWording($0))" }
  }

  /// The next frame, or nil after the last; a damaged frame ends the animation with an error.
  public func next() throws(MediaError) -> AnimationFrame? {
    guard index < info.frameCount else { return nil }
    let image: RGBAImage?
    do {
      image = try reader.next()
    } catch {
      let reason = ImageCodec.userWording(error.reason)
      // A limit met is not damage: worded as for a still picture, with how to change it.
      if let limit = error.exceeded {
        throw .cannotLoad(
          name: name, .undecodable(reason: reason, hint: limits.still.hint(for: limit)))
      }
      throw .cannotLoad(name: name, .damagedFrame(number: index + 1, reason: reason))
    }
    guard let image else { return nil }
    let fileDelay = info.fileDelays[index]
    defer { index += 1 }
    return AnimationFrame(
      index: index, image: image, delay: AnimationInfo.playedDelay(fileDelay),
      fileDelay: fileDelay)
  }

  /// Starts again from the first frame.
  public func rewind() throws(MediaError) {
    reader = try AnimationDecoder.reader(bytes, name: name, limits: limits)
    index = 0
  }
}

/// A file's bytes at a fixed address for as long as a decoder reads them (libwebp's animation
/// decoder keeps pointers into them), read in place from the caller's `Data` when its bytes live
/// in storage of their own (any `Data` of more than a few bytes: it keeps them where they are
/// while it is not changed, and this holds it unchanged), else copied. A 64-MB GIF is then in
/// memory once, not twice.
final class AnimationBytes: @unchecked Sendable {
  let format: ImageFormat
  let buffer: UnsafeRawBufferPointer
  /// The caller's bytes, kept (and so never changed) while `buffer` points into them.
  private let source: Data?
  private let copy: UnsafeMutableRawBufferPointer?

  init(_ data: Data, format: ImageFormat) {
    self.format = format
    let address = { data.withUnsafeBytes { $0.baseAddress } }
    // A small `Data` keeps its bytes inside the value, at a new address each time they are
    // asked for: those few bytes are copied.
    if data.count > 64, let first = address(), address() == first {
      source = data
      copy = nil
      buffer = UnsafeRawBufferPointer(start: first, count: data.count)
    } else {
      let copy = UnsafeMutableRawBufferPointer.allocate(
        byteCount: max(1, data.count), alignment: 16)
      data.copyBytes(to: copy)
      source = nil
      self.copy = copy
      buffer = UnsafeRawBufferPointer(copy)
    }
  }

  /// The file's bytes (the buffer may be one byte longer for an empty file).
  var count: Int { buffer.count }

  deinit { copy?.deallocate() }
}

extension ImageCodec {
  /// The facts of an animated GIF or WebP (frames, delays, loop count), without decoding it.
  public static func animationInfo(
    _ data: Data, name: String, limits: AnimationLimits = .default
  ) throws(MediaError) -> AnimationInfo {
    try openAnimation(data, name: name, limits: limits).info
  }

  /// Opens a GIF or WebP for reading frame by frame (a still one is an animation of one frame).
  public static func openAnimation(
    _ data: Data, name: String, limits: AnimationLimits = .default
  ) throws(MediaError) -> AnimationDecoder {
    let format = try format(of: data, name: name)
    guard format == .gif || format == .webp else {
      throw .cannotLoad(name: displayName(name), .notAnAnimation(format: format))
    }
    do {
      try SharedLibrary.load(adapter(for: format)?.libraries ?? [])
    } catch {
      throw .cannotLoad(name: displayName(name), .libraryMissing(error))
    }
    return try AnimationDecoder(
      bytes: AnimationBytes(data, format: format), name: displayName(name), limits: limits)
  }
}
