import CHeif
import Foundation
import MemeCore

/// A HEIC or AVIF picture as libheif decoded it: upright (libheif applies the file's
/// irot/imir/clap transforms; an EXIF orientation in the file is never applied again), RGBA
/// 8-bit, with the RGB colour profile the file carries.
struct HEIFPicture {
  var image: RGBAImage
  /// True for AVIF (AV1 coded), false for HEIC/HEIF (HEVC coded).
  var isAVIF: Bool
  var iccProfile: Data?
  /// Problems libheif worked around, in its words.
  var warnings: [String]
}

/// HEIC/HEIF and AVIF through libheif (libde265 decodes HEVC, libaom AV1): the primary image
/// only, decoded to RGBA.
enum HEIFCodec {
  /// True when `data` starts with an `ftyp` box naming a HEIF brand (heic, heix, hevc, heim,
  /// heis, mif1, msf1, avif, avis …).
  static func sniff(_ data: Data) -> Bool { HEIFBoxes.isAVIF(data) != nil }

  /// Decodes the primary image to upright RGBA, within `limits`.
  static func decode(_ data: Data, limits: DecodeLimits) throws(MemeDecodeFailure) -> HEIFPicture
  {
    let decoder = try HEIFDecoder(data, limits: limits)
    let count = decoder.size.width * decoder.size.height * 4
    var failure: MemeDecodeFailure?
    let pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
      guard let base = buffer.baseAddress else { return }
      do throws(MemeDecodeFailure) {
        try decoder.read(into: base, progress: nil)
        initialized = count
      } catch {
        failure = error
      }
    }
    if let failure { throw failure }
    return HEIFPicture(
      image: RGBAImage(width: decoder.size.width, height: decoder.size.height, pixels: pixels),
      isAVIF: decoder.isAVIF, iccProfile: decoder.iccProfile, warnings: decoder.warnings)
  }

  /// The pixel cap's reason in the words of CMemeshShim's check_pixels (PNG and JPEG).
  static func pixelCapReason(_ size: PixelSize, limits: DecodeLimits) -> String {
    let whole = limits.maxPixels % 1_000_000 == 0
    let limit = whole ? limits.maxPixels / 1_000_000 : limits.maxPixels
    let unit = (whole ? "megapixel" : "pixel") + (limit == 1 ? "" : "s")
    return "the picture is \(size.width)×\(size.height) pixels, more than the limit of \(limit) \(unit)"
  }
}

/// One HEIC or AVIF file opened by libheif: its boxes are read and its size checked against
/// the limits; `read` decodes the pixels.
final class HEIFDecoder {
  /// Most pictures a primary image may be built from (a grid's tiles). A 12-MP phone photo has
  /// 48 tiles of 512×512, a 200-MP one 768; libheif decodes each tile with a fresh decoder, so
  /// thousands of tiny tiles would cost time out of proportion to the pixels.
  static let maxTiles = 1024

  /// libheif's name for libaom's AV1 decoder. AVIF goes through it rather than libheif's first
  /// choice, dav1d: libheif 1.15 leaves dav1d's default logger on, which writes lines such as
  /// "Error parsing OBU data" to the terminal for a damaged file; libaom reports through
  /// libheif alone (and gives the same pixels).
  private static let aomDecoder: StaticString = "aom"

  /// True for AVIF (an AV1 brand in `ftyp`), false for HEIC/HEIF.
  let isAVIF: Bool
  /// The size after the file's transforms (irot turns it, clap cuts it): what `read` writes.
  let size: PixelSize
  /// The RGB colour profile (ICC) of the file's `colr` box.
  let iccProfile: Data?
  /// Problems libheif worked around while decoding, in its words.
  private(set) var warnings: [String] = []
  private let handle: HEIFImageHandle

