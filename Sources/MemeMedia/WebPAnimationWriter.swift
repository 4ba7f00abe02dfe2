import CWebP
import Foundation
import MemeCore

/// Writes an animated WebP one frame at a time with libwebpmux's WebPAnimEncoder (which keeps
/// only the changed sub-rectangle of each frame and picks its blending), then adds the recipe as
/// an XMP chunk and the colour profile as ICCP, as a still WebP meme has them.
final class WebPAnimationWriter {
  let canvas: PixelSize
  private let encoder: OpaquePointer
  private var config = WebPConfig()
  private var timestamp = 0
  private let settings: EncodeSettings
  private(set) var frameCount = 0

  /// Starts an animation of `canvas` played `loopCount` times (0 forever), encoded as
  /// `settings` says (lossy at its quality, or lossless; its effort as libwebp's method).
  init(canvas: PixelSize, loopCount: Int, settings: EncodeSettings) throws(MediaError) {
    let limit = Int(WEBP_MAX_DIMENSION)
    guard canvas.width > 0, canvas.height > 0, canvas.width <= limit, canvas.height <= limit
    else {
      throw .tooLarge(format: .webp, size: canvas, limit: limit, animated: true)
    }
    self.canvas = canvas
    self.settings = settings
    do {
      try SharedLibrary.load([.webp, .webpMux])
    } catch {
      throw .cannotEncode(format: .webp, .libraryMissing(error))
    }
    var options = WebPAnimEncoderOptions()
    guard WebPAnimEncoderOptionsInit(&options) != 0, WebPConfigInit(&config) != 0 else {
      throw .cannotEncode(format: .webp, .versionMismatch(library: "libwebp"))
    }
    options.anim_params.loop_count = Int32(clamping: max(0, loopCount))
    options.anim_params.bgcolor = 0
    options.allow_mixed = 0
    let effort = Int32(min(6, max(0, settings.effort)))
    if settings.lossless {
      _ = WebPConfigLosslessPreset(&config, effort)
      config.exact = 1
    } else {
      config.quality = Float(min(100, max(1, settings.quality)))
      config.method = effort
    }
    config.thread_level = 1
    guard WebPValidateConfig(&config) != 0 else {
      throw .cannotEncode(format: .webp, .library(reason: "libwebp refused the settings"))
    }
    guard let encoder = WebPAnimEncoderNew(Int32(canvas.width), Int32(canvas.height), &options)
    else { throw .cannotEncode(format: .webp, .outOfMemory) }
    self.encoder = encoder
  }

  deinit { WebPAnimEncoderDelete(encoder) }

  /// Adds a frame: the whole canvas (RGBA, captions drawn), shown for `milliseconds`.
  func add(pixels: [UInt8], milliseconds: Int) throws(MediaError) {
    precondition(pixels.count == canvas.width * canvas.height * 4)
    var picture = WebPPicture()
    guard WebPPictureInit(&picture) != 0 else {
      throw .cannotEncode(format: .webp, .versionMismatch(library: "libwebp"))
    }
    picture.use_argb = 1
    picture.width = Int32(canvas.width)
    picture.height = Int32(canvas.height)
    let imported = pixels.withUnsafeBufferPointer { buffer in
      WebPPictureImportRGBA(&picture, buffer.baseAddress, Int32(canvas.width * 4))
    }
    defer { WebPPictureFree(&picture) }
    guard imported != 0 else { throw .cannotEncode(format: .webp, .outOfMemory) }
    guard WebPAnimEncoderAdd(encoder, &picture, Int32(clamping: timestamp), &config) != 0 else {
      throw .cannotEncode(format: .webp, .library(reason: errorText))
    }
    timestamp += milliseconds
    frameCount += 1
  }

  /// Ends the animation and returns the file, with the recipe and colour profile added.
  func finish() throws(MediaError) -> Data {
    guard WebPAnimEncoderAdd(encoder, nil, Int32(clamping: timestamp), nil) != 0 else {
      throw .cannotEncode(format: .webp, .library(reason: errorText))
    }
    var assembled = WebPData()
    guard WebPAnimEncoderAssemble(encoder, &assembled) != 0 else {
      throw .cannotEncode(format: .webp, .library(reason: errorText))
    }
    defer { WebPDataClear(&assembled) }
    let xmp = settings.recipe.map { RecipeXMP.packet(for: $0.encoded()) }
    let icc = settings.iccProfile
    guard xmp != nil || icc != nil else {
      return Data(bytes: assembled.bytes, count: assembled.size)
    }
    guard let mux = WebPMuxCreate(&assembled, 0) else {
      throw .cannotEncode(
        format: .webp, .library(reason: "libwebpmux cannot read the animation it made"))
    }
    defer { WebPMuxDelete(mux) }
    var status = WEBP_MUX_OK
    if let icc {
      status = icc.withUnsafeBytes { bytes in
        var chunk = WebPData(
          bytes: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), size: bytes.count)
        return WebPMuxSetChunk(mux, "ICCP", &chunk, 1)
      }
    }
    if status == WEBP_MUX_OK, let xmp {
      status = xmp.withCString { text in
        var chunk = WebPData(
          bytes: UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self), size: strlen(text))
        return WebPMuxSetChunk(mux, "XMP ", &chunk, 1)
      }
    }
    var output = WebPData()
    if status == WEBP_MUX_OK { status = WebPMuxAssemble(mux, &output) }
    defer { WebPDataClear(&output) }
    guard status == WEBP_MUX_OK, let bytes = output.bytes else {
      throw .cannotEncode(
        format: .webp, .library(reason: "libwebpmux could not add the colour profile and recipe"))
    }
    return Data(bytes: bytes, count: output.size)
  }

  private var errorText: String {
    WebPAnimEncoderGetError(encoder).map { ImageCodec.userWording(String(cString: $0)) }
      ?? "libwebp failed"
  }
}
