import CMemeshCodec
import CMemeshSplice
import Foundation
import MemeCore

/// Captions spliced into a JPEG photo's own coded data: the rows of MCUs no caption touches are
/// carried over bit for bit (no decode, no re-encode, so no generation loss), and only the rows
/// the captions' rectangles reach are decoded, drawn on and encoded again with the photo's own
/// quantization tables, sampling and Huffman tables (`CMemeshSplice`).
///
/// A photo that cannot be spliced (`Refusal`) is encoded whole, as before.
public enum JPEGSplice {
  /// Why a meme is encoded whole rather than spliced into its photo's JPEG data.
  public enum Refusal: Error, Equatable, Sendable {
    case notJPEG
    case progressive
    case arithmetic
    case cmyk
    case restartMarkers
    case unsupportedFrame
    case severalScans
    case rgbColours
    case turned(orientation: Int)
    case unalignedCrop(mcuWidth: Int, mcuHeight: Int)
    case explicitQuality
    case tables
    case damaged
    case tooLarge
    case failed(String)

    /// Why, in the words `preview --explain` uses.
    public var reason: String {
      switch self {
      case .notJPEG: "the picture is not a JPEG"
      case .progressive: "the photo is a progressive JPEG"
      case .arithmetic: "the photo uses arithmetic coding"
      case .cmyk: "the photo is CMYK"
      case .restartMarkers: "the photo has restart markers inside its rows of blocks"
      case .unsupportedFrame: "the photo is a lossless, hierarchical or 12-bit JPEG"
      case .severalScans: "the photo codes its colours in separate scans"
      case .rgbColours: "the photo is an RGB (not YCbCr) JPEG"
      case .turned(let orientation): "the photo is turned (EXIF orientation \(orientation))"
      case .unalignedCrop(let width, let height):
        "the crop's left or top edge is not on the photo's \(width)×\(height) blocks"
      case .explicitQuality: "a JPEG quality was asked for"
      case .tables: "the photo's Huffman tables lack codes the captions need"
      case .damaged: "the photo's coded data does not add up"
      case .tooLarge: "the photo is over the pixel limit"
      case .failed(let message): "splicing failed (\(message))"
      }
    }

    /// The `preview --explain` line for a JPEG share encoded whole for this reason.
    public var explanation: String { "jpeg: the whole photo is re-encoded: \(reason)" }

    init(_ code: memesh_splice_refusal, message: String = "") {
      switch code {
      case MEMESH_SPLICE_PROGRESSIVE: self = .progressive
      case MEMESH_SPLICE_ARITHMETIC: self = .arithmetic
      case MEMESH_SPLICE_CMYK: self = .cmyk
      case MEMESH_SPLICE_RESTARTS: self = .restartMarkers
      case MEMESH_SPLICE_UNSUPPORTED_FRAME: self = .unsupportedFrame
      case MEMESH_SPLICE_SEVERAL_SCANS: self = .severalScans
      case MEMESH_SPLICE_RGB_COLOURS: self = .rgbColours
      case MEMESH_SPLICE_TABLES: self = .tables
      case MEMESH_SPLICE_DAMAGED: self = .damaged
      case MEMESH_SPLICE_TOO_LARGE: self = .tooLarge
      case MEMESH_SPLICE_NOT_JPEG: self = .notJPEG
      default: self = .failed(message.isEmpty ? "out of memory" : message)
      }
    }
  }

  /// A photo that can be spliced: its size and MCU grid, and the crop resolved in it.
  public struct Plan: Sendable, Equatable {
    /// The photo's size (upright: only orientation 1 is spliced).
    public var size: PixelSize
    /// The crop in the photo.
    public var rect: PixelRect
    /// One MCU in pixels.
    public var mcuSize: PixelSize
    /// The recipe in the photo's "memesh:recipe" comment, when memesh made it.
    public var recipe: RecipeReading?
  }

