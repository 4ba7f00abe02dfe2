import Foundation
import MemeSystem
import MemeCore

/// The store's index as saved in `index.plist` (XML): every meme, the trash, and the id counter.
struct StoreIndex: Equatable, Sendable {
  /// The schema this memesh writes; a newer one is refused (read-only), never overwritten.
  /// Version 2 keeps each meme's recipe as text boxes (`MemeRecipe`); version 1 had a top and a
  /// bottom caption, read as boxes 1 and 2. A version-1 index is kept beside the first version-2
  /// one written over it (`MemeStore.keepOlderIndex`).
  static let currentVersion = 2

  var version: Int = StoreIndex.currentVersion
  /// The next id to hand out; only grows, also across deletes.
  var nextID: Int = 1
  /// Memes by ascending id (oldest first).
  var memes: [Meme] = []
  /// Deleted memes, oldest deletion first; their files are under `trash/<id>/`.
  var trash: [TrashedMeme] = []
}

/// A deleted meme kept for `undoDelete`.
struct TrashedMeme: Codable, Equatable, Sendable {
  var meme: Meme
  var deleted: Date
}

/// The index is newer than this memesh can read.
struct NewerIndexVersion: Error {
  var version: Int
}

extension StoreIndex: Codable {
  enum CodingKeys: String, CodingKey {
    case version, nextID, memes, trash
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    // The version first: a newer schema may not decode at all, and must say so.
    version = try container.decode(Int.self, forKey: .version)
    guard version <= StoreIndex.currentVersion else { throw NewerIndexVersion(version: version) }
    nextID = try container.decode(Int.self, forKey: .nextID)
    memes = try container.decode([Meme].self, forKey: .memes)
    trash = try container.decodeIfPresent([TrashedMeme].self, forKey: .trash) ?? []
  }
}

// MARK: - Reading the XML safely

extension StoreIndex {
  /// How deep a well-formed index nests (plist, dict, array, dict, dict) with room to spare.
  /// PropertyListDecoder overflows the stack near 10,000 levels; anything past this is refused.
  static let maximumNesting = 32

  /// Decodes and checks an XML index; the error is one line saying what is wrong.
  static func decode(xml data: Data) throws(IndexDamage) -> StoreIndex {
    guard !data.isEmpty else { throw IndexDamage("the file is empty") }
    let head = data.prefix(64)
    let text = String(decoding: head, as: UTF8.self)
    let trimmed = text.drop(while: { $0.isWhitespace || $0 == "\u{FEFF}" })
    if trimmed.hasPrefix("bplist") {
      throw IndexDamage("it is a binary plist, not the XML one memesh writes")
    }
    guard trimmed.hasPrefix("<?xml") || trimmed.hasPrefix("<plist") || trimmed.hasPrefix("<!")
    else {
      let start = String(trimmed.prefix(8).prefix { !$0.isNewline }).unicodeScalars.map {
        $0.value < 32 || $0.value > 126 ? "?" : String($0)
      }.joined()
      throw IndexDamage("not an XML plist (starts with \"\(start)\")")
    }
    let depth = nestingDepth(of: data)
    guard depth <= maximumNesting else {
      throw IndexDamage("nested more than \(maximumNesting) levels deep")
    }
    if let bad = malformedNumber(in: data) {
      throw IndexDamage("a <\(bad)> holds something that is not a number")
    }
    var index: StoreIndex
    do {
      index = try plistDecoder().decode(StoreIndex.self, from: data)
    } catch let newer as NewerIndexVersion {
      throw IndexDamage(
        "written by a newer memesh (schema version \(newer.version); this one reads up to "
          + "\(currentVersion))")
    } catch let error as DecodingError {
      throw IndexDamage(describe(error))
    } catch {
      throw IndexDamage("not a valid plist (truncated or malformed)")
    }
    try index.check()
    return index
  }

  /// The decoder of memesh's own plists (index, records, draft): text longer than memesh keeps
  /// is damage there, not cut.
  static func plistDecoder() -> PropertyListDecoder {
    let decoder = PropertyListDecoder()
    decoder.userInfo[TextBox.refusesLongText] = true
    return decoder
  }

  /// Rejects what no memesh writes (duplicate ids, numbers out of range) and repairs the counter
  /// so an id is never handed out twice.
  mutating func check() throws(IndexDamage) {
    guard version >= 1 else { throw IndexDamage("schema version \(version) is not one memesh writes") }
    guard (1...maximumMemeID + 1).contains(nextID) else {
      throw IndexDamage("its next id \(nextID) is out of range (1 to \(maximumMemeID + 1))")
    }
    var seen = Set<Int>()
    for meme in memes { try Self.checkNumbers(of: meme) }
    for entry in trash {
      try Self.checkNumbers(of: entry.meme)
      try Self.checkDate(entry.deleted, "the deletion date of meme \(entry.meme.id)")
    }
    for id in memes.map(\.id) + trash.map(\.meme.id) {
      guard seen.insert(id).inserted else { throw IndexDamage("meme id \(id) appears twice") }
    }
    nextID = min(max(nextID, (seen.max() ?? 0) + 1), maximumMemeID + 1)
    memes.sort { $0.id < $1.id }
  }

  /// The largest side of a picture memesh writes or crops to, with room to spare.
  static let maximumSide = 1_000_000
  /// The longest text field memesh keeps (a caption is cut at 10,000 characters when typed).
  static let maximumTextBytes = 160_000

