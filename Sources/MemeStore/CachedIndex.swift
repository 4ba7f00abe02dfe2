import Foundation
import MemeCore

/// The index as the cache file holds it: counts and ids at once, each record checked and decoded
/// only when asked for, so `meme(id:)` on 10,000 memes decodes one.
final class CachedIndex: @unchecked Sendable {
  let version: Int
  let nextID: Int
  /// The memes' ids, ascending.
  let ids: [Int]
  /// Start of each meme record, then of each trash record, then the end of the cache.
  private let offsets: [Int]
  /// The cache's bytes in a range; nil past the end or when reading fails.
  private let read: @Sendable (Range<Int>) -> Data?
  private let lock = NSLock()
  private var decoded: StoreIndex?

  init(
    version: Int, nextID: Int, ids: [Int], offsets: [Int],
    read: @escaping @Sendable (Range<Int>) -> Data?
  ) {
    self.read = read
    self.version = version
    self.nextID = nextID
    self.ids = ids
    self.offsets = offsets
  }

  /// What a lookup by id found.
  enum Lookup: Equatable {
    case found(Meme)
    case absent
    /// The record does not decode: the caller reads the XML instead.
    case damaged
  }

  /// Meme `id`, decoding its record alone.
  func meme(id: Int) -> Lookup {
    guard let position = binarySearch(id) else { return .absent }
    guard let meme = record(position, trashed: false)?.0, meme.id == id else { return .damaged }
    return .found(meme)
  }

  /// Every record decoded (once, then kept); nil when one does not decode.
  func index() -> StoreIndex? {
    if let decoded = lock.withLock({ decoded }) { return decoded }
    guard let first = offsets.first, let last = offsets.last, let records = read(first..<last)
    else { return nil }
    func record(_ position: Int, trashed: Bool) -> (Meme, Date?)? {
      let start = records.startIndex + offsets[position] - first
      let end = records.startIndex + offsets[position + 1] - first
      return IndexCache.record(records[start..<end], trashed: trashed)
    }
    var index = StoreIndex(version: version, nextID: nextID)
    index.memes.reserveCapacity(ids.count)
    for position in ids.indices {
      guard let meme = record(position, trashed: false)?.0, meme.id == ids[position] else {
        return nil
      }
      index.memes.append(meme)
    }
    for position in ids.count..<(offsets.count - 1) {
      guard let (meme, deleted) = record(position, trashed: true), let deleted else { return nil }
      index.trash.append(TrashedMeme(meme: meme, deleted: deleted))
    }
    lock.withLock { decoded = index }
    return index
  }

  /// The ids of the trashed memes, decoding only their records; nil when one does not decode.
  func trashIDs() -> [Int]? {
    var ids: [Int] = []
    for position in self.ids.count..<(offsets.count - 1) {
      guard let (meme, _) = record(position, trashed: true) else { return nil }
      ids.append(meme.id)
    }
    return ids
  }

  private func record(_ position: Int, trashed: Bool) -> (Meme, Date?)? {
    read(offsets[position]..<offsets[position + 1])
      .flatMap { IndexCache.record($0, trashed: trashed) }
  }

  private func binarySearch(_ id: Int) -> Int? {
    var low = 0
    var high = ids.count
    while low < high {
      let middle = (low + high) / 2
      if ids[middle] < id { low = middle + 1 } else { high = middle }
    }
    return low < ids.count && ids[low] == id ? low : nil
  }
}
