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

  /// How many pictures the primary item is derived from (`dimg` references from it: a grid's
  /// tiles, an overlay's layers); 0 for a coded picture; nil when the boxes cannot be read.
  static func derivedPictureCount(_ data: Data) -> Int? {
    data.withUnsafeBytes { buffer -> Int? in
      let bytes = buffer.bindMemory(to: UInt8.self)
      guard let meta = child("meta", in: bytes, 0..<bytes.count), meta.count >= 4 else {
        return nil
      }
      // meta is a full box: version and flags first.
      let inside = (meta.lowerBound + 4)..<meta.upperBound
      guard let primary = primaryItem(bytes, inside) else { return nil }
      guard let iref = child("iref", in: bytes, inside) else { return 0 }
      return references("dimg", from: primary, in: bytes, iref)
    }
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

  /// The number of `type` references from `item` in an `iref` payload (version 0: 16-bit item
  /// IDs, version 1: 32-bit).
  private static func references(
    _ type: String, from item: UInt32, in bytes: UnsafeBufferPointer<UInt8>, _ iref: Range<Int>
  ) -> Int? {
    guard iref.count >= 4 else { return nil }
    let idSize = bytes[iref.lowerBound] == 0 ? 2 : 4
    func readID(_ offset: Int) -> UInt32 {
      idSize == 2 ? UInt32(readUInt16(bytes, at: offset)) : readUInt32(bytes, at: offset)
    }
    var total = 0
    var offset = iref.lowerBound + 4
    while offset + 8 <= iref.upperBound {
      let size = Int(readUInt32(bytes, at: offset))
      guard size >= 8 + idSize + 2, size <= iref.upperBound - offset else { return nil }
      let from = readID(offset + 8)
      let count = Int(readUInt16(bytes, at: offset + 8 + idSize))
      guard 8 + idSize + 2 + count * idSize <= size else { return nil }
      if fourCC(bytes, at: offset + 4) == type, from == item { total += count }
      offset += size
    }
    return total
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
