import CMemeshCodec
import Foundation
import MemeCore

/// A meme's text boxes laid out and rasterized once for an animation's frame size, each with the
/// part of the play it shows in (its `start`/`stop`): a frame only composites the canvases of
/// the boxes that show at its start.
struct AnimationCaptions: @unchecked Sendable {
  private let layers: [(box: TextBox, canvas: CaptionCanvas)]
  /// What laying out the boxes decided (lines, sizes, warnings), as a still share reports it.
  let report: CaptionReport

  init(boxes: [TextBox], font: String, size: PixelSize, renderer: CaptionRenderer) throws {
    let (layers, report) = try renderer.layers(boxes: boxes, font: font, imageSize: size)
    self.layers = layers.map { (boxes[$0.box], $0.canvas) }
    self.report = report
  }

  /// No box is drawn anywhere.
  var isEmpty: Bool { layers.isEmpty }

  /// The canvases of the boxes a frame starting at `fraction` of the play shows, in drawing
  /// order.
  func canvases(at fraction: Double) -> [CaptionCanvas] {
    layers.filter { $0.box.shows(at: fraction) }.map(\.canvas)
  }
}

/// Renders an animated meme: every frame of a GIF or WebP (or a still picture as one frame),
/// cropped, its captions composited, encoded as an animated GIF or WebP, frame by frame. The
/// captions are laid out and rasterized once; each frame only composites them. Memory holds a
/// few frames, never the whole animation.
public struct AnimationRenderer: Sendable {
  public var captions: CaptionRenderer
  /// WebP quality or lossless, effort; the recipe and colour profile to embed.
  public var settings: EncodeSettings
  public var gif: GIFOptions
  public var limits: AnimationLimits

  public init(
    catalog: FontCatalog, settings: EncodeSettings = EncodeSettings(),
    gif: GIFOptions = GIFOptions(), limits: AnimationLimits = .default
  ) {
    self.captions = CaptionRenderer(catalog: catalog)
    self.settings = settings
    self.gif = gif
    self.limits = limits
  }

  /// Renders the picture in `data` (a GIF or WebP, animated or not; any other format memesh
  /// reads as one frame) with its text `boxes` (`font` for those without their own; each on the
  /// frames within its `start`/`stop`), cropped by `crop`, as `format` (GIF or WebP).
  public func render(
    _ data: Data, name: String, boxes: [TextBox], font: String, crop: Crop = .off,
    format: ImageFormat
  ) throws -> MemeRenderer.Output {
    let source = try FrameSource(data, name: name, limits: limits)
    return try render(source, boxes: boxes, font: font, crop: crop, format: format)
  }

  /// Renders a still picture as a one-frame animation (every box drawn).
  public func render(
    still image: RGBAImage, boxes: [TextBox], font: String, crop: Crop = .off,
    format: ImageFormat
  ) throws -> MemeRenderer.Output {
    try render(.still(image), boxes: boxes, font: font, crop: crop, format: format)
  }

  private func render(
    _ source: FrameSource, boxes: [TextBox], font: String, crop: Crop,
    format: ImageFormat
  ) throws -> MemeRenderer.Output {
    guard format == .gif || format == .webp else {
      throw MediaError.notAnimatable(format: format)
    }
    let info = source.info
    let rect = try crop.resolved(in: info.canvas)
    guard rect.width > 0, rect.height > 0 else {
      throw MediaError.emptyPicture
    }
    let size = rect.size
    // Each box laid out and rasterized once, for the whole animation.
    let layers = try AnimationCaptions(boxes: boxes, font: font, size: size, renderer: captions)
    var encoder = try AnimationEncoder(
      format: format, canvas: size, info: info, settings: settings, gif: gif)
    // Two threads: this one quantizes and encodes while another decodes the next frames and
    // composites their captions, at most `FramePipe.capacity` frames ahead.
    let pipe = FramePipe()
    let work = CompositingWork(source: source, layers: layers, rect: rect, info: info)
    let stopped = DispatchSemaphore(value: 0)
    let thread = Thread {
      defer { stopped.signal() }
      do {
        try work.run(into: pipe)
        pipe.finish(nil)
      } catch {
        pipe.finish(error)
      }
    }
    thread.stackSize = 4 << 20
    thread.start()
    defer {
      pipe.cancel()
      stopped.wait()
    }
    var thumbnail: RGBAImage?
    while let item = try pipe.take() {
      if thumbnail == nil {
        thumbnail = RGBAImage(width: size.width, height: size.height, pixels: item.pixels)
      }
      try encoder.add(pixels: item.pixels, mask: item.mask, frame: item.frame)
    }
    let data = try encoder.finish()
    guard let first = thumbnail else { throw MediaError.noFrames }
    let small = ImageOps.scaled(
      first, toFit: MemeRenderer.thumbnailDimension, MemeRenderer.thumbnailDimension)
    let thumbnailData = try ImageCodec.encode(
      small, as: .png, settings: EncodeSettings(recipe: settings.recipe))
    return MemeRenderer.Output(
      data: data, format: format, size: size, thumbnail: thumbnailData,
      thumbnailSize: small.size, report: layers.report)
  }
}

