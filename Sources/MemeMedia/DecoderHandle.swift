import CMemeshShim
import Foundation
import MemeCore

/// Owns one CMemeshShim decoder (libpng or libjpeg state) and frees it in `deinit`.
final class DecoderHandle {
  private let pointer: OpaquePointer

  init() throws(MemeDecodeFailure) {
    guard let pointer = memesh_decoder_new() else { throw MemeDecodeFailure("out of memory") }
    self.pointer = pointer
  }

  deinit { memesh_decoder_free(pointer) }

  /// Turns a shim status into a Swift error carrying the library's reason.
  private func check(_ status: Int32) throws(MemeDecodeFailure) {
    guard status == Int32(MEMESH_OK) else {
      let reason = String(cString: memesh_decoder_message(pointer))
      throw MemeDecodeFailure(reason.isEmpty ? "the decoder failed" : reason)
    }
  }

  /// Reads the header; `bytes` must stay valid until `read()` returns.
  func open(
    _ format: ImageFormat, bytes: UnsafeRawBufferPointer, limits: DecodeLimits
  ) throws(MemeDecodeFailure) {
    let start = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
    let maxPixels = UInt64(max(1, limits.maxPixels))
    switch format {
    case .png:
      try check(memesh_decoder_open_png(pointer, start, bytes.count, maxPixels))
    case .jpeg:
      let scans = Int32(clamping: max(1, limits.maxJPEGScans))
      try check(memesh_decoder_open_jpeg(pointer, start, bytes.count, maxPixels, scans, 1))
    }
  }

  /// Asks libjpeg for 1/`denominator` of the size (JPEG only).
  func scale(by denominator: Int) throws(MemeDecodeFailure) {
    try check(memesh_decoder_scale_jpeg(pointer, Int32(clamping: denominator)))
  }

  /// The stored size, before any DCT scaling.
  var sourceSize: PixelSize {
    PixelSize(
      width: Int(memesh_decoder_source_width(pointer)),
      height: Int(memesh_decoder_source_height(pointer)))
  }

  /// The size `read()` produces.
  var outputSize: PixelSize {
    PixelSize(
      width: Int(memesh_decoder_width(pointer)), height: Int(memesh_decoder_height(pointer)))
  }

  /// Decodes every pixel. `watch` is handed the pixel buffer just before the decoder writes it
  /// and then sees the rows as they are finished (`MemeRenderer.loadPicture`).
  func read(format: ImageFormat, watch: DecodeWatch? = nil) throws(MemeDecodeFailure)
    -> RGBAImage
  {
    let size = outputSize
    let count = size.width * size.height * 4
    var status = Int32(MEMESH_OK)
    let orientation = watch == nil ? 1 : exif.map { Exif.orientation(tiff: $0) } ?? 1
    let pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
      if let watch, let base = buffer.baseAddress {
        memesh_decoder_report_progress(pointer, watch.progress)
        watch.hand(
          DecodeWatch.Target(
            address: UInt(bitPattern: base), byteCount: count, size: size,
            orientation: orientation, format: format))
      }
      status = memesh_decoder_read(pointer, buffer.baseAddress)
      // A failed decode's buffer is freed on return: not while the watcher still reads it.
      if status != Int32(MEMESH_OK), let watch, buffer.baseAddress != nil {
        watch.waitForRelease()
      }
      // libpng and libjpeg write every byte when they succeed; on failure nothing is kept.
      initialized = status == Int32(MEMESH_OK) ? count : 0
    }
    try check(status)
    return RGBAImage(width: size.width, height: size.height, pixels: pixels)
  }

  /// Distinct warnings the library gave, in order.
  var warnings: [String] {
    (0..<memesh_decoder_warning_count(pointer)).map {
      String(cString: memesh_decoder_warning(pointer, $0))
    }
  }

  /// The EXIF payload (a TIFF structure): a JPEG's APP1, a PNG's eXIf before the image data.
  var exif: Data? {
    var size = 0
    guard let bytes = memesh_decoder_exif(pointer, &size), size > 0 else { return nil }
    return Data(bytes: bytes, count: size)
  }

  /// The embedded RGB colour profile (ICC), when there is a whole one.
  var iccProfile: Data? {
    var size = 0
    guard let bytes = memesh_decoder_icc(pointer, &size), size > 0 else { return nil }
    return Data(bytes: bytes, count: size)
  }

  /// The embedded recipe text, when there is one.
  var recipeText: String? {
    var size = 0
    guard let bytes = memesh_decoder_recipe(pointer, &size) else { return nil }
    return String(decoding: UnsafeBufferPointer(start: bytes, count: size), as: UTF8.self)
  }
}

/// A library's reason for refusing a file, before it is worded for the user.
struct MemeDecodeFailure: Error {
  var reason: String
  init(_ reason: String) { self.reason = reason }
}
