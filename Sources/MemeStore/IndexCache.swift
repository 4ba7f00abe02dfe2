import Foundation
import MemeSystem
import MemeCore

/// A derived copy of the XML index in a compact binary form, so a big store opens fast.
///
/// Decoding 10,000 records costs about 150 ms with PropertyListDecoder, XML or binary alike
/// (measured), and 75 ms as JSON; this flat format reads them in a few milliseconds, and one
/// record alone through its offset table. The XML stays the truth. The cache names the XML it was
/// made from twice:
/// - by size and a 64-bit hash of its bytes: checked whenever the XML is read;
/// - by the XML file's identity (device, inode, size, modification and change times with
///   nanoseconds), marked *trusted* only once memesh read the XML, found its hash equal, and saw
///   that the file had last changed long enough before (`OpenedFile.settled`) that any later
///   change, in place or by rename, gets another change time. A trusted identity equal to the
///   file's `lstat` lets a reader skip the XML; anything else is a full read, hashed and, on a
///   mismatch, parsed and checked. A cache that fails to decode is a miss.
enum IndexCache {
  static let magic: [UInt8] = Array("MEMESHIX".utf8)
  /// Bump when the layout changes (3: a meme's recipe is its font, crop and text boxes).
  static let formatVersion: UInt64 = 3

  /// Byte offsets of the header's words (after the 8-byte magic).
  enum Field: Int {
    case formatVersion = 0, xmlSize, xmlHash, trusted
    case identity  // `FileIdentity.wordCount` words
  }

  static func offset(of field: Field) -> Int { magic.count + 8 * field.rawValue }
  /// Where the index's own numbers start.
  static var bodyOffset: Int { offset(of: .identity) + 8 * FileIdentity.wordCount }

