import CMemeshCodec
import CWebP
import Foundation
import MemeCore

/// WebP through libwebp: lossy, lossless and alpha; the first frame of an animation (composed
/// on its canvas by libwebp's animation decoder); the ICCP, EXIF and XMP chunks through
/// libwebpdemux. libwebp reports every failure as a status code, so it is called from Swift.
struct WebPAdapter: ImageAdapter {
  var format: ImageFormat { .webp }
  var encoder: memesh_rows_encoder? { memesh_encode_webp_rows }
  var libraries: [SharedLibrary] { [.webp, .webpDemux, .webpMux] }

  func recognises(_ head: [UInt8]) -> Bool {
    head.count >= 12 && head.starts(with: Array("RIFF".utf8))
      && head[8..<12].elementsEqual("WEBP".utf8)
  }

  func open(
    _ bytes: UnsafeRawBufferPointer, limits: DecodeLimits
  ) throws(MemeDecodeFailure) -> any ImageDecoder {
    try WebPFile(bytes, limits: limits)
  }
}

/// One WebP file: its features and chunks read, its pixels decoded on `read`.
final class WebPFile: ImageDecoder {
  private let bytes: UnsafeRawBufferPointer
  private let features: WebPBitstreamFeatures
  private let limits: DecodeLimits
  let size: PixelSize
  private(set) var orientation = 1
  private(set) var iccProfile: Data?
  private(set) var recipeText: String?

  init(_ bytes: UnsafeRawBufferPointer, limits: DecodeLimits) throws(MemeDecodeFailure) {
    self.bytes = bytes
    self.limits = limits
    var features = WebPBitstreamFeatures()
    let start = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
    let status = WebPGetFeatures(start, bytes.count, &features)
    guard status == VP8_STATUS_OK else { throw WebPFile.failure(status) }
    self.features = features
    // The canvas, for an animation: what the first frame is composed on.
    try limits.check(width: Int(features.width), height: Int(features.height))
    size = PixelSize(width: Int(features.width), height: Int(features.height))
    var data = WebPData(bytes: start, size: bytes.count)
    // A file the demuxer cannot parse (cut short) has no chunks to offer; the decoder says why.
    guard let demuxer = WebPDemux(&data) else { return }
    defer { WebPDemuxDelete(demuxer) }
    if let icc = WebPFile.chunk("ICCP", in: demuxer), WebPFile.isRGBProfile(icc) {
      iccProfile = icc
    }
    if var exif = WebPFile.chunk("EXIF", in: demuxer) {
      // Some writers keep the JPEG APP1 prefix.
      if exif.starts(with: Array("Exif\0\0".utf8)) { exif = exif.dropFirst(6) }
      orientation = Exif.orientation(tiff: Data(exif))
    }
    if let xmp = WebPFile.chunk("XMP ", in: demuxer) { recipeText = RecipeXMP.recipe(in: xmp) }
  }

  func read(
    into pixels: UnsafeMutablePointer<UInt8>, progress: OpaquePointer?
  ) throws(MemeDecodeFailure) {
    let count = size.width * size.height * 4
    if features.has_animation != 0 {
      try readFirstFrame(into: pixels, count: count)
      return
    }
    var config = WebPDecoderConfig()
    guard WebPInitDecoderConfig(&config) != 0 else {
      throw MemeDecodeFailure("libwebp is not the version memesh was built with")
    }
    config.output.colorspace = MODE_RGBA
    config.output.is_external_memory = 1
    config.output.u.RGBA.rgba = pixels
    config.output.u.RGBA.stride = Int32(size.width * 4)
    config.output.u.RGBA.size = count
    defer { WebPFreeDecBuffer(&config.output) }
    guard let decoder = WebPINewDecoder(&config.output) else {
      throw MemeDecodeFailure("out of memory")
    }
    defer { WebPIDelete(decoder) }
    try decodeInChunks(decoder)
  }

  /// How much more of the file libwebp's incremental decoder is given at a time.
  private static let chunkSize = 64 << 10

  /// Hands the file to libwebp's incremental decoder a chunk at a time (it reads them in place),
  /// checking the time limit between chunks; the pixels are those of a decode in one call.
  private func decodeInChunks(_ decoder: OpaquePointer) throws(MemeDecodeFailure) {
    let start = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
    let deadline = limits.deadline
    var given = 0
    while true {
      try limits.checkTime(deadline)
      given = min(bytes.count, given + WebPFile.chunkSize)
      let status = WebPIUpdate(decoder, start, given)
      if status == VP8_STATUS_OK { return }
      // Waiting for more data once it has all: the file ends early.
      guard status == VP8_STATUS_SUSPENDED, given < bytes.count else {
        throw WebPFile.failure(status == VP8_STATUS_SUSPENDED ? VP8_STATUS_NOT_ENOUGH_DATA : status)
      }
    }
  }

  /// The first frame of an animation, composed on the canvas as a browser shows it.
  private func readFirstFrame(
    into pixels: UnsafeMutablePointer<UInt8>, count: Int
  ) throws(MemeDecodeFailure) {
    var options = WebPAnimDecoderOptions()
    guard WebPAnimDecoderOptionsInit(&options) != 0 else {
      throw MemeDecodeFailure("libwebp is not the version memesh was built with")
    }
    options.color_mode = MODE_RGBA
    options.use_threads = 0
    var data = WebPData(
      bytes: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), size: bytes.count)
    guard let decoder = WebPAnimDecoderNew(&data, &options) else {
      throw MemeDecodeFailure("the animated WebP is damaged (libwebp cannot read its frames)")
    }
    defer { WebPAnimDecoderDelete(decoder) }
    var info = WebPAnimInfo()
    guard WebPAnimDecoderGetInfo(decoder, &info) != 0,
      Int(info.canvas_width) == size.width, Int(info.canvas_height) == size.height
    else { throw MemeDecodeFailure("the animated WebP's canvas does not match its header") }
    var frame: UnsafeMutablePointer<UInt8>?
    var timestamp: Int32 = 0
    guard WebPAnimDecoderGetNext(decoder, &frame, &timestamp) != 0, let frame else {
      throw MemeDecodeFailure("the first frame of the animated WebP is damaged")
    }
    pixels.update(from: frame, count: count)
  }

  /// The payload of the first chunk `fourCC`, or nil.
  private static func chunk(_ fourCC: String, in demuxer: OpaquePointer) -> Data? {
    var iterator = WebPChunkIterator()
    guard WebPDemuxGetChunk(demuxer, fourCC, 1, &iterator) != 0 else { return nil }
    defer { WebPDemuxReleaseChunkIterator(&iterator) }
    guard let start = iterator.chunk.bytes, iterator.chunk.size > 0 else { return nil }
    return Data(bytes: start, count: iterator.chunk.size)
  }

  private static func isRGBProfile(_ icc: Data) -> Bool {
    icc.withUnsafeBytes { bytes in
      memesh_icc_is_rgb(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count) == 1
    }
  }

  /// libwebp's status as a reason.
  private static func failure(_ status: VP8StatusCode) -> MemeDecodeFailure {
    let reason =
      switch status {
      case VP8_STATUS_OUT_OF_MEMORY: "out of memory"
      case VP8_STATUS_NOT_ENOUGH_DATA: "the file ends early"
      case VP8_STATUS_BITSTREAM_ERROR: "the WebP data is damaged (libwebp: bitstream error)"
      case VP8_STATUS_UNSUPPORTED_FEATURE: "libwebp does not support a feature this WebP uses"
      default: "libwebp could not decode it (status \(status.rawValue))"
      }
    return MemeDecodeFailure(reason)
  }
}