  /// What a splice made and how long its parts took.
  public struct Spliced: Sendable {
    public var jpeg: Data
    /// The crop at 1/8 scale from the DC coefficients, when asked for.
    public var preview: RGBAImage?
    /// MCU rows in the meme, and how many of them were re-encoded.
    public var mcuRows: Int
    public var touchedRows: Int
    /// Milliseconds indexing the coded data, working on the touched rows, writing the rest.
    public var scanMilliseconds: Double
    public var bandMilliseconds: Double
    public var writeMilliseconds: Double
  }

  /// Whether `bytes` can be spliced with `crop`, from its headers only (no entropy decoding).
  public static func plan(_ bytes: Data, crop: Crop) -> Result<Plan, Refusal> {
    var layout = memesh_splice_layout()
    let code = bytes.withUnsafeBytes { raw in
      memesh_splice_inspect(
        raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count, &layout)
    }
    guard code == MEMESH_SPLICE_OK else { return .failure(Refusal(code)) }
    if layout.exif_size > 0 {
      let start = bytes.startIndex + layout.exif_offset
      let orientation = Exif.orientation(tiff: bytes[start..<start + layout.exif_size])
      if orientation != 1 { return .failure(.turned(orientation: orientation)) }
    }
    let size = PixelSize(width: Int(layout.width), height: Int(layout.height))
    let mcu = PixelSize(width: Int(layout.mcu_width), height: Int(layout.mcu_height))
    guard let rect = try? crop.resolved(in: size), rect.width > 0, rect.height > 0 else {
      return .failure(.unalignedCrop(mcuWidth: mcu.width, mcuHeight: mcu.height))
    }
    guard rect.x % mcu.width == 0, rect.y % mcu.height == 0 else {
      return .failure(.unalignedCrop(mcuWidth: mcu.width, mcuHeight: mcu.height))
    }
    var recipe: RecipeReading?
    if layout.recipe_size > 0 {
      let start = bytes.startIndex + layout.recipe_offset
      recipe = EmbeddedRecipe.read(
        String(decoding: bytes[start..<start + layout.recipe_size], as: UTF8.self))
    }
    return .success(Plan(size: size, rect: rect, mcuSize: mcu, recipe: recipe))
  }

  /// Splices `canvases` (laid out for `plan.rect`'s size) into `source`, with `recipe` in a
  /// comment.
  static func splice(
    _ source: Source, plan: Plan, canvases: [CaptionCanvas], recipe: String
  ) -> Result<Spliced, Refusal> {
    CaptionCanvas.withOverlay(canvases) { overlay in
      recipe.withCString { recipe in
        source.write(
          memesh_splice_request(
            crop_x: UInt32(plan.rect.x), crop_y: UInt32(plan.rect.y),
            crop_width: UInt32(plan.rect.width), crop_height: UInt32(plan.rect.height),
            overlay: overlay, recipe: recipe, max_pixels: 0))
      }
    }
  }