/// One frame cropped and captioned, on its way from the compositing thread to the encoder.
struct ComposedFrame {
  var frame: AnimationFrame
  var pixels: [UInt8]
  /// The caption's pixels (never dithered), or nil when no caption shows on the frame.
  var mask: [UInt8]?
}

/// The compositing thread's work: each frame decoded, cropped, its text boxes drawn (those whose
/// time range holds the frame), handed to the pipe.
private final class CompositingWork: @unchecked Sendable {
  private let source: FrameSource
  private let layers: AnimationCaptions
  private let rect: PixelRect
  private let info: AnimationInfo

  /// The encoder stopped taking frames.
  struct Cancelled: Error {}

  init(
    source: FrameSource, layers: AnimationCaptions,
    rect: PixelRect, info: AnimationInfo
  ) {
    self.source = source
    self.layers = layers
    self.rect = rect
    self.info = info
  }

  func run(into pipe: FramePipe) throws {
    let size = rect.size
    let whole = rect == PixelRect(x: 0, y: 0, width: info.canvas.width, height: info.canvas.height)
    let starts = info.startFractions
    var scratch = [UInt8](repeating: 0, count: size.width * 2)
    try source.forEach { frame in
      var pixels = whole ? frame.image.pixels : ImageOps.crop(frame.image, to: rect).pixels
      let fraction = frame.index < starts.count ? starts[frame.index] : 0
      let active = layers.canvases(at: fraction)
      var mask: [UInt8]?
      if !active.isEmpty {
        var marks = [UInt8](repeating: 0, count: size.width * size.height)
        CaptionCanvas.withOverlay(active) { overlay in
          pixels.withUnsafeMutableBufferPointer { pixels in
            marks.withUnsafeMutableBufferPointer { marks in
              scratch.withUnsafeMutableBufferPointer { scratch in
                memesh_overlay_draw_marking(
                  overlay, pixels.baseAddress, UInt32(size.width), UInt32(size.height),
                  marks.baseAddress, scratch.baseAddress)
              }
            }
          }
        }
        mask = marks
      }
      var stripped = frame
      // The encoder needs the timing only; the canvas is in `pixels`.
      stripped.image = RGBAImage(width: 0, height: 0, pixels: [])
      guard pipe.put(ComposedFrame(frame: stripped, pixels: pixels, mask: mask)) else {
        throw Cancelled()
      }
    }
  }
}

/// A bounded queue of composed frames between two threads.
final class FramePipe: @unchecked Sendable {
  /// Frames composed ahead of the encoder at most (each a canvas in memory).
  static let capacity = 2
  private let condition = NSCondition()
  private var queue: [ComposedFrame] = []
  private var ended = false
  private var failure: (any Error)?
  private var cancelled = false

  /// Waits for room; false when the reader has gone.
  func put(_ frame: ComposedFrame) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    while queue.count >= FramePipe.capacity && !cancelled { condition.wait() }
    guard !cancelled else { return false }
    queue.append(frame)
    condition.broadcast()
    return true
  }

  /// No more frames: the animation ended, or `error` stopped it.
  func finish(_ error: (any Error)?) {
    condition.lock()
    ended = true
    failure = error
    condition.broadcast()
    condition.unlock()
  }

  /// The next frame; nil at the end; the writer's error if it failed.
  func take() throws -> ComposedFrame? {
    condition.lock()
    defer { condition.unlock() }
    while queue.isEmpty && !ended { condition.wait() }
    if !queue.isEmpty {
      let frame = queue.removeFirst()
      condition.broadcast()
      return frame
    }
    if let failure, !(failure is CompositingWork.Cancelled) { throw failure }
    return nil
  }

  /// The reader stops: a waiting writer returns.
  func cancel() {
    condition.lock()
    cancelled = true
    condition.broadcast()
    condition.unlock()
  }
}

