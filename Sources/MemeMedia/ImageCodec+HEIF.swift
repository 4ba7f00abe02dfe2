import CHeif
import Dispatch
import Foundation
import MemeCore

/// HEIC/HEIF or AVIF through libheif (libde265 decodes HEVC, libaom AV1): the primary image,
/// upright (libheif applies the file's irot, imir and clap; an EXIF orientation in the file is
/// never applied again), RGBA 8-bit, with the RGB colour profile of its `colr` box. One adapter
/// per format name: the `ftyp` brands say which (an AV1 brand: AVIF).
struct HEIFAdapter: ImageAdapter {
  let format: ImageFormat
  var libraries: [SharedLibrary] { [.heif] }

  func recognises(_ head: [UInt8]) -> Bool {
    guard let isAVIF = HEIFBoxes.isAVIF(Data(head)) else { return false }
    return isAVIF == (format == .avif)
  }

  func open(
    _ bytes: UnsafeRawBufferPointer, limits: DecodeLimits
  ) throws(MemeDecodeFailure) -> any ImageDecoder {
    try HEIFDecoder(bytes, limits: limits)
  }
}

/// One HEIC or AVIF file opened by libheif: its boxes are read and its size checked against
/// the limits; `read` decodes the pixels.
final class HEIFDecoder: ImageDecoder {
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
  /// libheif has applied the file's transforms; an EXIF orientation is never applied again.
  var orientation: Int { 1 }
  /// memesh never writes HEIF, so no recipe is embedded.
  var recipeText: String? { nil }
  private let handle: HEIFImageHandle
  /// The libheif decoder plugin to use (nil: libheif's first choice).
  private let decoder: StaticString?
  /// A grid memesh decodes tile by tile (nil: libheif decodes the whole picture).
  private let grid: TileGrid?
  /// The limits `read` keeps to (the time limit; the rest are checked before).
  private let limits: DecodeLimits

  /// Whether `read` decodes a grid tile by tile (`TileGrid`) rather than in one libheif call.
  var decodesTileByTile: Bool { grid != nil }