  /// A fast, stable (unseeded) hash of the whole XML file: FNV-1a over 8-byte words.
  static func hash(_ data: Data) -> UInt64 {
    data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> UInt64 in
      var hash: UInt64 = 0xcbf2_9ce4_8422_2325
      let prime: UInt64 = 0x100_0000_01b3
      let words = buffer.count / 8
      var offset = 0
      for _ in 0..<words {
        let word = buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        hash = (hash ^ word) &* prime
        hash ^= hash >> 29
        offset += 8
      }
      while offset < buffer.count {
        hash = (hash ^ UInt64(buffer[offset])) &* prime
        offset += 1
      }
      return hash ^ UInt64(buffer.count)
    }
  }

  /// The cache file's bytes for `index`, made from XML of `xmlSize` bytes and `xmlHash`, that was
  /// the file `identity` (`trusted` as described above).
  ///
  /// Layout after the header: version, nextID, meme count, trash count, the memes' ids, the
  /// memes' record offsets, the trash records' offsets, then the records.
  static func encode(
    _ index: StoreIndex, xmlSize: Int, xmlHash: UInt64, identity: FileIdentity?, trusted: Bool
  ) -> Data {
    var records = ByteWriter()
    var memeOffsets: [Int] = []
    var trashOffsets: [Int] = []
    for meme in index.memes {
      memeOffsets.append(records.bytes.count)
      records.append(meme)
    }
    for entry in index.trash {
      trashOffsets.append(records.bytes.count)
      records.append(entry.meme)
      records.append(entry.deleted)
    }
    var writer = ByteWriter()
    writer.bytes.append(contentsOf: magic)
    writer.append(formatVersion)
    writer.append(UInt64(xmlSize))
    writer.append(xmlHash)
    writer.append(UInt64(identity != nil && trusted ? 1 : 0))
    let words = identity?.words ?? Array(repeating: 0, count: FileIdentity.wordCount)
    for word in words { writer.append(word) }
    writer.append(index.version)
    writer.append(index.nextID)
    writer.append(index.memes.count)
    writer.append(index.trash.count)
    let recordsStart = writer.bytes.count + 8 * (2 * memeOffsets.count + trashOffsets.count)
    for meme in index.memes { writer.append(meme.id) }
    for offset in memeOffsets + trashOffsets { writer.append(recordsStart + offset) }
    writer.bytes.append(contentsOf: records.bytes)
    return Data(writer.bytes)
  }

  /// `cache` with its identity replaced by `identity`, trusted.
  static func trusting(_ cache: Data, identity: FileIdentity) -> Data {
    var bytes = [UInt8](cache)
    var position = offset(of: .trusted)
    for word in [1] + identity.words {
      withUnsafeBytes(of: word.littleEndian) { raw in
        bytes.replaceSubrange(position..<position + 8, with: raw)
      }
      position += 8
    }
    return Data(bytes)
  }

  /// Whether the cache header `header` names XML of this size and hash.
  static func describes(_ header: Data, xmlSize: Int, xmlHash: UInt64) -> Bool {
    header.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> Bool in
      var reader = ByteReader(buffer: buffer)
      return reader.take(magic.count).map(Array.init) == magic
        && reader.integer() == formatVersion && reader.integer() == UInt64(xmlSize)
        && reader.integer() == xmlHash
    }
  }

  /// The identity the cache trusts, or nil when it trusts none (or is not a cache).
  static func trustedIdentity(in cache: Data) -> FileIdentity? {
    cache.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> FileIdentity? in
      var reader = ByteReader(buffer: buffer)
      guard reader.take(magic.count).map(Array.init) == magic,
        reader.integer() == formatVersion, reader.integer() != nil, reader.integer() != nil,
        reader.integer() == 1
      else { return nil }
      var words: [UInt64] = []
      for _ in 0..<FileIdentity.wordCount {
        guard let word = reader.integer() else { return nil }
        words.append(word)
      }
      return FileIdentity(words: words)
    }
  }

  /// The index in `cache` when it was made from XML of this size and hash (nil for either: not
  /// checked, the caller compared the trusted identity); nil when it was not, or is malformed.
  /// Records are checked and decoded when asked for (`CachedIndex`).
  static func open(_ cache: Data, xmlSize: Int?, xmlHash: UInt64?) -> CachedIndex? {
    open(size: cache.count, xmlSize: xmlSize, xmlHash: xmlHash) { range in
      range.upperBound <= cache.count ? cache.subdata(in: range) : nil
    }
  }

  /// As above, reading the cache's bytes as needed through `read` (nil: past the end or failed):
  /// the header and the id and offset tables now, each record later.
  static func open(
    size: Int, xmlSize: Int?, xmlHash: UInt64?,
    read: @escaping @Sendable (Range<Int>) -> Data?
  ) -> CachedIndex? {
    let headerSize = bodyOffset + 32
    guard size >= headerSize, let header = read(0..<headerSize) else { return nil }
    let numbers = header.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> [Int]? in
      var reader = ByteReader(buffer: buffer)
      guard reader.take(magic.count).map(Array.init) == magic,
        reader.integer() == formatVersion,
        let xmlBytes = reader.integer(), xmlSize.map({ UInt64($0) == xmlBytes }) ?? true,
        let hash = reader.integer(), xmlHash.map({ $0 == hash }) ?? true,
        reader.take(8 + 8 * FileIdentity.wordCount) != nil,
        let version = reader.int(), (1...StoreIndex.currentVersion).contains(version),
        let nextID = reader.int(), (1...maximumMemeID + 1).contains(nextID),
        let memeCount = reader.int(), memeCount >= 0, memeCount <= size / 16,
        let trashCount = reader.int(), trashCount >= 0, trashCount <= size / 8
      else { return nil }
      return [version, nextID, memeCount, trashCount]
    }
    guard let numbers else { return nil }
    let (memeCount, trashCount) = (numbers[2], numbers[3])
    let tableEnd = headerSize + 8 * (2 * memeCount + trashCount)
    guard tableEnd <= size, let table = read(headerSize..<tableEnd) else { return nil }
    let tables = table.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> ([Int], [Int])? in
      var reader = ByteReader(buffer: buffer)
      var ids: [Int] = []
      ids.reserveCapacity(memeCount)
      for _ in 0..<memeCount {
        guard let id = reader.int(), id > (ids.last ?? 0), id <= maximumMemeID else { return nil }
        ids.append(id)
      }
      var offsets: [Int] = []
      offsets.reserveCapacity(memeCount + trashCount + 1)
      for _ in 0..<(memeCount + trashCount) {
        guard let offset = reader.int(), offset >= (offsets.last ?? tableEnd) else { return nil }
        offsets.append(offset)
      }
      return (ids, offsets)
    }
    guard let (ids, starts) = tables, (starts.first ?? tableEnd) == tableEnd,
      starts.last ?? 0 <= size, (ids.last ?? 0) < numbers[1]
    else { return nil }
    let offsets = starts + [size]
    return CachedIndex(
      version: numbers[0], nextID: numbers[1], ids: ids, offsets: offsets, read: read)
  }

  /// Decodes one meme record, all of `bytes` (a trashed one also has its deletion date); nil
  /// when it does not decode or holds a number memesh would not write (`StoreIndex`'s checks).
  static func record(_ bytes: Data, trashed: Bool) -> (Meme, Date?)? {
    bytes.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> (Meme, Date?)? in
      var reader = ByteReader(buffer: buffer)
      guard let meme = reader.meme(), (try? StoreIndex.checkNumbers(of: meme)) != nil else {
        return nil
      }
      var deleted: Date?
      if trashed {
        guard let date = reader.date(), (try? StoreIndex.checkDate(date, "")) != nil else {
          return nil
        }
        deleted = date
      }
      return reader.isAtEnd ? (meme, deleted) : nil
    }
  }
}

