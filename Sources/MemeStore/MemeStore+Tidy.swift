import Foundation
import MemeCore
import MemeSystem

extension MemeStore {
  /// The file in each meme's folder holding its own record (the index entry), written with the
  /// folder: what lets memesh take back a folder the index does not list.
  static let recordName = "record.plist"
  /// Records larger than this are not memesh's.
  static let maximumRecordSize = 1 << 20

  /// The XML of one meme's record.
  static func encodeRecord(_ meme: Meme) throws -> Data {
    let encoder = PropertyListEncoder()
    encoder.outputFormat = .xml
    return try encoder.encode(MemeRecord(version: StoreIndex.currentVersion, meme: meme))
  }

  /// The meme whose whole folder `id` is, from its record: nil unless the record reads, names
  /// this id and its three files in the folder, each a regular non-empty file.
  func wholeMeme(inFolder id: Int) -> Meme? {
    guard let meme = recordedMeme(inFolder: id) else { return nil }
    for name in [meme.originalFile, meme.memeFile, meme.thumbnailFile] {
      guard Self.isSafe(name, id: id), case .file(let size) = files.kind(path(name)), size > 0
      else { return nil }
    }
    return meme
  }

  /// The meme the record in folder `id` describes, when it reads and names this id.
  func recordedMeme(inFolder id: Int) -> Meme? {
    let folder = livePath(id)
    guard let data = try? files.read(folder + "/" + Self.recordName, limit: Self.maximumRecordSize),
      StoreIndex.nestingDepth(of: data) <= StoreIndex.maximumNesting,
      StoreIndex.malformedNumber(in: data) == nil,
      let record = try? StoreIndex.plistDecoder().decode(MemeRecord.self, from: data),
      record.version <= StoreIndex.currentVersion, record.meme.id == id,
      (try? StoreIndex.checkNumbers(of: record.meme)) != nil
    else { return nil }
    return record.meme
  }

  /// At open: takes back into the index every whole meme folder it does not list (a share that
  /// died between naming its folder and writing the index, or an older index put back) and says
  /// which folders it keeps without listing. Nil when there were none.
  func takeBackUnlistedFolders(indexChangedElsewhere: Bool) -> String? {
    // The ids only: from a cache that vouches for the index, without decoding every record
    // (this runs at every start).
    let live: Set<Int>
    let trashed: Set<Int>
    switch try? view() {
    case .decoded(let index)?:
      live = Set(index.memes.map(\.id))
      trashed = Set(index.trash.map(\.meme.id))
    case .cached(let cached)?:
      guard let trash = cached.trashIDs() else { return nil }
      live = Set(cached.ids)
      trashed = Set(trash)
    case nil:
      return nil
    }
    let folders = numericEntries(inDirectory: directory.path)
    let trashFolders = numericEntries(inDirectory: trashPath)
    let unlisted = folders.keys.contains { !live.contains($0) && !trashed.contains($0) }
    // A folder on the wrong side of the trash for what the index says (an older index put back).
    let misplaced =
      folders.keys.contains { trashed.contains($0) }
      || trashFolders.keys.contains { live.contains($0) && folders[$0] == nil }
    guard unlisted || misplaced || indexChangedElsewhere else { return nil }
    memoryLock.withLock { thoroughCheckPending = indexChangedElsewhere }
    _ = try? withWriteLock { _ in }
    let notes = memoryLock.withLock { () -> [String] in
      defer { tidyNotes = [] }
      return tidyNotes
    }
    // One line: the later notes lose their "store: " prefix.
    guard let first = notes.first else { return nil }
    return ([first] + notes.dropFirst().map { String($0.dropFirst("store: ".count)) })
      .joined(separator: "; ")
  }

