import CWebP
import Foundation
import MemeCore

/// Every frame of an animated WebP, composed on its canvas by libwebpdemux's WebPAnimDecoder
/// (blending and disposal as the format says). The frame count, durations, loop count and the
/// recipe's XMP chunk come from the demuxer first, so the limits are checked before any pixel is
/// decoded; then one frame per `next()` (libwebp keeps the canvas, memesh copies it out).
final class WebPAnimationReader: AnimationFrameReader {
  let info: AnimationInfo
  let warnings: [String] = []
  private let bytes: AnimationBytes
  private let decoder: OpaquePointer
  private let limits: DecodeLimits
  /// Time spent in `next()` so far: the time limit counts decoding, not the pauses between
  /// frames while they are played or encoded.
  private var decodeTime = Duration.zero

  init(_ bytes: AnimationBytes, limits: AnimationLimits) throws(MemeDecodeFailure) {
    self.bytes = bytes
    self.limits = limits.still
    let start = bytes.buffer.baseAddress?.assumingMemoryBound(to: UInt8.self)
    var data = WebPData(bytes: start, size: bytes.count)
    guard let demuxer = WebPDemux(&data) else {
      throw MemeDecodeFailure("the WebP is damaged (libwebp cannot read its chunks)")
    }
    defer { WebPDemuxDelete(demuxer) }
    let canvas = PixelSize(
      width: Int(WebPDemuxGetI(demuxer, WEBP_FF_CANVAS_WIDTH)),
      height: Int(WebPDemuxGetI(demuxer, WEBP_FF_CANVAS_HEIGHT)))
    let frameCount = Int(WebPDemuxGetI(demuxer, WEBP_FF_FRAME_COUNT))
    guard frameCount > 0 else { throw MemeDecodeFailure("the WebP has no image") }
    try limits.check(canvas: canvas, frames: frameCount)
    let isAnimated = WebPDemuxGetI(demuxer, WEBP_FF_FORMAT_FLAGS) & ANIMATION_FLAG.rawValue != 0
    var delays: [Int] = []
    var iterator = WebPIterator()
    if WebPDemuxGetFrame(demuxer, 1, &iterator) != 0 {
      repeat {
        delays.append(isAnimated ? Int(iterator.duration) : 0)
      } while WebPDemuxNextFrame(&iterator) != 0
      WebPDemuxReleaseIterator(&iterator)
    }
    guard delays.count == frameCount else {
      throw MemeDecodeFailure("the WebP is damaged (its frames cannot be read)")
    }
    var recipe: String?
    var chunk = WebPChunkIterator()
    if WebPDemuxGetChunk(demuxer, "XMP ", 1, &chunk) != 0 {
      if let bytes = chunk.chunk.bytes, chunk.chunk.size > 0 {
        recipe = RecipeXMP.recipe(in: Data(bytes: bytes, count: chunk.chunk.size))
      }
      WebPDemuxReleaseChunkIterator(&chunk)
    }
    info = AnimationInfo(
      format: .webp, canvas: canvas, fileDelays: delays,
      loopCount: isAnimated ? Int(WebPDemuxGetI(demuxer, WEBP_FF_LOOP_COUNT)) : nil,
      recipeText: recipe)
    var options = WebPAnimDecoderOptions()
    guard WebPAnimDecoderOptionsInit(&options) != 0 else {
      throw MemeDecodeFailure("libwebp is not the version memesh was built with")
    }
    options.color_mode = MODE_RGBA
    options.use_threads = 0
    guard let decoder = WebPAnimDecoderNew(&data, &options) else {
      throw MemeDecodeFailure("the animated WebP is damaged (libwebp cannot read its frames)")
    }
    self.decoder = decoder
  }

  deinit { WebPAnimDecoderDelete(decoder) }

  func next() throws(MemeDecodeFailure) -> RGBAImage? {
    guard WebPAnimDecoderHasMoreFrames(decoder) != 0 else { return nil }
    let started = ContinuousClock.now
    try limits.checkTime(limits.deadline - decodeTime)
    defer { decodeTime += .now - started }
    var frame: UnsafeMutablePointer<UInt8>?
    var timestamp: Int32 = 0
    guard WebPAnimDecoderGetNext(decoder, &frame, &timestamp) != 0, let frame else {
      throw MemeDecodeFailure("the frame is damaged (libwebp cannot decode it)")
    }
    let count = info.canvas.width * info.canvas.height * 4
    let pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
      if let base = buffer.baseAddress { base.update(from: frame, count: count) }
      initialized = count
    }
    return RGBAImage(width: info.canvas.width, height: info.canvas.height, pixels: pixels)
  }
}