  /// Reads the boxes (libheif copies the bytes) and refuses a file over `limits` or with more
  /// than `maxTiles` tiles before any pixel is decoded.
  init(_ data: Data, limits: DecodeLimits) throws(MemeDecodeFailure) {
    let tiles = HEIFBoxes.derivedPictureCount(data) ?? 0
    guard tiles <= Self.maxTiles else {
      throw MemeDecodeFailure(
        "the picture is built from \(tiles) tiles, more than the limit of \(Self.maxTiles) "
          + "(a decompression bomb?)")
    }
    handle = try HEIFFile(data).primary()
    size = handle.size
    guard size.width > 0, size.height > 0 else {
      throw MemeDecodeFailure("the picture has no pixels")
    }
    guard size.width * size.height <= limits.maxPixels else {
      throw MemeDecodeFailure(HEIFCodec.pixelCapReason(size, limits: limits))
    }
    isAVIF = HEIFBoxes.isAVIF(data) ?? false
    iccProfile = handle.rgbProfile
  }

  /// Decodes into `pixels` (`size.width × size.height × 4` bytes, RGBA8, rows without
  /// padding). libheif decodes the whole picture first, so no row is final before the end and
  /// `progress` is not told of any.
  func read(
    into pixels: UnsafeMutablePointer<UInt8>, progress: OpaquePointer?
  ) throws(MemeDecodeFailure) {
    warnings = try handle.decodeRGBA(
      into: pixels, size: size, decoder: isAVIF ? Self.aomDecoder : nil)
  }
}

// MARK: - libheif objects

/// Turns a libheif status into a Swift error carrying libheif's reason.
private func check(_ error: heif_error) throws(MemeDecodeFailure) {
  guard error.code != heif_error_Ok else { return }
  let message = error.message.map { String(cString: $0) } ?? ""
  throw MemeDecodeFailure(message.isEmpty ? "libheif could not read it" : message)
}

/// Owns a libheif context (the parsed file) and frees it in `deinit`.
private final class HEIFFile {
  let pointer: OpaquePointer

  /// Reads the file's boxes (not its pixels). libheif copies the bytes.
  init(_ data: Data) throws(MemeDecodeFailure) {
    guard let pointer = heif_context_alloc() else { throw MemeDecodeFailure("out of memory") }
    self.pointer = pointer
    let status = data.withUnsafeBytes { bytes in
      heif_context_read_from_memory(pointer, bytes.baseAddress, bytes.count, nil)
    }
    try check(status)
  }

  deinit { heif_context_free(pointer) }

  /// The image the file shows first.
  func primary() throws(MemeDecodeFailure) -> HEIFImageHandle {
    var handle: OpaquePointer?
    try check(heif_context_get_primary_image_handle(pointer, &handle))
    guard let handle else { throw MemeDecodeFailure("the file has no primary image") }
    return HEIFImageHandle(handle, file: self)
  }
}

/// Owns a libheif image handle (one image's description) and releases it in `deinit`.
private final class HEIFImageHandle {
  let pointer: OpaquePointer
  /// The context the handle belongs to, kept alive as long as the handle.
  private let file: HEIFFile

  init(_ pointer: OpaquePointer, file: HEIFFile) {
    self.pointer = pointer
    self.file = file
  }

  deinit { heif_image_handle_release(pointer) }

  /// The size after the file's transforms (irot turns it, clap cuts it).
  var size: PixelSize {
    PixelSize(
      width: Int(heif_image_handle_get_width(pointer)),
      height: Int(heif_image_handle_get_height(pointer)))
  }

  /// The ICC profile of a `colr` box, when it describes RGB (as JPEG's path keeps only those).
  var rgbProfile: Data? {
    let type = heif_image_handle_get_color_profile_type(pointer)
    guard type == heif_color_profile_type_prof || type == heif_color_profile_type_rICC else {
      return nil
    }
    let count = heif_image_handle_get_raw_color_profile_size(pointer)
    guard count >= 132, count <= 64 << 20 else { return nil }
    var profile = Data(count: count)
    let status = profile.withUnsafeMutableBytes {
      heif_image_handle_get_raw_color_profile(pointer, $0.baseAddress)
    }
    // The ICC header's data colour space (bytes 16..<20) must be RGB.
    guard status.code == heif_error_Ok, profile[16..<20] == Data("RGB ".utf8) else { return nil }
    return profile
  }

