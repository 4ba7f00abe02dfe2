import CMemeshCodec
import Foundation
import MemeCore

/// One picture format behind `ImageCodec`: how its files are recognised, opened and decoded,
/// and, when memesh writes the format, which row encoder writes it. Adding a format is one
/// adapter in `ImageCodec.adapters`; nothing else changes.
protocol ImageAdapter: Sendable {
  var format: ImageFormat { get }

  /// Whether `head` (a file's first `ImageCodec.headSize` bytes, or all of a shorter file)
  /// starts a file in this format.
  func recognises(_ head: [UInt8]) -> Bool

  /// Reads the header of `bytes` (which stay valid while the decoder is used): size,
  /// orientation, colour profile, recipe; refuses what `limits` does not allow before any
  /// pixel memory is taken.
  func open(
    _ bytes: UnsafeRawBufferPointer, limits: DecodeLimits
  ) throws(MemeDecodeFailure) -> any ImageDecoder

  /// The C encoder that writes the format from rows (nil: memesh only reads it).
  var encoder: memesh_rows_encoder? { get }

  /// The libraries opened (`SharedLibrary.load`) before the format is read or written; none
  /// for PNG and JPEG, which every start needs anyway.
  var libraries: [SharedLibrary] { get }

  /// Whether every decoded pixel is opaque whatever the file (JPEG): nobody needs to look.
  var isAlwaysOpaque: Bool { get }

  /// Whether `ImageDecoder.scale(by:)` makes decoding cheaper (JPEG's DCT scaling), so a small
  /// copy is better decoded again than reduced from the full picture.
  var decodesSmallerCheaply: Bool { get }

  /// Whether the decoder publishes rows top-down as it finishes them, so a second thread can
  /// follow it (`MemeRenderer.loadPicture`).
  var publishesRowsInOrder: Bool { get }
}

extension ImageAdapter {
  var encoder: memesh_rows_encoder? { nil }
  var libraries: [SharedLibrary] { [] }
  var isAlwaysOpaque: Bool { false }
  var decodesSmallerCheaply: Bool { false }
  var publishesRowsInOrder: Bool { false }
}

/// One file opened by an adapter: its header is read, its pixels are not yet.
protocol ImageDecoder: AnyObject {
  /// The size `read` produces.
  var size: PixelSize { get }
  /// The EXIF orientation (1–8) still to be applied to the decoded pixels; 1 when there is none
  /// or the format applied its own transform while decoding.
  var orientation: Int { get }
  /// The embedded RGB colour profile (ICC), when there is a whole one.
  var iccProfile: Data? { get }
  /// The memesh recipe embedded in the file, as text.
  var recipeText: String? { get }
  /// Distinct non-fatal problems the library reported, in its words.
  var warnings: [String] { get }

  /// Asks for about 1/`denominator` of the size, for formats that decode smaller cheaply
  /// (JPEG's DCT scaling); others keep their size.
  func scale(by denominator: Int) throws(MemeDecodeFailure)

  /// Decodes every pixel into `pixels` (`size.width × size.height × 4` bytes, RGBA8, rows
  /// without padding), telling `progress` (when not nil) which rows are final.
  func read(
    into pixels: UnsafeMutablePointer<UInt8>, progress: OpaquePointer?
  ) throws(MemeDecodeFailure)
}

extension ImageDecoder {
  func scale(by denominator: Int) throws(MemeDecodeFailure) {}
  var warnings: [String] { [] }
}

/// A library's reason for refusing a file, before it is worded for the user (`MediaError`).
struct MemeDecodeFailure: Error {
  var reason: String
  /// The limit of `DecodeLimits` the picture met, if that is why: the message says how to
  /// change it (`DecodeLimits.hint(for:)`).
  var exceeded: DecodeLimits.Limit?
  init(_ reason: String, exceeded: DecodeLimits.Limit? = nil) {
    self.reason = reason
    self.exceeded = exceeded
  }
}