  /// Rejects a meme record whose numbers memesh would never write: an id out of range, a date
  /// not between 1970 and 9999, a size or crop that is not a picture's.
  static func checkNumbers(of meme: Meme) throws(IndexDamage) {
    guard (1...maximumMemeID).contains(meme.id) else {
      throw IndexDamage("meme id \(meme.id) is out of range (1 to \(maximumMemeID))")
    }
    try checkDate(meme.created, "the creation date of meme \(meme.id)")
    try checkDate(meme.modified, "the change date of meme \(meme.id)")
    guard (1...maximumSide).contains(meme.width), (1...maximumSide).contains(meme.height) else {
      throw IndexDamage("meme \(meme.id) has an impossible size \(meme.width)×\(meme.height)")
    }
    guard meme.recipe.crop.isWithinLimits else {
      throw IndexDamage("meme \(meme.id) has an impossible crop")
    }
    for text in [meme.recipe.font, meme.sourceName, meme.originalSHA256]
    where text.utf8.count > maximumTextBytes {
      throw IndexDamage("meme \(meme.id) has a text longer than memesh writes")
    }
  }

  /// Dates from 1970 to the end of 9999, in whole seconds' reach of every formatter.
  static func checkDate(_ date: Date, _ what: String) throws(IndexDamage) {
    let seconds = date.timeIntervalSince1970
    guard seconds.isFinite, (0...253_402_300_799).contains(seconds) else {
      throw IndexDamage("\(what) is out of range")
    }
  }

  /// The deepest nesting of `<dict>` and `<array>` elements, found by scanning the bytes (cheap,
  /// and safe on input that would crash a recursive decoder).
  /// The element name of the first `<integer>` or `<real>` whose text is not plain ASCII digits
  /// and signs: PropertyListDecoder traps on such bytes instead of throwing (found by the
  /// store-index fuzz target: `<integer>` followed by 0xFF bytes).
  static func malformedNumber(in data: Data) -> String? {
    // A byte loop over the buffer: `Data.firstRange(of:)` took a good part of restoring a draft.
    var allowed = [Bool](repeating: false, count: 256)
    for byte in "0123456789+-.eExXabcdefABCDEF \t\r\n".utf8 { allowed[Int(byte)] = true }
    return data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> String? in
      let bytes = buffer.bindMemory(to: UInt8.self)
      let less = UInt8(ascii: "<")
      for name in ["integer", "real"] {
        let open = Array("<\(name)>".utf8)
        var position = 0
        while position + open.count <= bytes.count {
          var matched = 0
          while matched < open.count, bytes[position + matched] == open[matched] { matched += 1 }
          guard matched == open.count else {
            position += 1
            continue
          }
          position += open.count
          while position < bytes.count, bytes[position] != less {
            if !allowed[Int(bytes[position])] { return name }
            position += 1
          }
        }
      }
      return nil
    }
  }

  static func nestingDepth(of data: Data) -> Int {
    data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> Int in
      let bytes = buffer.bindMemory(to: UInt8.self)
      let count = bytes.count
      var depth = 0
      var deepest = 0
      var position = 0
      let less = UInt8(ascii: "<")
      let slash = UInt8(ascii: "/")
      while position < count {
        guard bytes[position] == less, position + 1 < count else {
          position += 1
          continue
        }
        let closing = bytes[position + 1] == slash
        let nameStart = position + (closing ? 2 : 1)
        var nameEnd = nameStart
        while nameEnd < count, bytes[nameEnd] >= UInt8(ascii: "a"),
          bytes[nameEnd] <= UInt8(ascii: "z")
        {
          nameEnd += 1
        }
        let length = nameEnd - nameStart
        let isContainer =
          (length == 4 && bytes[nameStart] == UInt8(ascii: "d")
            && bytes[nameStart + 1] == UInt8(ascii: "i"))
          || (length == 5 && bytes[nameStart] == UInt8(ascii: "a")
            && bytes[nameStart + 1] == UInt8(ascii: "r"))
        if isContainer {
          let selfClosing = nameEnd < count && bytes[nameEnd] == slash
          if closing {
            depth = max(0, depth - 1)
          } else if !selfClosing {
            depth += 1
            deepest = max(deepest, depth)
          }
        }
        position = max(nameEnd, position + 1)
      }
      return deepest
    }
  }

  /// One line for a decoding failure, naming where in the index it is.
  static func describe(_ error: DecodingError) -> String {
    func place(_ path: [any CodingKey]) -> String {
      var text = ""
      for key in path {
        if let index = key.intValue {
          text += "[\(index)]"
        } else {
          text += text.isEmpty ? key.stringValue : "." + key.stringValue
        }
      }
      return text.isEmpty ? "the top level" : "'\(text)'"
    }
    switch error {
    case .typeMismatch(_, let context), .valueNotFound(_, let context):
      return "wrong type at \(place(context.codingPath))"
    case .keyNotFound(let key, let context):
      let path = context.codingPath + [key]
      return "missing \(place(path))"
    case .dataCorrupted(let context):
      if context.codingPath.isEmpty { return "not a valid plist (truncated or malformed)" }
      return "bad value at \(place(context.codingPath))"
    @unknown default:
      return "not a valid plist"
    }
  }
}

/// What is wrong with an index, in a few words.
struct IndexDamage: Error, Equatable {
  var reason: String
  init(_ reason: String) { self.reason = reason }
}
