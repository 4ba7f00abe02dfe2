import Foundation
import MemeCore

/// The few facts memesh reads from a HEIF file's boxes (ISO/IEC 14496-12 and 23008-12) itself,
/// before libheif sees it: which brand the file says it is, and how many pictures the primary
/// image is built from (a grid's tiles), which libheif 1.15's API does not tell before it
/// decodes them all. Every size and count is range-checked; a file whose boxes do not add up
/// gives nil and is left to libheif, which then says why it refuses it.
enum HEIFBoxes {
  /// Whether the file is AVIF (an AV1 brand is named) or HEIC (any other HEIF brand), by its
  /// `ftyp` box: the major brand, then the compatible ones (`ImageFormat(heifBrand:)`).
  static func isAVIF(_ data: Data) -> Bool? {
    guard let brands = brands(data) else { return nil }
    let formats = brands.compactMap(ImageFormat.init(heifBrand:))
    if formats.contains(.avif) { return true }
    return formats.isEmpty ? nil : false
  }

  /// The major brand and the compatible brands of a file that starts with an `ftyp` box (those
  /// within `data`: the first 16 bytes hold only the major brand).
  static func brands(_ data: Data) -> [String]? {
    let bytes = [UInt8](data.prefix(4096))
    guard bytes.count >= 12, String(decoding: bytes[4..<8], as: UTF8.self) == "ftyp" else {
      return nil
    }
    let size = Int(readUInt32(bytes, at: 0))
    guard size >= 16, size <= 4096 else { return nil }
    // Major brand (8..<12), minor version (12..<16), then compatible brands to the box's end.
    var found = [fourCC(bytes, at: 8)]
    var offset = 16
    while offset + 4 <= min(size, bytes.count) {
      found.append(fourCC(bytes, at: offset))
      offset += 4
    }
    return found
  }

  /// What the primary item is built from, as far as memesh checks it before libheif decodes.
  struct Layout: Equatable {
    /// `dimg` references from the primary item (a grid's tiles, an overlay's layers); 0 for a
    /// coded picture.
    var references: Int
    /// Whether the primary item is a `grid`.
    var isGrid: Bool
    /// A grid's description; nil when it is no grid or the description cannot be read.
    var grid: Grid?
    /// The `ispe` size of the first picture the primary item refers to (a grid's first tile).
    var firstTileSize: PixelSize?
    /// The item types in the file (`hvc1`, `av01`, `grid`, `Exif` …).
    var itemTypes: Set<String> = []
  }

  /// An ImageGrid description: the tiles in rows and columns, and the picture cut from them.
  struct Grid: Equatable {
    var rows: Int
    var columns: Int
    var size: PixelSize
  }

  /// The primary item's layout; nil when the boxes that say it (meta, pitm) cannot be read.
  static func layout(_ data: Data) -> Layout? {
    data.withUnsafeBytes { buffer -> Layout? in
      let bytes = buffer.bindMemory(to: UInt8.self)
      guard let meta = child("meta", in: bytes, 0..<bytes.count), meta.count >= 4 else {
        return nil
      }
      // meta is a full box: version and flags first.
      let inside = (meta.lowerBound + 4)..<meta.upperBound
      guard let primary = primaryItem(bytes, inside) else { return nil }
      var layout = Layout(references: 0, isGrid: false, grid: nil, firstTileSize: nil)
      let targets = child("iref", in: bytes, inside).flatMap {
        references("dimg", from: primary, in: bytes, $0)
      }
      layout.references = targets?.count ?? 0
      if let first = targets?.first { layout.firstTileSize = size(of: first, in: bytes, inside) }
      let types = itemTypes(in: bytes, inside)
      layout.isGrid = types[primary] == "grid"
      layout.itemTypes = Set(types.values)
      if layout.isGrid, let head = itemData(primary, in: bytes, meta: inside, prefix: 8) {
        // ImageGrid: version, flags (bit 0: 32-bit sizes), rows − 1, columns − 1, size.
        let wide = head[1] & 1 == 1
        let full = wide ? itemData(primary, in: bytes, meta: inside, prefix: 12) : head
        if let full {
          let size =
            wide
            ? PixelSize(width: Int(readUInt32(full, at: 4)), height: Int(readUInt32(full, at: 8)))
            : PixelSize(width: Int(readUInt16(full, at: 4)), height: Int(readUInt16(full, at: 6)))
          layout.grid = Grid(rows: Int(head[2]) + 1, columns: Int(head[3]) + 1, size: size)
        }
      }
      return layout
    }
  }