/// Frames from an animation, or a still picture as one frame.
enum FrameSource {
  case animation(AnimationDecoder)
  case still(RGBAImage)

  init(_ data: Data, name: String, limits: AnimationLimits) throws {
    let format = try ImageCodec.format(of: data, name: name)
    if format == .gif || format == .webp {
      self = .animation(try ImageCodec.openAnimation(data, name: name, limits: limits))
    } else {
      self = .still(try ImageCodec.decode(data, name: name, limits: limits.still).image)
    }
  }

  var info: AnimationInfo {
    switch self {
    case .animation(let decoder): decoder.info
    case .still(let image):
      AnimationInfo(format: .png, canvas: image.size, fileDelays: [0], loopCount: nil)
    }
  }

  /// Calls `body` with each frame in order.
  func forEach(_ body: (AnimationFrame) throws -> Void) throws {
    switch self {
    case .animation(let decoder):
      while let frame = try decoder.next() { try body(frame) }
    case .still(let image):
      try body(AnimationFrame(index: 0, image: image, delay: 0, fileDelay: 0))
    }
  }
}

/// The GIF or WebP writer behind one render, with the timing and loop count carried across
/// formats.
struct AnimationEncoder {
  private enum Writer {
    case gif(GIFWriter)
    case webp(WebPAnimationWriter)
  }

  private let writer: Writer
  private let sourceFormat: ImageFormat
  /// Milliseconds of the file's delays so far, and centiseconds written (WebP → GIF rounds the
  /// running total, so the whole animation keeps its length).
  private var elapsed = 0
  private var written = 0

  init(
    format: ImageFormat, canvas: PixelSize, info: AnimationInfo, settings: EncodeSettings,
    gif: GIFOptions
  ) throws {
    sourceFormat = info.format
    let still = info.frameCount <= 1 && info.format != .gif && info.format != .webp
    // The number of plays is what survives between formats (`AnimationInfo.plays`), so a GIF
    // taken through WebP and back keeps its NETSCAPE count.
    let plays = still ? 1 : info.plays
    switch format {
    case .gif:
      // Forever is a NETSCAPE count of 0, one play a GIF without a loop block, n plays a
      // count of n - 1.
      let loop: Int?
      switch plays {
      case nil: loop = 0
      case let count? where count <= 1: loop = nil
      case let count?: loop = min(count - 1, Int(UInt16.max))
      }
      writer = .gif(
        try GIFWriter(
          canvas: canvas, loopCount: info.frameCount <= 1 ? nil : loop,
          recipe: settings.recipe?.encoded(), iccProfile: settings.iccProfile, options: gif))
    default:
      writer = .webp(
        try WebPAnimationWriter(
          canvas: canvas, loopCount: min(plays ?? 0, Int(UInt16.max)), settings: settings))
    }
  }

  mutating func add(pixels: [UInt8], mask: [UInt8]?, frame: AnimationFrame) throws {
    switch writer {
    case .gif(let writer):
      let centiseconds: Int
      if sourceFormat == .gif {
        centiseconds = frame.fileDelay / 10
      } else {
        elapsed += frame.fileDelay
        centiseconds = (elapsed + 5) / 10 - written
      }
      written += centiseconds
      try writer.add(pixels: pixels, mask: mask, centiseconds: centiseconds)
    case .webp(let writer):
      // A zero delay would merge the frame into the next; browsers show it for 100 ms.
      try writer.add(pixels: pixels, milliseconds: frame.fileDelay > 0 ? frame.fileDelay : frame.delay)
    }
  }

  func finish() throws -> Data {
    switch writer {
    case .gif(let writer): try writer.finish()
    case .webp(let writer): try writer.finish()
    }
  }
}
