import Foundation
import MemeCore

/// What one decoder pass produced, before orientation is applied.
struct RawDecode {
  var image: RGBAImage
  var orientation: Int
  var warnings: [String]
  var recipe: RecipeReading?
}

extension ImageCodec {
  // MARK: - Format

  /// The format the bytes are in, judged by their content (never by a file extension): one
  /// an adapter reads, or nil. `format(of:name:)` words the rest.
  public static func sniff(_ data: Data) -> ImageFormat? {
    let head = [UInt8](data.prefix(headSize))
    return adapters.first { $0.recognises(head) }?.format
  }

  /// Names a format memesh recognises but does not read ("GIF", "WebP" …), or nil.
  static func unsupportedFormatName(_ data: Data) -> String? {
    let head = [UInt8](data.prefix(16))
    func ascii(_ range: Range<Int>) -> String? {
      guard head.count >= range.upperBound else { return nil }
      return String(bytes: head[range], encoding: .isoLatin1)
    }
    if ascii(0..<2) == "BM" { return "BMP" }
    if head.starts(with: [0x49, 0x49, 0x2A, 0x00]) || head.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) {
      return "TIFF"
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
  static func format(of data: Data, name rawName: String) throws(MediaError) -> ImageFormat {
    if let format = sniff(data) { return format }
    let name = displayName(rawName)
    if data.isEmpty { throw .cannotLoad(name: name, .emptyFile) }
    // Only the first bytes of a signature: a file cut short, not some other format.
    let head = [UInt8](data.prefix(8))
    if head.count < 8, [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A].starts(with: head)
      || [0xFF, 0xD8, 0xFF].starts(with: head)
    {
      throw .cannotLoad(name: name, .endsEarly)
    }
    if looksLikeDamagedPNG(data) { return .png }
    if let other = unsupportedFormatName(data) {
      throw .cannotLoad(name: name, .unsupportedFormat(name: other))
    }
    throw .cannotLoad(name: name, .notA(expected: readableNames, start: escapedStart(of: data)))
  }

  /// The formats memesh reads as words: "PNG, JPEG, WebP, GIF, HEIC or AVIF".
  static var readableNames: String {
    let names = readableFormats.map(\.name)
    guard names.count > 1, let last = names.last else { return names.first ?? "" }
    return names.dropLast().joined(separator: ", ") + " or " + last
  }

  // MARK: - Decoding

  /// Decodes with `format`'s adapter; `scaleDenominator` picks a reduction from the stored size
  /// for formats that decode smaller cheaply (JPEG's DCT scaling); `watch` follows the decode
  /// from another thread.
  static func decodeRaw(
    _ data: Data, format: ImageFormat, name rawName: String, limits: DecodeLimits,
    scaleDenominator: (PixelSize) -> Int = { _ in 1 },
    watch: DecodeWatch? = nil
  ) throws(MediaError) -> RawDecode {
    let name = displayName(rawName)
    guard let adapter = adapter(for: format) else {
      throw .cannotLoad(name: name, .unsupportedFormat(name: format.name))
    }
    do {
      try SharedLibrary.load(adapter.libraries)
    } catch {
      throw .cannotLoad(name: name, .libraryMissing(error))
    }
    do {
      return try data.withUnsafeBytes { bytes in
        let decoder = try adapter.open(bytes, limits: limits)
        let denominator = scaleDenominator(decoder.size)
        if denominator > 1 { try decoder.scale(by: denominator) }
        let image = try read(decoder, format: format, watch: watch)
        return RawDecode(
          image: image, orientation: decoder.orientation,
          warnings: decoder.warnings.map { "'\(name)': \(userWording($0))" },
          recipe: decoder.recipeText.flatMap(EmbeddedRecipe.read))
      }
    } catch let failure as MemeDecodeFailure {
      // libpng refuses a file whose first four bytes are not its signature's ("Not a PNG
      // file"): said as memesh says it for every format, with the bytes it found.
      if format == .png, !data.starts(with: PNGAdapter.signature.prefix(4)) {
        throw .cannotLoad(name: name, .notA(expected: "PNG", start: escapedStart(of: data)))
      }
      throw .cannotLoad(
        name: name,
        .undecodable(
          reason: userWording(failure.reason), hint: failure.exceeded.map(limits.hint(for:))))
    } catch {
      throw .cannotLoad(name: name, .undecodable(reason: "\(error)", hint: nil))
    }
  }

  /// Decodes every pixel of an opened file. `watch` is handed the pixel buffer just before the
  /// decoder writes it and then sees the rows as they are finished (`MemeRenderer.loadPicture`).
  static func read(
    _ decoder: any ImageDecoder, format: ImageFormat, watch: DecodeWatch?
  ) throws(MemeDecodeFailure) -> RGBAImage {
    let size = decoder.size
    let count = size.width * size.height * 4
    let orientation = watch == nil ? 1 : decoder.orientation
    var failure: MemeDecodeFailure?
    let pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
      initialized = 0
      guard let base = buffer.baseAddress else {
        failure = MemeDecodeFailure("the picture has no pixels")
        return
      }
      watch?.hand(
        DecodeWatch.Target(
          address: UInt(bitPattern: base), byteCount: count, size: size,
          orientation: orientation, format: format))
      do {
        try decoder.read(into: base, progress: watch?.progress)
        // Every decoder writes every byte when it succeeds; on failure nothing is kept.
        initialized = count
      } catch {
        failure = error as? MemeDecodeFailure ?? MemeDecodeFailure("\(error)")
        // A failed decode's buffer is freed on return: not while the watcher still reads it.
        watch?.waitForRelease()
      }
    }
    if let failure { throw failure }
    return RGBAImage(width: size.width, height: size.height, pixels: pixels)
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