  /// Decodes to interleaved RGBA into `target` (`size`, rows without padding): 8 bits
  /// straight; deeper samples as 16-bit words, scaled to 8 bits here with rounding (libheif's
  /// own reduction drops the low bits). `decoder` names the libheif decoder plugin to use (nil:
  /// libheif's first choice). Returns libheif's warnings.
  func decodeRGBA(
    into target: UnsafeMutablePointer<UInt8>, size: PixelSize, decoder: StaticString?
  ) throws(MemeDecodeFailure) -> [String] {
    let deep = heif_image_handle_get_luma_bits_per_pixel(pointer) > 8
    guard let options = heif_decoding_options_alloc() else {
      throw MemeDecodeFailure("out of memory")
    }
    defer { heif_decoding_options_free(options) }
    if let decoder {
      options.pointee.decoder_id = UnsafeRawPointer(decoder.utf8Start)
        .assumingMemoryBound(to: CChar.self)
    }
    var decoded: OpaquePointer?
    try check(
      heif_decode_image(
        pointer, &decoded, heif_colorspace_RGB,
        deep ? heif_chroma_interleaved_RRGGBBAA_LE : heif_chroma_interleaved_RGBA, options))
    guard let decoded else { throw MemeDecodeFailure("libheif returned no picture") }
    defer { heif_image_release(decoded) }
    let width = Int(heif_image_get_width(decoded, heif_channel_interleaved))
    let height = Int(heif_image_get_height(decoded, heif_channel_interleaved))
    guard width == size.width, height == size.height else {
      throw MemeDecodeFailure(
        "the picture decodes to \(width)×\(height) pixels, not the \(size.width)×\(size.height) "
          + "its header says")
    }
    var stride: Int32 = 0
    guard let plane = heif_image_get_plane_readonly(decoded, heif_channel_interleaved, &stride),
      Int(stride) >= width * (deep ? 8 : 4)
    else { throw MemeDecodeFailure("libheif returned no pixels") }
    let bits = Int(heif_image_get_bits_per_pixel_range(decoded, heif_channel_interleaved))
    for y in 0..<height {
      let row = plane + y * Int(stride)
      let out = target + y * width * 4
      if deep {
        HEIFCodec.reduce(row, to: out, samples: width * 4, bits: bits)
      } else {
        out.update(from: row, count: width * 4)
      }
    }
    return warnings(of: decoded)
  }

  /// The decoding warnings libheif attached to a decoded image.
  private func warnings(of image: OpaquePointer) -> [String] {
    var found: [heif_error] = Array(
      repeating: heif_error(code: heif_error_Ok, subcode: heif_suberror_Unspecified, message: nil),
      count: 8)
    let count = Int(heif_image_get_decoding_warnings(image, 0, &found, Int32(found.count)))
    let messages = found.prefix(max(0, min(count, found.count))).map { warning in
      warning.message.map { String(cString: $0) } ?? "unknown warning"
    }
    var seen = Set<String>()
    return messages.filter { seen.insert($0).inserted }
  }
}

extension HEIFCodec {
  /// Scales `samples` little-endian 16-bit words holding `bits`-bit values (10 or 12) to 8
  /// bits, rounding to the nearest: 1023 → 255, 512 → 128.
  static func reduce(
    _ source: UnsafePointer<UInt8>, to target: UnsafeMutablePointer<UInt8>, samples: Int,
    bits: Int
  ) {
    let maximum = UInt32((1 << max(1, min(bits, 16))) - 1)
    for index in 0..<samples {
      let value = min(
        UInt32(source[2 * index]) | UInt32(source[2 * index + 1]) << 8, maximum)
      target[index] = UInt8((value * 255 + maximum / 2) / maximum)
    }
  }
}