  /// The splice's outcome as a value (the C buffers handed over or freed).
  fileprivate static func finished(
    _ code: memesh_splice_refusal, _ result: memesh_splice_result, _ message: [CChar],
    scanMilliseconds: Double
  ) -> Result<Spliced, Refusal> {
    guard code == MEMESH_SPLICE_OK, let jpeg = result.jpeg else {
      let text = String(
        decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      return .failure(Refusal(code, message: text))
    }
    return .success(
      Spliced(
        jpeg: Data(bytesNoCopy: jpeg, count: result.jpeg_size, deallocator: .free),
        preview: nil, mcuRows: Int(result.mcu_rows), touchedRows: Int(result.touched_rows),
        scanMilliseconds: scanMilliseconds,
        bandMilliseconds: Double(result.band_ns) / 1e6,
        writeMilliseconds: Double(result.write_ns) / 1e6))
  }

}

extension JPEGSplice {
  /// Splices nothing drawn but the rows `regions` (in the crop) reach, decoded and encoded
  /// again: the splicer's every path without fonts, for the fuzzer and tests, with the crop's
  /// 1/8-scale preview (`waitForSecondThread`: see `Source.open`).
  public static func splice(
    _ bytes: Data, crop: Crop, regions: [PixelRect], maxPixels: Int,
    waitForSecondThread: Bool = false
  ) -> Result<Spliced, Refusal> {
    let plan: Plan
    switch JPEGSplice.plan(bytes, crop: crop) {
    case .success(let found): plan = found
    case .failure(let refusal): return .failure(refusal)
    }
    let source: Source
    switch Source.open(bytes, maxPixels: maxPixels, waitForSecondThread: waitForSecondThread) {
    case .success(let opened): source = opened
    case .failure(let refusal): return .failure(refusal)
    }
    let layers = regions.map { region in
      memesh_caption_layer(
        outlines: nil, outline_count: 0, fills: nil, fill_count: 0, colors: nil, color_count: 0,
        left: Int32(clamping: region.x), top: Int32(clamping: region.y),
        right: Int32(clamping: region.x + region.width),
        bottom: Int32(clamping: region.y + region.height), fill_color: 0xFFFFFF, outline_color: 0)
    }
    return layers.withUnsafeBufferPointer { layers in
      withUnsafePointer(
        to: memesh_overlay(layers: layers.baseAddress, count: UInt32(layers.count))
      ) { overlay in
        source.write(
          memesh_splice_request(
            crop_x: UInt32(plan.rect.x), crop_y: UInt32(plan.rect.y),
            crop_width: UInt32(plan.rect.width), crop_height: UInt32(plan.rect.height),
            overlay: overlay, recipe: nil, max_pixels: 0))
      }
    }.map { spliced in
      var spliced = spliced
      spliced.preview = source.preview(of: plan.rect)
      return spliced
    }
  }
}


extension JPEGSplice {
  /// A JPEG opened for splicing: its headers read and its scan indexed once (every Huffman code
  /// read, no IDCT), so `load` can prove its coded data whole and `share` can splice it without
  /// reading it again. The C side reads the photo's bytes where they are (no copy of its 4 MB
  /// scan): the source holds them, unchanged, for as long as it lives.
  final class Source: @unchecked Sendable {
    private let handle: OpaquePointer
    /// The bytes the C source reads. A `Data` of more than a few bytes keeps them in one heap
    /// buffer that stays where it is while this immutable copy lives (a change to another copy
    /// copies them first).
    private let bytes: Data
    /// Milliseconds the index took.
    let scanMilliseconds: Double

    private init(handle: OpaquePointer, bytes: Data, scan: Double) {
      self.handle = handle
      self.bytes = bytes
      self.scanMilliseconds = scan
    }

    deinit {
      memesh_splice_close(handle)
    }

    /// Reads and indexes `bytes`, or says why they cannot be spliced. `waitForSecondThread`
    /// (tests) always uses what the second indexing thread found on a large scan.
    static func open(_ bytes: Data, maxPixels: Int, waitForSecondThread: Bool = false)
      -> Result<Source, Refusal>
    {
      var handle: OpaquePointer?
      var nanoseconds: UInt64 = 0
      let code = bytes.withUnsafeBytes { raw in
        memesh_splice_open(
          raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count,
          UInt64(max(0, maxPixels)), waitForSecondThread ? 2 : 0, &handle, &nanoseconds)
      }
      guard code == MEMESH_SPLICE_OK, let handle else { return .failure(Refusal(code)) }
      return .success(Source(handle: handle, bytes: bytes, scan: Double(nanoseconds) / 1e6))
    }

    /// The first MCU the second indexing thread contributed (0: one thread indexed them all).
    var tailMCU: Int { Int(memesh_splice_tail_mcu(handle)) }