  /// A grid whose tiles memesh decodes one by one (`HEIFDecoder`): the tiles' item IDs in the
  /// grid's order (row by row), and a copy of the file in which they are no longer hidden.
  struct Tiles {
    var items: [UInt32]
    var file: Data
  }

  /// The primary grid's tiles, when each can be decoded on its own and put in place as it is:
  /// exactly `rows × columns` coded tiles, and no transform (irot, imir, clap) on the grid,
  /// which libheif would apply to the whole. libheif 1.15 opens only items that are not hidden
  /// (phones hide a grid's tiles), so their `hidden` flag is cleared in the copy; nothing else
  /// changes, no offset moves. Nil otherwise: the whole picture is then left to libheif.
  static func tiles(_ data: Data) -> Tiles? {
    // A copy of the bytes themselves: `data` may be the caller's file read in place.
    var file = data.withUnsafeBytes { Data($0) }
    let items = file.withUnsafeMutableBytes { buffer -> [UInt32]? in
      let bytes = UnsafeBufferPointer(buffer.bindMemory(to: UInt8.self))
      guard let meta = child("meta", in: bytes, 0..<bytes.count), meta.count >= 4 else {
        return nil
      }
      let inside = (meta.lowerBound + 4)..<meta.upperBound
      guard let primary = primaryItem(bytes, inside),
        let iref = child("iref", in: bytes, inside),
        let items = references("dimg", from: primary, in: bytes, iref), !items.isEmpty,
        let properties = properties(of: primary, in: bytes, inside),
        !properties.contains(where: { ["irot", "imir", "clap"].contains($0.type) })
      else { return nil }
      let entries = itemEntries(in: bytes, inside)
      guard entries.first(where: { $0.id == primary })?.type == "grid" else { return nil }
      let wanted = Set(items)
      for entry in entries where wanted.contains(entry.id) {
        guard ["hvc1", "av01"].contains(entry.type) else { return nil }
        buffer[entry.flagsByte] &= 0xFE
      }
      return items
    }
    return items.map { Tiles(items: $0, file: file) }
  }

  // MARK: - Boxes

  /// The payload range of the first box of `type` directly inside `range`.
  private static func child(
    _ type: String, in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>
  ) -> Range<Int>? {
    var offset = range.lowerBound
    while offset + 8 <= range.upperBound {
      var size = Int(readUInt32(bytes, at: offset))
      var header = 8
      if size == 1 {
        guard offset + 16 <= range.upperBound else { return nil }
        let large = readUInt64(bytes, at: offset + 8)
        guard large <= UInt64(range.upperBound - offset) else { return nil }
        size = Int(large)
        header = 16
      } else if size == 0 {
        size = range.upperBound - offset
      }
      guard size >= header, size <= range.upperBound - offset else { return nil }
      if fourCC(bytes, at: offset + 4) == type {
        return (offset + header)..<(offset + size)
      }
      offset += size
    }
    return nil
  }

  /// The `pitm` item ID (version 0: 16 bits, version 1: 32 bits).
  private static func primaryItem(
    _ bytes: UnsafeBufferPointer<UInt8>, _ meta: Range<Int>
  ) -> UInt32? {
    guard let pitm = child("pitm", in: bytes, meta), pitm.count >= 6 else { return nil }
    let version = bytes[pitm.lowerBound]
    if version == 0 { return UInt32(readUInt16(bytes, at: pitm.lowerBound + 4)) }
    guard pitm.count >= 8 else { return nil }
    return readUInt32(bytes, at: pitm.lowerBound + 4)
  }

  /// The `item_type` of every item in `iinf` (infe version 2: 16-bit item IDs, 3: 32-bit).
  private static func itemTypes(
    in bytes: UnsafeBufferPointer<UInt8>, _ meta: Range<Int>
  ) -> [UInt32: String] {
    var types: [UInt32: String] = [:]
    for entry in itemEntries(in: bytes, meta) { types[entry.id] = types[entry.id] ?? entry.type }
    return types
  }

