import Foundation
import MemeCore

/// What one decoder pass produced, before orientation is applied.
struct RawDecode {
  var image: RGBAImage
  var orientation: Int
  var warnings: [String]
  var recipe: MemeRecipe?
}

extension ImageCodec {
  // MARK: - Format

  /// The format the bytes are in, judged by their content (never by a file extension): PNG, JPEG,
  /// or nil. `description(ofUnsupported:)` words the rest.
  public static func sniff(_ data: Data) -> ImageFormat? {
    let head = [UInt8](data.prefix(12))
    if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
    if head.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
    return nil
  }

  /// Names a format memesh recognises but does not read ("GIF", "WebP" …), or nil.
  static func unsupportedFormatName(_ data: Data) -> String? {
    let head = [UInt8](data.prefix(16))
    func ascii(_ range: Range<Int>) -> String? {
      guard head.count >= range.upperBound else { return nil }
      return String(bytes: head[range], encoding: .isoLatin1)
    }
    if ascii(0..<4) == "GIF8" { return "GIF" }
    if ascii(0..<2) == "BM" { return "BMP" }
    if ascii(0..<4) == "RIFF", ascii(8..<12) == "WEBP" { return "WebP" }
    if head.starts(with: [0x49, 0x49, 0x2A, 0x00]) || head.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) {
      return "TIFF"
    }
    if ascii(4..<8) == "ftyp", let brand = ascii(8..<12) {
      switch brand {
      case "heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1": return "HEIC"
      case "avif", "avis": return "AVIF"
      default: break
      }
    }
    if head.starts(with: [0x00, 0x00, 0x00, 0x0C, 0x6A, 0x50, 0x20, 0x20]) { return "JPEG 2000" }
    if head.starts(with: [0xFF, 0x0A])
      || head.starts(with: [0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20])
    {
      return "JPEG XL"
    }
    if head.starts(with: [0x00, 0x00, 0x01, 0x00]) { return "ICO" }
    if ascii(0..<4) == "8BPS" { return "PSD" }
    if ascii(0..<4) == "%PDF" { return "PDF" }
    if ascii(0..<4) == "qoif" { return "QOI" }
    return nil
  }

  /// True for a PNG whose signature was damaged (by a text-mode transfer, a flipped bit): libpng
  /// then gives the reason ("PNG file corrupted by ASCII conversion") rather than "not a PNG".
  static func looksLikeDamagedPNG(_ data: Data) -> Bool {
    let head = [UInt8](data.prefix(4))
    guard head.count == 4 else { return false }
    let letters = String(decoding: head[1..<4], as: UTF8.self).uppercased()
    return head[0] == 0x89 || letters == "PNG"
  }

  /// The first bytes of `data` as printable text, everything else escaped (`\x89PNG`).
  static func escapedStart(of data: Data) -> String {
    data.prefix(4).map { byte -> String in
      (0x20..<0x7F).contains(byte) && byte != 0x22 && byte != 0x5C
        ? String(UnicodeScalar(byte)) : String(format: "\\x%02X", byte)
    }.joined()
  }

  /// The format of `data`, or the one-line reason it cannot be loaded.
  static func format(of data: Data, name rawName: String) throws(MemeError) -> ImageFormat {
    if let format = sniff(data) { return format }
    let name = displayName(rawName)
    if data.isEmpty { throw MemeError("cannot load '\(name)': the file is empty") }
    // Only the first bytes of a signature: a file cut short, not some other format.
    let head = [UInt8](data.prefix(8))
    if head.count < 8, [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A].starts(with: head)
      || [0xFF, 0xD8, 0xFF].starts(with: head)
    {
      throw MemeError("cannot load '\(name)': the file ends early")
    }
    if looksLikeDamagedPNG(data) { return .png }
    if let other = unsupportedFormatName(data) {
      throw MemeError("cannot load '\(name)': unsupported format '\(other)'")
    }
    let start = escapedStart(of: data)
    throw MemeError("cannot load '\(name)': not a PNG or JPEG file (starts with \"\(start)\")")
  }

  // MARK: - Decoding

  /// Decodes with libpng or libjpeg; `scaleDenominator` picks a JPEG DCT reduction from the
  /// stored size (PNG ignores it); `watch` follows the decode from another thread.
  static func decodeRaw(
    _ data: Data, format: ImageFormat, name rawName: String, limits: DecodeLimits,
    scaleDenominator: (PixelSize) -> Int = { _ in 1 },
    watch: DecodeWatch? = nil
  ) throws(MemeError) -> RawDecode {
    let name = displayName(rawName)
    do {
      let handle = try DecoderHandle()
      let image = try data.withUnsafeBytes { bytes -> RGBAImage in
        try handle.open(format, bytes: bytes, limits: limits)
        if format == .jpeg {
          let denominator = scaleDenominator(handle.sourceSize)
          if denominator > 1 { try handle.scale(by: denominator) }
        }
        return try handle.read(format: format, watch: watch)
      }
      let orientation = handle.exif.map { Exif.orientation(tiff: $0) } ?? 1
      let warnings = handle.warnings.map { "'\(name)': \(userWording($0))" }
      let recipe = handle.recipeText.flatMap { MemeRecipe(encoded: $0) }
      return RawDecode(
        image: image, orientation: orientation, warnings: warnings, recipe: recipe)
    } catch let failure as MemeDecodeFailure {
      var reason = userWording(failure.reason)
      if reason == "not a PNG file" { reason += " (starts with \"\(escapedStart(of: data))\")" }
      // The shim's check_pixels wording: say how to raise the cap.
      if reason.hasPrefix("the picture is "), reason.contains("more than the limit of") {
        reason += " (\(limits.capHint))"
      }
      throw MemeError("cannot load '\(name)': \(reason)")
    } catch {
      throw MemeError("cannot load '\(name)': \(error)")
    }
  }

  /// A library message as one lowercase line without a trailing period.
  static func userWording(_ reason: String) -> String {
    var line = reason.split(whereSeparator: \.isNewline).joined(separator: " ")
    while line.hasSuffix(".") { line.removeLast() }
    guard !line.isEmpty else { return "unknown error" }
    // libpng names the chunk first: "IDAT: Too much image data" reads "IDAT: too much image data".
    let chunk = line.prefix(6)
    if chunk.count == 6, chunk.hasSuffix(": "), chunk.prefix(4).allSatisfy(\.isLetter) {
      return lowercasingFirstWord(chunk) + lowercasingFirstWord(line.dropFirst(6))
    }
    return lowercasingFirstWord(Substring(line))
  }

  /// "Not a JPEG file" as "not a JPEG file", keeping acronyms such as "IHDR" or "JPEG".
  private static func lowercasingFirstWord(_ text: Substring) -> String {
    guard let first = text.first, first.isUppercase,
      text.dropFirst().first.map({ !$0.isUppercase }) ?? true
    else { return String(text) }
    return first.lowercased() + text.dropFirst()
  }
}