    /// `rect` of the photo at 1/8 scale (a pixel per 8×8, rounded up) from the DC coefficients
    /// the index holds: no decoding. Only reads the index, so it may be made while another
    /// thread splices. Nil for a rect outside the photo, or out of memory.
    func preview(of rect: PixelRect) -> RGBAImage? {
      guard rect.x >= 0, rect.y >= 0, rect.width > 0, rect.height > 0 else { return nil }
      let (width, height) = ((rect.width + 7) / 8, (rect.height + 7) / 8)
      var made = false
      let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { buffer, count in
        made = memesh_splice_preview(
          handle, UInt32(clamping: rect.x), UInt32(clamping: rect.y),
          UInt32(clamping: rect.width), UInt32(clamping: rect.height), buffer.baseAddress)
        count = made ? buffer.count : 0
      }
      return made ? RGBAImage(width: width, height: height, pixels: pixels) : nil
    }

    /// Splices as `request` asks (only reads the index: any thread may).
    func write(_ request: memesh_splice_request) -> Result<Spliced, Refusal> {
      var request = request
      var result = memesh_splice_result()
      var message = [CChar](repeating: 0, count: 256)
      let code = message.withUnsafeMutableBufferPointer { buffer in
        memesh_splice_write(handle, &request, &result, buffer.baseAddress, buffer.count)
      }
      return JPEGSplice.finished(code, result, message, scanMilliseconds: scanMilliseconds)
    }
  }

  /// What `load` found opening a picture last (its source, or why it cannot be spliced), by its
  /// SHA-256, for the share that usually follows.
  private static let recent = RecentSource()

  /// Keeps what opening the file whose SHA-256 is `sha256` gave, for `source(for:sha256:)`.
  static func remember(_ opened: Result<Source, Refusal>, sha256: String) {
    recent.set(opened, sha256: sha256)
  }

  /// Keeps `source` (of the file whose SHA-256 is `sha256`) for `source(for:sha256:)`.
  static func remember(_ source: Source, sha256: String) { remember(.success(source), sha256: sha256) }

  /// What `load` found for these bytes (a source, or why not), or the bytes opened now. A
  /// source is handed over, not kept: its index (about 1.2 MB for a 12-MP photo) is freed once
  /// the splice is written, before the store writes the meme; a share after a failed one indexes
  /// the photo again. A refusal stays known.
  static func source(for bytes: Data, sha256: String, maxPixels: Int) -> Result<Source, Refusal> {
    if let kept = recent.take(sha256: sha256) { return kept }
    return Source.open(bytes, maxPixels: maxPixels)
  }

  /// Why the picture whose SHA-256 is `sha256` cannot be spliced, when `load` found out.
  static func knownRefusal(sha256: String) -> Refusal? {
    if case .failure(let refusal) = recent.get(sha256: sha256) { return refusal }
    return nil
  }
}

/// One opened source (or refusal) behind a lock (a 12-MP photo's index is about 1.2 MB: only one
/// is kept).
private final class RecentSource: @unchecked Sendable {
  private let lock = NSLock()
  private var kept: (sha256: String, opened: Result<JPEGSplice.Source, JPEGSplice.Refusal>)?

  func set(_ opened: Result<JPEGSplice.Source, JPEGSplice.Refusal>, sha256: String) {
    lock.withLock { kept = (sha256, opened) }
  }

  func get(sha256: String) -> Result<JPEGSplice.Source, JPEGSplice.Refusal>? {
    lock.withLock { kept?.sha256 == sha256 ? kept?.opened : nil }
  }

  /// What `get` returns; a source is no longer kept afterwards (a refusal is).
  func take(sha256: String) -> Result<JPEGSplice.Source, JPEGSplice.Refusal>? {
    lock.withLock {
      guard let kept, kept.sha256 == sha256 else { return nil }
      if case .success = kept.opened { self.kept = nil }
      return kept.opened
    }
  }
}