  /// Cleanup done under the lock before every change (one listing of the store and one of the
  /// trash): removes leftovers memesh provably made (`.tmp-…`), takes back whole memes the index
  /// does not list (writing the index), keeps and reports other unlisted folders, puts folders
  /// where the index says after a delete or undo cut short, and raises the id counter above
  /// every folder so no id is handed out twice.
  func tidy(_ loaded: inout LoadedIndex) throws {
    var count = 0
    var index = loaded.index
    let listedLive = Set(index.memes.map(\.id))
    let trashed = Set(index.trash.map(\.meme.id))
    var adopted: [Int] = []
    var kept: [Int] = []
    var highest = 0
    for entry in files.entries(directory.path) {
      if entry.hasPrefix(DurableFiles.temporaryPrefix) {
        files.removeQuietly(directory.path + "/" + entry)
        count += 1
        continue
      }
      guard let id = memeID(folderName: entry) else { continue }
      highest = max(highest, id)
      guard !listedLive.contains(id), !trashed.contains(id) else { continue }
      if let meme = wholeMeme(inFolder: id) {
        let at = index.memes.firstIndex { $0.id > id } ?? index.memes.endIndex
        index.memes.insert(meme, at: at)
        adopted.append(id)
      } else {
        kept.append(id)
      }
    }
    // The index was written by something other than memesh (an older one put back): a listed
    // meme whose files are gone but whose folder holds a newer whole version takes that one.
    var renewed: [Int] = []
    if memoryLock.withLock({ thoroughCheckPending }) {
      memoryLock.withLock { thoroughCheckPending = false }
      for position in index.memes.indices {
        let meme = index.memes[position]
        let whole = [meme.originalFile, meme.memeFile, meme.thumbnailFile].allSatisfy {
          if case .file = files.kind(path($0)) { return Self.isSafe($0, id: meme.id) }
          return false
        }
        if !whole, let newer = wholeMeme(inFolder: meme.id) {
          index.memes[position] = newer
          renewed.append(meme.id)
        }
      }
    }
    // A delete or undo that died between moving the folder and writing the index.
    for id in trashed
    where files.kind(trashedPath(id)) == .missing && files.kind(livePath(id)) == .directory {
      if (try? moveBetween(livePath(id), trashedPath(id))) != nil { count += 1 }
    }
    for entry in files.entries(trashPath) {
      let path = trashPath + "/" + entry
      guard let id = memeID(folderName: entry) else {
        if entry.hasPrefix(DurableFiles.temporaryPrefix) {
          files.removeQuietly(path)
          count += 1
        }
        continue
      }
      highest = max(highest, id)
      if listedLive.contains(id), files.kind(livePath(id)) == .missing,
        (try? moveBetween(path, livePath(id))) != nil
      {
        count += 1  // an undo that died after moving the folder back
      }
      // Anything else in the trash stays: a purge renames its folder away before removing it.
    }
    index.nextID = min(max(index.nextID, highest + 1), maximumMemeID + 1)
    lastTidyCount = count
    var notes: [String] = []
    if !adopted.isEmpty {
      notes.append(
        "store: took back \(Self.list(adopted, "meme", "memes")) from \(adopted.count == 1 ? "its folder" : "their folders"), "
          + "which the index did not list (an older index put back, or a share cut short)")
    }
    if !renewed.isEmpty {
      notes.append(
        "store: took the versions of \(Self.list(renewed, "meme", "memes")) found in "
          + "\(renewed.count == 1 ? "its folder" : "their folders"); the index named files no longer there")
    }
    if !kept.isEmpty {
      notes.append(
        "store: kept \(Self.list(kept, "folder", "folders")) in '\(directory.path)' that the index "
          + "does not list and memesh cannot read as a whole meme; left as is, \(kept.count == 1 ? "its id is" : "their ids are") not reused")
    }
    if !notes.isEmpty { memoryLock.withLock { tidyNotes += notes } }
    if index != loaded.index {
      do {
        loaded = try commit(index, replacing: loaded)
      } catch let failure as CommitFailure {
        throw failure.error
      }
    }
  }

  /// `meme 7`, `memes 7, 8, 9`, `memes 7, 8, 9 … (12 in all)`.
  static func list(_ ids: [Int], _ one: String, _ many: String) -> String {
    let sorted = ids.sorted()
    if sorted.count == 1 { return "\(one) \(sorted[0])" }
    let shown = sorted.prefix(8).map(String.init).joined(separator: ", ")
    return sorted.count > 8 ? "\(many) \(shown) … (\(sorted.count) in all)" : "\(many) \(shown)"
  }

  /// Moves a folder between the store and its trash and makes the move durable.
  func moveBetween(_ source: String, _ destination: String) throws {
    try files.rename(source, to: destination)
    try files.synchronizeDirectory((source as NSString).deletingLastPathComponent)
    try files.synchronizeDirectory((destination as NSString).deletingLastPathComponent)
  }
}

/// `<id>/record.plist`: one meme's entry as the index has it, with the schema version.
struct MemeRecord: Codable {
  var version: Int
  var meme: Meme
}