/// Little-endian fixed-width numbers and length-prefixed UTF-8 strings.
private struct ByteWriter {
  var bytes: [UInt8] = []

  mutating func append(_ value: UInt64) {
    withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
  }

  mutating func append(_ value: Int) {
    append(UInt64(bitPattern: Int64(value)))
  }

  mutating func append(_ value: Date) {
    append(value.timeIntervalSinceReferenceDate.bitPattern)
  }

  mutating func append(_ value: String) {
    let utf8 = value.utf8
    append(UInt64(utf8.count))
    bytes.append(contentsOf: utf8)
  }

  mutating func append(_ value: Double) {
    append(value.bitPattern)
  }

  mutating func append(_ recipe: MemeRecipe) {
    append(recipe.font)
    append(recipe.crop.description)
    append(recipe.boxes.count)
    for box in recipe.boxes {
      append(box.text)
      append(box.placement.description)
      append(box.alignment.rawValue)
      append(box.textCase.rawValue)
      append(box.fill.description)
      append(box.outline.description)
      append(box.font == nil ? 0 : 1)
      append(box.font ?? "")
      append(box.angle)
      append(box.start)
      append(box.stop)
    }
  }

  mutating func append(_ meme: Meme) {
    append(meme.id)
    append(meme.recipe)
    append(meme.created)
    append(meme.modified)
    append(meme.width)
    append(meme.height)
    append(meme.format.rawValue)
    append(meme.sourceName)
    append(meme.originalSHA256)
    append(meme.originalFile)
    append(meme.memeFile)
    append(meme.thumbnailFile)
  }
}

/// Reads what `ByteWriter` wrote; every read is bounds-checked and returns nil past the end.
private struct ByteReader {
  let buffer: UnsafeRawBufferPointer
  var offset = 0

  var isAtEnd: Bool { offset == buffer.count }

  mutating func take(_ count: Int) -> UnsafeRawBufferPointer? {
    guard count >= 0, count <= buffer.count - offset else { return nil }
    defer { offset += count }
    return UnsafeRawBufferPointer(rebasing: buffer[offset..<offset + count])
  }

  mutating func integer() -> UInt64? {
    guard let bytes = take(8) else { return nil }
    return UInt64(littleEndian: bytes.loadUnaligned(as: UInt64.self))
  }

  mutating func int() -> Int? {
    integer().map { Int(Int64(bitPattern: $0)) }
  }

  mutating func date() -> Date? {
    integer().map { Date(timeIntervalSinceReferenceDate: Double(bitPattern: $0)) }
  }

  mutating func string() -> String? {
    guard let length = integer(), length <= UInt64(buffer.count), let bytes = take(Int(length))
    else { return nil }
    return String(decoding: bytes, as: UTF8.self)
  }

  mutating func double() -> Double? {
    integer().map { Double(bitPattern: $0) }
  }

  /// A recipe, with the checks `MemeRecipe`'s and `TextBox`'s decoders make.
  mutating func recipe() -> MemeRecipe? {
    guard let font = string(), font.utf8.count <= MemeRecipe.maximumFontNameBytes,
      let cropText = string(), let crop = Crop(stored: cropText), crop.isWithinLimits,
      let count = int(), (0...MemeRecipe.maximumBoxes).contains(count)
    else { return nil }
    var boxes: [TextBox] = []
    for _ in 0..<count {
      guard let text = string(), text.count <= TextBox.maximumCharacters,
        let at = string(), let placement = TextPlacement(stored: at),
        let align = string(), let alignment = TextAlignment(rawValue: align),
        let caseName = string(), let textCase = TextCase(rawValue: caseName),
        let color = string(), let fill = TextColor(parsing: color),
        let outlineName = string(), let outline = TextOutline(parsing: outlineName),
        let hasFont = integer(), let boxFont = string(),
        let angle = double(), let start = double(), let stop = double()
      else { return nil }
      let box = TextBox(
        text: text, placement: placement, alignment: alignment, textCase: textCase, fill: fill,
        outline: outline, font: hasFont == 1 ? boxFont : nil, angle: angle, start: start,
        stop: stop)
      guard box.hasPossibleNumbers else { return nil }
      boxes.append(box)
    }
    return MemeRecipe(font: font, crop: crop, boxes: boxes)
  }

  mutating func meme() -> Meme? {
    guard let id = int(), let recipe = recipe(), let created = date(),
      let modified = date(), let width = int(), let height = int(),
      let formatText = string(), let format = ImageFormat(rawValue: formatText),
      let sourceName = string(), let sha = string(), let originalFile = string(),
      let memeFile = string(), let thumbnailFile = string()
    else { return nil }
    return Meme(
      id: id, recipe: recipe, created: created, modified: modified, width: width, height: height,
      format: format, sourceName: sourceName,
      originalSHA256: sha, originalFile: originalFile, memeFile: memeFile,
      thumbnailFile: thumbnailFile)
  }
}
