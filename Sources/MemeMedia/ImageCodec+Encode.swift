import CMemeshShim
import Foundation
import MemeCore

extension ImageCodec {
  /// How PNGs are compressed, chosen by measurement (12-MP photo-like meme, 4032×3024 RGB,
  /// median of 3, C built -O2, this 2-core machine shared with other builds):
  ///
  ///     libpng + zlib 6, adaptive filters   2863 ms  10.28 MB  (reference size)
  ///     libpng + zlib 1, Up                  307 ms  11.96 MB  (+16%, over the 15% budget)
  ///     libpng + zlib 2, Up                  356 ms  11.50 MB  (+12%)
  ///     libpng + zlib 3, Up                  589 ms  10.94 MB
  ///     libdeflate 1, Sub                    337 ms  12.75 MB
  ///     libdeflate 1, Up                     251 ms  10.94 MB  (+6%)   ← chosen
  ///     libdeflate 1, Up, filtering 2 threads 246 ms
  ///     libdeflate 1, best of Sub/Up/Paeth   704 ms  11.29 MB
  ///     libdeflate 2 / 3 / 6, Up         408 / 396 / 699 ms  10.53 / 10.36 / 9.99 MB
  ///
  /// libdeflate cannot stream through libpng, so memesh filters the rows itself (two threads)
  /// and has libpng write the signature, IHDR, iTXt, the IDAT framing and IEND.
  static let pngSettings = memesh_png_settings(use_libdeflate: 1, level: 1, filter: 2, threads: 2)

  /// Encodes a PNG with explicit compression settings (exposed for `make bench`).
  static func encodePNG(
    _ image: RGBAImage, recipe: String?, settings: memesh_png_settings
  ) throws(MemeError) -> Data {
    let keepAlpha: Int32 = image.isOpaque ? 0 : 1
    return try encoded("PNG") { out, size, message, messageSize in
      image.pixels.withUnsafeBufferPointer { pixels in
        withOptionalCString(recipe) { recipe in
          memesh_encode_png(
            pixels.baseAddress, UInt32(image.width), UInt32(image.height), keepAlpha, recipe,
            settings, out, size, message, messageSize)
        }
      }
    }
  }

  static func encodeJPEG(_ image: RGBAImage, quality: Int, recipe: String?) throws(MemeError)
    -> Data
  {
    let quality = Int32(min(100, max(1, quality)))
    return try encoded("JPEG") { out, size, message, messageSize in
      image.pixels.withUnsafeBufferPointer { pixels in
        withOptionalCString(recipe) { recipe in
          memesh_encode_jpeg(
            pixels.baseAddress, UInt32(image.width), UInt32(image.height), quality, recipe, out,
            size, message, messageSize)
        }
      }
    }
  }

  /// Runs one shim encoder and hands its malloc'd buffer to `Data` without copying.
  private static func encoded(
    _ formatName: String,
    _ body: (
      UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, UnsafeMutablePointer<Int>,
      UnsafeMutablePointer<CChar>, Int
    ) -> Int32
  ) throws(MemeError) -> Data {
    var out: UnsafeMutablePointer<UInt8>?
    var size = 0
    var message = [CChar](repeating: 0, count: 256)
    let status = message.withUnsafeMutableBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return Int32(MEMESH_ERROR) }
      return body(&out, &size, base, buffer.count)
    }
    guard status == Int32(MEMESH_OK), let out else {
      let reason = String(
        decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) },
        as: UTF8.self)
      throw MemeError("cannot encode \(formatName): \(userWording(reason))")
    }
    return Data(bytesNoCopy: out, count: size, deallocator: .free)
  }

  private static func withOptionalCString<Result>(
    _ text: String?, _ body: (UnsafePointer<CChar>?) -> Result
  ) -> Result {
    guard let text else { return body(nil) }
    return text.withCString { body($0) }
  }
}