  /// Every `infe` entry of `iinf` (versions 2 and 3): its item ID, `item_type`, and the offset
  /// of the byte whose lowest bit is the entry's `hidden` flag.
  private static func itemEntries(
    in bytes: UnsafeBufferPointer<UInt8>, _ meta: Range<Int>
  ) -> [(id: UInt32, type: String, flagsByte: Int)] {
    guard let iinf = child("iinf", in: bytes, meta), iinf.count >= 6 else { return [] }
    let entries = (iinf.lowerBound + (bytes[iinf.lowerBound] == 0 ? 6 : 8))..<iinf.upperBound
    var found: [(id: UInt32, type: String, flagsByte: Int)] = []
    var offset = entries.lowerBound
    while offset < entries.upperBound,
      let infe = child("infe", in: bytes, offset..<entries.upperBound)
    {
      offset = infe.upperBound
      let version = bytes[infe.lowerBound]
      guard version >= 2 else { continue }
      let idSize = version == 2 ? 2 : 4
      guard infe.count >= 4 + idSize + 2 + 4 else { continue }
      let id =
        idSize == 2
        ? UInt32(readUInt16(bytes, at: infe.lowerBound + 4))
        : readUInt32(bytes, at: infe.lowerBound + 4)
      found.append((id, fourCC(bytes, at: infe.lowerBound + 4 + idSize + 2), infe.lowerBound + 3))
    }
    return found
  }

  /// The first `prefix` bytes of `item`'s data, located by `iloc` (versions 0–2; construction
  /// method 0, offsets in the file, or 1, offsets in `idat`); nil when they are not all there.
  private static func itemData(
    _ item: UInt32, in bytes: UnsafeBufferPointer<UInt8>, meta: Range<Int>, prefix: Int
  ) -> [UInt8]? {
    guard let iloc = child("iloc", in: bytes, meta), iloc.count >= 8 else { return nil }
    let version = Int(bytes[iloc.lowerBound])
    guard version <= 2 else { return nil }
    var offset = iloc.lowerBound + 4
    func number(_ size: Int) -> Int? {
      guard [0, 2, 4, 8].contains(size), offset + size <= iloc.upperBound else { return nil }
      defer { offset += size }
      return size == 0 ? 0 : (0..<size).reduce(0) { $0 << 8 | Int(bytes[offset + $1]) }
    }
    guard let sizes = number(2) else { return nil }
    let (offsetSize, lengthSize, baseSize) = (sizes >> 12, sizes >> 8 & 15, sizes >> 4 & 15)
    let indexSize = version == 0 ? 0 : sizes & 15
    guard let count = number(version < 2 ? 2 : 4) else { return nil }
    for _ in 0..<count {
      guard let id = number(version < 2 ? 2 : 4),
        let method = version == 0 ? 0 : number(2).map({ $0 & 15 }), number(2) != nil,
        let base = number(baseSize), let extents = number(2)
      else { return nil }
      var first: (start: Int, length: Int)?
      for _ in 0..<extents {
        guard number(indexSize) != nil, let start = number(offsetSize),
          let length = number(lengthSize)
        else { return nil }
        if first == nil { first = (base + start, length) }
      }
      guard UInt32(truncatingIfNeeded: id) == item else { continue }
      guard let (start, length) = first, method <= 1, length == 0 || length >= prefix else {
        return nil
      }
      var region = 0..<bytes.count
      if method == 1 {
        guard let idat = child("idat", in: bytes, meta) else { return nil }
        region = idat
      }
      let from = region.lowerBound + start
      guard start >= 0, from >= region.lowerBound, from + prefix <= region.upperBound else {
        return nil
      }
      return Array(bytes[from..<(from + prefix)])
    }
    return nil
  }

  /// The items `item` refers to by `type` references in an `iref` payload, in order (version
  /// 0: 16-bit item IDs, version 1: 32-bit).
  private static func references(
    _ type: String, from item: UInt32, in bytes: UnsafeBufferPointer<UInt8>, _ iref: Range<Int>
  ) -> [UInt32]? {
    guard iref.count >= 4 else { return nil }
    let idSize = bytes[iref.lowerBound] == 0 ? 2 : 4
    func readID(_ offset: Int) -> UInt32 {
      idSize == 2 ? UInt32(readUInt16(bytes, at: offset)) : readUInt32(bytes, at: offset)
    }
    var targets: [UInt32] = []
    var offset = iref.lowerBound + 4
    while offset + 8 <= iref.upperBound {
      let size = Int(readUInt32(bytes, at: offset))
      guard size >= 8 + idSize + 2, size <= iref.upperBound - offset else { return nil }
      let from = readID(offset + 8)
      let count = Int(readUInt16(bytes, at: offset + 8 + idSize))
      guard 8 + idSize + 2 + count * idSize <= size else { return nil }
      if fourCC(bytes, at: offset + 4) == type, from == item {
        let first = offset + 8 + idSize + 2
        targets += (0..<count).map { readID(first + $0 * idSize) }
      }
      offset += size
    }
    return targets
  }