  /// Reads the boxes of `bytes` (which stay valid while the decoder is used; libheif reads them
  /// in place) and refuses a file over `limits`, with more than `maxTiles` tiles or with a grid
  /// libheif cannot decode safely, before any pixel is decoded. `tileByTile` false leaves a
  /// grid to libheif too (the tests compare the two).
  init(
    _ bytes: UnsafeRawBufferPointer, limits: DecodeLimits, tileByTile: Bool = true
  ) throws(MemeDecodeFailure) {
    let data = bytes.baseAddress.map {
      Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: $0), count: bytes.count,
        deallocator: .none)
    } ?? Data()
    handle = try HEIFFile(bytes).primary()
    size = handle.size
    try limits.check(width: size.width, height: size.height)
    let layout = HEIFBoxes.layout(data)
    try Self.check(layout)
    isAVIF = HEIFBoxes.isAVIF(data) ?? false
    // Whatever the brands say, AV1 pictures go to libaom (see `aomDecoder`).
    decoder = layout.map { $0.itemTypes.contains("av01") } ?? isAVIF ? Self.aomDecoder : nil
    iccProfile = handle.rgbProfile
    self.limits = limits
    let primary = handle
    grid = tileByTile ? layout.flatMap { TileGrid($0, data: data, primary: primary) } : nil
  }

  /// Refuses a grid of more than `maxTiles` tiles, and one libheif 1.15 would crash on
  /// (found by `make fuzz`): a description asking for more tiles than the file names, or a
  /// picture larger than its tiles cover (libheif then reads and writes past them).
  private static func check(_ layout: HEIFBoxes.Layout?) throws(MemeDecodeFailure) {
    guard let layout else { return }
    let gridTiles = layout.grid.map { $0.rows * $0.columns } ?? 0
    let tiles = max(layout.references, gridTiles)
    guard tiles <= maxTiles else {
      throw MemeDecodeFailure(
        "the picture has \(tiles) tiles, more than the limit of \(maxTiles) "
          + "(a decompression bomb?)")
    }
    guard layout.isGrid else { return }
    guard let grid = layout.grid, let tile = layout.firstTileSize else {
      throw MemeDecodeFailure("the grid's description or its first tile's size is missing")
    }
    guard gridTiles <= layout.references else {
      throw MemeDecodeFailure(
        "the grid has \(gridTiles) tiles but the file names only \(layout.references)")
    }
    guard grid.columns * tile.width >= grid.size.width, grid.rows * tile.height >= grid.size.height
    else {
      throw MemeDecodeFailure(
        "the grid's \(grid.columns)×\(grid.rows) tiles of \(tile.width)×\(tile.height) do not "
          + "cover its \(grid.size.width)×\(grid.size.height) picture")
    }
  }

  /// Decodes into `pixels` (`size.width × size.height × 4` bytes, RGBA8, rows without
  /// padding): a grid tile by tile on two threads (`TileGrid`), checking the time limit
  /// between tiles; anything else through libheif in one call, which cannot be stopped. No
  /// row is published to `progress` before the end. What libde265 prints about a damaged
  /// stream is kept off the terminal and joins libheif's reason.
  func read(
    into pixels: UnsafeMutablePointer<UInt8>, progress: OpaquePointer?
  ) throws(MemeDecodeFailure) {
    var failure: MemeDecodeFailure?
    let printed = StandardErrorCapture.run {
      do throws(MemeDecodeFailure) {
        if let grid {
          warnings = try grid.decode(
            into: pixels, width: size.width, decoder: decoder, limits: limits)
        } else {
          warnings = try handle.decodeRGBA(
            into: pixels, size: size, rowBytes: size.width * 4, visible: size, decoder: decoder)
        }
      } catch {
        failure = error
      }
    }
    guard var failure else { return }
    if let printed, failure.exceeded == nil { failure.reason += " (the decoder said: \(printed))" }
    throw failure
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
  /// The bytes libheif reads in place, when the context owns them.
  private let kept: Data?

  /// Reads the file's boxes (not its pixels) from `bytes`, which must outlive the context.
  init(_ bytes: UnsafeRawBufferPointer) throws(MemeDecodeFailure) {
    guard let pointer = heif_context_alloc() else { throw MemeDecodeFailure("out of memory") }
    self.pointer = pointer
    kept = nil
    try check(
      heif_context_read_from_memory_without_copy(pointer, bytes.baseAddress, bytes.count, nil))
  }

  /// Reads the file's boxes from `data`, which the context keeps as long as it lives.
  init(keeping data: Data) throws(MemeDecodeFailure) {
    guard let pointer = heif_context_alloc() else { throw MemeDecodeFailure("out of memory") }
    self.pointer = pointer
    kept = data
    let status = data.withUnsafeBytes {
      // `kept` holds the storage, so the address stays valid while the context reads it.
      heif_context_read_from_memory_without_copy(pointer, $0.baseAddress, $0.count, nil)
    }
    try check(status)
  }

  /// The image `item`, when libheif opens it (items hidden in the file it does not).
  func image(_ item: UInt32) -> HEIFImageHandle? {
    var handle: OpaquePointer?
    guard heif_context_get_image_handle(pointer, item, &handle).code == heif_error_Ok,
      let handle
    else { return nil }
    return HEIFImageHandle(handle, file: self)
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

  /// Whether the image has an alpha channel (in a grid: an alpha grid of its own).
  var hasAlpha: Bool { heif_image_handle_has_alpha_channel(pointer) != 0 }

  /// Decodes to interleaved RGBA: the picture must be `size`; its top-left `visible` part goes
  /// to `target`, whose rows are `rowBytes` apart. 8 bits straight; deeper samples as 16-bit
  /// words, scaled to 8 bits here with rounding (libheif's own reduction drops the low bits).
  /// `decoder` names the libheif decoder plugin to use (nil: libheif's first choice). Returns
  /// libheif's warnings.
  func decodeRGBA(
    into target: UnsafeMutablePointer<UInt8>, size: PixelSize, rowBytes: Int,
    visible: PixelSize, decoder: StaticString?
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
    let samples = min(visible.width, width) * 4
    for y in 0..<min(visible.height, height) {
      let row = plane + y * Int(stride)
      let out = target + y * rowBytes
      if deep {
        HEIFDecoder.reduce(row, to: out, samples: samples, bits: bits)
      } else {
        out.update(from: row, count: samples)
      }
    }
    return warnings(of: decoded)
  }

  /// The last decoding warning libheif attached to a decoded image. libheif 1.15 writes every
  /// warning from `first_warning_idx` on, whatever the buffer's size, and all their messages
  /// share one string that each entry overwrites: only the last entry's message is valid (the
  /// others pointed at freed memory; found by `make fuzz`). Asking from the last index writes
  /// that one entry alone.
  private func warnings(of image: OpaquePointer) -> [String] {
    let count = heif_image_get_decoding_warnings(image, 0, nil, 0)
    guard count > 0 else { return [] }
    var last = heif_error(code: heif_error_Ok, subcode: heif_suberror_Unspecified, message: nil)
    guard heif_image_get_decoding_warnings(image, count - 1, &last, 1) == 1 else { return [] }
    return [last.message.map { String(cString: $0) } ?? "unknown warning"]
  }
}

// MARK: - Grids tile by tile

/// A grid decoded one tile at a time, as phones write their photos (a 12-MP photo: 48 tiles of
/// 512×512). libheif 1.15 decodes a grid in batches of four tiles, waiting for the slowest of
/// each, puts the tiles into one YCbCr picture and then converts all of it on one thread into
/// a second, RGBA picture, which is copied again into memesh's: here two threads take the next
/// tile each as soon as they are free, libheif converts each tile on the thread that decoded
/// it, and the tile goes straight into place. The pixels are the same (the conversion works
/// within each tile's whole chroma samples). Between tiles the time limit is checked, which
/// libheif's single call cannot do.
private final class TileGrid: @unchecked Sendable {
  /// The tiles in the grid's order, row by row; opened from a copy of the file in which they
  /// are not hidden (`HEIFBoxes.tiles`).
  let tiles: [HEIFImageHandle]
  let columns: Int
  let tileSize: PixelSize
  let pictureSize: PixelSize

  /// Nil unless every tile opens on its own at the size of the first one and the tiles cover
  /// the picture (grids with transforms or alpha, and anything odd, are left to libheif).
  init?(_ layout: HEIFBoxes.Layout, data: Data, primary: HEIFImageHandle) {
    guard layout.isGrid, let grid = layout.grid, let tileSize = layout.firstTileSize,
      tileSize.width > 0, tileSize.height > 0, grid.size == primary.size, !primary.hasAlpha,
      grid.columns * tileSize.width >= grid.size.width,
      grid.rows * tileSize.height >= grid.size.height,
      // No tile larger than the grid needs: the pixel cap saw the grid's size, not the tiles'.
      (grid.columns - 1) * tileSize.width < grid.size.width,
      (grid.rows - 1) * tileSize.height < grid.size.height,
      let found = HEIFBoxes.tiles(data), found.items.count == grid.rows * grid.columns,
      let file = try? HEIFFile(keeping: found.file)
    else { return nil }
    var tiles: [HEIFImageHandle] = []
    for item in found.items {
      guard let tile = file.image(item), tile.size == tileSize, !tile.hasAlpha else { return nil }
      tiles.append(tile)
    }
    self.tiles = tiles
    columns = grid.columns
    self.tileSize = tileSize
    pictureSize = grid.size
  }

  /// Decodes every tile into its place in `pixels` (rows `width × 4` bytes apart) on two
  /// threads; stops at the first failure, or when the time limit of `limits` has passed.
  /// Returns the tiles' distinct warnings.
  func decode(
    into pixels: UnsafeMutablePointer<UInt8>, width: Int, decoder: StaticString?,
    limits: DecodeLimits
  ) throws(MemeDecodeFailure) -> [String] {
    let deadline = limits.deadline
    let work = TileWork(count: tiles.count)
    let target = UInt(bitPattern: pixels)
    DispatchQueue.concurrentPerform(iterations: 2) { _ in
      while let index = work.take() {
        guard ContinuousClock.now < deadline else {
          work.fail(limits.timeLimitFailure)
          return
        }
        let x = index % columns * tileSize.width
        let y = index / columns * tileSize.height
        let visible = PixelSize(
          width: min(tileSize.width, pictureSize.width - x),
          height: min(tileSize.height, pictureSize.height - y))
        guard visible.width > 0, visible.height > 0,
          let base = UnsafeMutablePointer<UInt8>(bitPattern: target)
        else { continue }
        do throws(MemeDecodeFailure) {
          work.add(
            try tiles[index].decodeRGBA(
              into: base + (y * width + x) * 4, size: tileSize, rowBytes: width * 4,
              visible: visible, decoder: decoder))
        } catch {
          work.fail(error)
        }
      }
    }
    if let failure = work.failure { throw failure }
    return work.warnings
  }
}

/// The tiles two threads share out: the next one to take, the first failure, the warnings.
private final class TileWork: @unchecked Sendable {
  private let lock = NSLock()
  private let count: Int
  private var next = 0
  private var firstFailure: MemeDecodeFailure?
  private var said: [String] = []

  init(count: Int) { self.count = count }

  /// The next tile to decode; nil when every tile is taken or one has failed.
  func take() -> Int? {
    lock.withLock {
      guard firstFailure == nil, next < count else { return nil }
      next += 1
      return next - 1
    }
  }

  /// Keeps the first failure; the threads stop at their next `take`.
  func fail(_ failure: MemeDecodeFailure) {
    lock.withLock { firstFailure = firstFailure ?? failure }
  }

  /// Adds a tile's warnings that are not yet known.
  func add(_ warnings: [String]) {
    lock.withLock { said += warnings.filter { !said.contains($0) } }
  }

  var failure: MemeDecodeFailure? { lock.withLock { firstFailure } }
  var warnings: [String] { lock.withLock { said } }
}

extension HEIFDecoder {
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