extension ImageCodec {
  /// Every format memesh reads, in the order their signatures are tried.
  static let adapters: [any ImageAdapter] = [
    PNGAdapter(), JPEGAdapter(), WebPAdapter(), GIFAdapter(), HEIFAdapter(format: .heic),
    HEIFAdapter(format: .avif),
  ]

  /// How many bytes of a file `sniff` looks at.
  public static let headSize = 16

  /// The adapter for `format`, when memesh reads it.
  static func adapter(for format: ImageFormat) -> (any ImageAdapter)? {
    adapters.first { $0.format == format }
  }

  /// The formats memesh reads, in order.
  public static var readableFormats: [ImageFormat] { adapters.map(\.format) }

  /// Whether a decoded picture in `format` is opaque without looking at it.
  static func isAlwaysOpaque(_ format: ImageFormat) -> Bool {
    adapter(for: format)?.isAlwaysOpaque ?? false
  }

  /// Whether `format`'s decoder publishes its rows in order as it finishes them.
  static func publishesRowsInOrder(_ format: ImageFormat) -> Bool {
    adapter(for: format)?.publishesRowsInOrder ?? false
  }
}

/// Shared checks every decoder makes before allocating pixels.
extension DecodeLimits {
  /// The limits a decode can meet that the user can change.
  enum Limit: Sendable {
    /// The pixel cap (`maxPixels`).
    case pixels
    /// The time limit (`maxDecodeSeconds`).
    case time
  }

  /// The failure of a decode stopped by the time limit, in the words every format uses.
  var timeLimitFailure: MemeDecodeFailure {
    MemeDecodeFailure(
      "decoding took longer than the limit of \(Self.secondsWording(maxDecodeSeconds))",
      exceeded: .time)
  }

  /// When a decode starting now must stop, for `checkTime(_:)`.
  var deadline: ContinuousClock.Instant {
    .now + .microseconds(Int64(maxDecodeSeconds * 1e6))
  }

  /// Throws the time-limit failure once `deadline` has passed: decoders that work in steps
  /// (lines, chunks, frames) call it between them.
  func checkTime(_ deadline: ContinuousClock.Instant) throws(MemeDecodeFailure) {
    guard ContinuousClock.now < deadline else { throw timeLimitFailure }
  }

  /// What a failure at `limit` adds: how to change the limit, or why the setting was not used.
  func hint(for limit: Limit) -> String {
    switch limit {
    case .pixels: return capHint
    case .time:
      let variable = DecodeLimits.secondsVariable
      guard let ignoredSecondsSetting else { return "set \(variable) to allow more" }
      let range = DecodeLimits.secondsRange
      return "\(variable)='\(ImageCodec.displayName(ignoredSecondsSetting))' was ignored: not a "
        + "number of seconds from \(range.lowerBound) to \(Int(range.upperBound))"
    }
  }

  /// "20 seconds", "0.5 seconds", "1 second".
  static func secondsWording(_ seconds: Double) -> String {
    let number =
      seconds == seconds.rounded() && seconds < 1e9
      ? String(Int(seconds)) : String(format: "%g", seconds)
    return number + (number == "1" ? " second" : " seconds")
  }

  /// Refuses `width × height` over the pixel cap, in the words every format uses.
  func check(width: Int, height: Int) throws(MemeDecodeFailure) {
    guard width > 0, height > 0 else { throw MemeDecodeFailure("the picture has no pixels") }
    let pixels = width.multipliedReportingOverflow(by: height)
    guard pixels.overflow || pixels.partialValue > maxPixels else { return }
    let whole = maxPixels % 1_000_000 == 0
    let limit = whole ? maxPixels / 1_000_000 : maxPixels
    let unit = (whole ? "megapixel" : "pixel") + (limit == 1 ? "" : "s")
    throw MemeDecodeFailure(
      "the picture is \(width)×\(height) pixels, more than the limit of \(limit) \(unit)",
      exceeded: .pixels)
  }
}