  /// The `ispe` size associated with `item` (ipma entries pointing into ipco).
  private static func size(
    of item: UInt32, in bytes: UnsafeBufferPointer<UInt8>, _ meta: Range<Int>
  ) -> PixelSize? {
    guard let ispe = properties(of: item, in: bytes, meta)?.first(where: { $0.type == "ispe" }),
      ispe.payload.count >= 12
    else { return nil }
    let start = ispe.payload.lowerBound + 4
    return PixelSize(
      width: Int(readUInt32(bytes, at: start)), height: Int(readUInt32(bytes, at: start + 4)))
  }

  /// The properties associated with `item` (ipma entries pointing into ipco), in their order;
  /// nil when the boxes cannot be read.
  private static func properties(
    of item: UInt32, in bytes: UnsafeBufferPointer<UInt8>, _ meta: Range<Int>
  ) -> [(type: String, payload: Range<Int>)]? {
    guard let iprp = child("iprp", in: bytes, meta), let ipco = child("ipco", in: bytes, iprp),
      let ipma = child("ipma", in: bytes, iprp), ipma.count >= 8
    else { return nil }
    let version = bytes[ipma.lowerBound]
    let wideIndex = bytes[ipma.lowerBound + 3] & 1 == 1
    let entries = Int(readUInt32(bytes, at: ipma.lowerBound + 4))
    var offset = ipma.lowerBound + 8
    for _ in 0..<entries {
      let idSize = version < 1 ? 2 : 4
      guard offset + idSize + 1 <= ipma.upperBound else { return nil }
      let id =
        idSize == 2 ? UInt32(readUInt16(bytes, at: offset)) : readUInt32(bytes, at: offset)
      let count = Int(bytes[offset + idSize])
      offset += idSize + 1
      let indexSize = wideIndex ? 2 : 1
      guard offset + count * indexSize <= ipma.upperBound else { return nil }
      defer { offset += count * indexSize }
      guard id == item else { continue }
      return (0..<count).compactMap { association in
        let at = offset + association * indexSize
        let index =
          wideIndex ? Int(readUInt16(bytes, at: at) & 0x7FFF) : Int(bytes[at] & 0x7F)
        return nthChild(index, in: bytes, ipco)
      }
    }
    return []
  }

  /// The type and payload of the `index`th box (from 1) directly inside `range`.
  private static func nthChild(
    _ index: Int, in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>
  ) -> (type: String, payload: Range<Int>)? {
    guard index >= 1 else { return nil }
    var offset = range.lowerBound
    for number in 1...index {
      guard offset + 8 <= range.upperBound else { return nil }
      let size = Int(readUInt32(bytes, at: offset))
      guard size >= 8, size <= range.upperBound - offset else { return nil }
      if number == index { return (fourCC(bytes, at: offset + 4), (offset + 8)..<(offset + size)) }
      offset += size
    }
    return nil
  }

  // MARK: - Numbers

  private static func readUInt16<Bytes: RandomAccessCollection<UInt8>>(
    _ bytes: Bytes, at offset: Int
  ) -> UInt16 where Bytes.Index == Int {
    UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
  }

  private static func readUInt32<Bytes: RandomAccessCollection<UInt8>>(
    _ bytes: Bytes, at offset: Int
  ) -> UInt32 where Bytes.Index == Int {
    UInt32(readUInt16(bytes, at: offset)) << 16 | UInt32(readUInt16(bytes, at: offset + 2))
  }

  private static func readUInt64<Bytes: RandomAccessCollection<UInt8>>(
    _ bytes: Bytes, at offset: Int
  ) -> UInt64 where Bytes.Index == Int {
    UInt64(readUInt32(bytes, at: offset)) << 32 | UInt64(readUInt32(bytes, at: offset + 4))
  }

  private static func fourCC<Bytes: RandomAccessCollection<UInt8>>(
    _ bytes: Bytes, at offset: Int
  ) -> String where Bytes.Index == Int {
    String(decoding: (offset..<offset + 4).map { bytes[$0] }, as: UTF8.self)
  }
}
