import CMemeshCodec
import Foundation
import MemeCore

/// PNG through libpng: the C decoder in CMemeshCodec (libpng's errors longjmp).
struct PNGAdapter: ImageAdapter {
  static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
  var format: ImageFormat { .png }
  var encoder: memesh_rows_encoder? { memesh_encode_png_rows }

  func recognises(_ head: [UInt8]) -> Bool { head.starts(with: PNGAdapter.signature) }

  func open(
    _ bytes: UnsafeRawBufferPointer, limits: DecodeLimits
  ) throws(MemeDecodeFailure) -> any ImageDecoder {
    let handle = try DecoderHandle(limits: limits)
    try handle.check(
      memesh_decoder_open_png(
        handle.pointer, handle.start(bytes), bytes.count, UInt64(max(1, limits.maxPixels))))
    return handle
  }
}

/// JPEG through libjpeg-turbo: the C decoder in CMemeshCodec (libjpeg's errors longjmp).
struct JPEGAdapter: ImageAdapter {
  var format: ImageFormat { .jpeg }
  var encoder: memesh_rows_encoder? { memesh_encode_jpeg_rows }
  var isAlwaysOpaque: Bool { true }
  var decodesSmallerCheaply: Bool { true }
  var publishesRowsInOrder: Bool { true }

  func recognises(_ head: [UInt8]) -> Bool { head.starts(with: [0xFF, 0xD8, 0xFF]) }

  func open(
    _ bytes: UnsafeRawBufferPointer, limits: DecodeLimits
  ) throws(MemeDecodeFailure) -> any ImageDecoder {
    let handle = try DecoderHandle(limits: limits)
    let scans = Int32(clamping: max(1, limits.maxJPEGScans))
    try handle.check(
      memesh_decoder_open_jpeg(
        handle.pointer, handle.start(bytes), bytes.count, UInt64(max(1, limits.maxPixels)), scans,
        1))
    return handle
  }
}

/// Owns one CMemeshCodec decoder (libpng or libjpeg state) and frees it in `deinit`.
final class DecoderHandle: ImageDecoder {
  fileprivate let pointer: OpaquePointer
  private let limits: DecodeLimits

  init(limits: DecodeLimits) throws(MemeDecodeFailure) {
    guard let pointer = memesh_decoder_new() else { throw MemeDecodeFailure("out of memory") }
    self.pointer = pointer
    self.limits = limits
  }

  deinit { memesh_decoder_free(pointer) }

  fileprivate func start(_ bytes: UnsafeRawBufferPointer) -> UnsafePointer<UInt8>? {
    bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
  }

  /// Turns a C status into a Swift error carrying the library's reason (a size over the cap and
  /// the time limit are worded by `DecodeLimits`, as for every format).
  fileprivate func check(_ status: Int32) throws(MemeDecodeFailure) {
    guard status == Int32(MEMESH_OK) else {
      if memesh_decoder_over_time(pointer) != 0 { throw limits.timeLimitFailure }
      if memesh_decoder_over_limit(pointer) != 0 {
        try limits.check(
          width: Int(memesh_decoder_source_width(pointer)),
          height: Int(memesh_decoder_source_height(pointer)))
      }
      let reason = String(cString: memesh_decoder_message(pointer))
      throw MemeDecodeFailure(reason.isEmpty ? "the decoder failed" : reason)
    }
  }

  /// Asks libjpeg for 1/`denominator` of the size (JPEG; a PNG keeps its size).
  func scale(by denominator: Int) throws(MemeDecodeFailure) {
    guard denominator > 1 else { return }
    try check(memesh_decoder_scale(pointer, Int32(clamping: denominator)))
  }

  var size: PixelSize {
    PixelSize(
      width: Int(memesh_decoder_width(pointer)), height: Int(memesh_decoder_height(pointer)))
  }

  func read(
    into pixels: UnsafeMutablePointer<UInt8>, progress: OpaquePointer?
  ) throws(MemeDecodeFailure) {
    memesh_decoder_report_progress(pointer, progress)
    memesh_decoder_limit_time(pointer, limits.maxDecodeSeconds)
    try check(memesh_decoder_read(pointer, pixels))
  }

  var warnings: [String] {
    (0..<memesh_decoder_warning_count(pointer)).map {
      String(cString: memesh_decoder_warning(pointer, $0))
    }
  }

  /// From the EXIF payload (a TIFF structure): a JPEG's APP1, a PNG's eXIf before the image data.
  var orientation: Int {
    var size = 0
    guard let bytes = memesh_decoder_exif(pointer, &size), size > 0 else { return 1 }
    return Exif.orientation(tiff: Data(bytes: bytes, count: size))
  }

  var iccProfile: Data? {
    var size = 0
    guard let bytes = memesh_decoder_icc(pointer, &size), size > 0 else { return nil }
    return Data(bytes: bytes, count: size)
  }

  var recipeText: String? {
    var size = 0
    guard let bytes = memesh_decoder_recipe(pointer, &size) else { return nil }
    return String(decoding: UnsafeBufferPointer(start: bytes, count: size), as: UTF8.self)
  }
}
