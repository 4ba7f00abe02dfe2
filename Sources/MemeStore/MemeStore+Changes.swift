import Foundation
import MemeCore
import MemeSystem

/// The index write failed; `landed` tells whether the new index is nevertheless in place (its
/// rename happened and putting the old one back failed too), so callers keep its files.
struct CommitFailure: Error {
  var error: any Error
  var landed: Bool
}

extension MemeStore {
  // MARK: - Changes

  /// Adds a meme with a new id.
  public func add(_ meme: NewMeme) throws -> Meme {
    try add(meme.unrendered, arriving: ArrivingMeme(meme))
  }

  /// Adds a meme with a new id while it is being rendered: the lock is taken, the folder made
  /// and the original placed before the parts arrive, the encoded file written as soon as it
  /// comes, the thumbnail when it does. Abandoned parts end the add with nothing changed
  /// (`ArrivingMeme.Abandoned`).
  ///
  /// What must be on disk before the meme's folder takes its id is flushed at once: the meme's
  /// files (written in the order they come, each flushed on a thread of its own), the original
  /// linked from the draft's copy (on another) and, in a store without an index yet, the empty
  /// index (on another), and the index that names the meme under a temporary name (on
  /// another); then the folder. Each fsync waits for a journal commit; made together, they
  /// share one.
  public func add(_ meme: UnrenderedMeme, arriving parts: ArrivingMeme) throws -> Meme {
    try withWriteLock { loaded in
      var index = loaded.index
      let id = index.nextID
      guard id <= maximumMemeID else {
        throw StoreError.readOnly(path: directory.path, reason: "it has used every meme id")
      }
      let folder = livePath(id)
      guard files.kind(folder) == .missing else {
        // Never reached: nextID is above every folder (tidy). Kept, never emptied.
        throw StoreError.system(SystemError(.create, path: folder, code: EEXIST))
      }
      // No index on disk yet: the empty one is written before the folder takes its id. A crash
      // during this first share then leaves a folder at or above nextID, which the next change
      // removes; with no index, the folder would pass for a meme of a lost index and stay
      // forever.
      let empty = index
      let firstIndex =
        loaded.xml == nil
        ? Concurrently { [self] in
          do {
            // The share's own commit writes the cache a moment later.
            return try commit(
              prepareCommit(empty, replacing: loaded), replacing: loaded, savingCache: false)
          } catch let failure as CommitFailure {
            throw failure.error
          }
        } : nil
      // The new meme is built in a folder with a temporary name (a leftover memesh can prove it
      // made) and renamed to its id only when whole.
      let building = directory.path + "/" + DurableFiles.temporaryPrefix + "new-\(id)-"
        + DurableFiles.randomToken()
      let originalName = "\(id)/original.\(Self.originalExtension(meme.original))"
      let memeName = "\(id)/meme.\(meme.format.fileExtension)"
      let thumbnailName = "\(id)/thumb.png"
      func inside(_ name: String) -> String {
        building + "/" + (name as NSString).lastPathComponent
      }
      var renamed = false
      var prepared: PreparedIndex?
      do {
        var original: Concurrently<[(data: Data, path: String)], Never>?
        var preparing: Concurrently<PreparedIndex, any Error>?
        var started: [DurableFiles.StartedFile] = []
        let added: Meme
        let previous: LoadedIndex
        do {
          try files.makeDirectory(building)
          // The original, linked when it can be, else written after the others.
          let originalPath = inside(originalName)
          original = Concurrently { [self] in placeOriginal(of: meme, at: originalPath) }
          let encoded = try parts.waitForEncoded()
          started.append(try files.startWriting(encoded.data, to: inside(memeName)))
          let date = now()
          added = Meme(
            id: id, recipe: meme.recipe, created: date, modified: date, width: encoded.width,
            height: encoded.height, format: meme.format, sourceName: meme.sourceName,
            originalSHA256: meme.originalSHA256.lowercased(), originalFile: originalName,
            memeFile: memeName, thumbnailFile: thumbnailName)
          // The index naming the meme is written and flushed beside the index while the meme's
          // files are; it is moved into place only once the folder has its id.
          index.memes.append(added)
          index.nextID = id + 1
          let next = index
          preparing = Concurrently { [self] in try prepareCommit(next, replacing: loaded) }
          started.append(
            try files.startWriting(try Self.encodeRecord(added), to: inside(Self.recordName)))
          started.insert(
            try files.startWriting(try parts.waitForThumbnail(), to: inside(thumbnailName)), at: 1)
          try files.place(started)
          started = []
          if let unlinked = original?.result(), !unlinked.isEmpty {
            try files.write(together: unlinked)
          }
          try files.synchronizeDirectory(building)
          previous = try firstIndex?.result() ?? loaded
          prepared = try preparing?.result()
        } catch {
          // Every thread is done before the folder goes, and the empty index is settled.
          files.discard(started)
          _ = original?.result()
          _ = try? firstIndex?.result()
          if let written = try? preparing?.result() { written.file.discard(written.temporary) }
          throw error
        }
        try files.rename(building, to: folder)
        renamed = true
        try files.synchronizeDirectory(directory.path)
        if let ready = prepared {
          prepared = nil
          try commit(ready, replacing: previous)
        }
        return added
      } catch let failure as CommitFailure {
        // The folder is this call's own; with the index not naming it, it goes.
        if !failure.landed { files.removeQuietly(renamed ? folder : building) }
        throw failure.error
      } catch {
        if let prepared { prepared.file.discard(prepared.temporary) }
        files.removeQuietly(renamed ? folder : building)
        throw error
      }
    }
  }

  /// Replaces meme `id` (same id, new modified date).
  public func update(id: Int, with meme: NewMeme) throws -> Meme {
    try withWriteLock { loaded in
      var index = loaded.index
      guard let position = Self.position(of: id, in: index.memes) else {
        throw StoreError.noMeme(id: id)
      }
      let old = index.memes[position]
      let folder = livePath(id)
      guard files.kind(folder) == .directory else {
        throw StoreError.system(
          files.kind(folder) == .symlink
            ? SystemError.symlink(.write, path: folder)
            : SystemError(.write, path: folder, code: ENOENT))
      }
      // New files get new names, so the old ones stay whole until the index moves on.
      let token = DurableFiles.randomToken()
      let keepOriginal =
        old.originalSHA256 == meme.originalSHA256.lowercased()
        && Self.isSafe(old.originalFile, id: id)
        && files.kind(path(old.originalFile)) != .missing
      let originalName =
        keepOriginal
        ? old.originalFile : "\(id)/original-\(token).\(Self.originalExtension(meme.original))"
      let memeName = "\(id)/meme-\(token).\(meme.format.fileExtension)"
      let thumbnailName = "\(id)/thumb-\(token).png"
      let written = (keepOriginal ? [] : [originalName]) + [memeName, thumbnailName]
      do {
        let originalBytes =
          keepOriginal ? [] : placeOriginal(of: meme.unrendered, at: path(originalName))
        try files.write(
          together: originalBytes + [
            (meme.rendered, path(memeName)), (meme.thumbnail, path(thumbnailName)),
          ])
        let updated = Meme(
          id: id, recipe: meme.recipe, created: old.created, modified: max(now(), old.modified),
          width: meme.width, height: meme.height, format: meme.format, sourceName: meme.sourceName,
          originalSHA256: meme.originalSHA256.lowercased(), originalFile: originalName,
          memeFile: memeName, thumbnailFile: thumbnailName)
        try files.synchronizeDirectory(folder)
        index.memes[position] = updated
        try commit(index, replacing: loaded)
        // The folder's own record follows the index (best effort: it only serves to take the
        // folder back should the index lose it). A share killed before the index write leaves
        // the record naming the old files, so the new ones are provably leftovers.
        try? files.write(
          try Self.encodeRecord(updated), to: folder + "/" + Self.recordName,
          synchronizingDirectory: false)
        removeSupersededFiles(of: old, keeping: updated)
        return updated
      } catch let failure as CommitFailure {
        if !failure.landed { for name in written { files.removeQuietly(path(name)) } }
        throw failure.error
      } catch {
        for name in written { files.removeQuietly(path(name)) }
        throw error
      }
    }
  }

  /// Deletes meme `id`, moving its files to the trash; `undoDelete` brings it back.
  ///
  /// The index is written first, then the folder moves: a crash in between leaves the meme
  /// wholly deleted (the next change moves its folder), never listed without its files.
  @discardableResult
  public func delete(id: Int) throws -> Meme {
    try withWriteLock { loaded in
      var index = loaded.index
      guard let position = Self.position(of: id, in: index.memes) else {
        throw StoreError.noMeme(id: id)
      }
      let meme = index.memes[position]
      let live = livePath(id)
      let trashed = trashedPath(id)
      try files.makeDirectory(trashPath)
      index.memes.remove(at: position)
      // To the sub-second, unlike other dates: undo orders deletes and editor changes by it.
      index.trash.append(TrashedMeme(meme: meme, deleted: clock()))
      var purged: [Int] = []
      while index.trash.count > trashLimit { purged.append(index.trash.removeFirst().meme.id) }
      do {
        try commit(index, replacing: loaded)
      } catch let failure as CommitFailure {
        throw failure.error
      }
      guard files.kind(trashed) == .missing else {
        // Not this meme's: only a restored older index names a trashed id live. Kept.
        throw StoreError.system(SystemError(.move, path: trashed, code: EEXIST))
      }
      if files.kind(live) != .missing {
        do {
          try files.rename(live, to: trashed)
          try files.synchronizeDirectory(directory.path)
          try files.synchronizeDirectory(trashPath)
        } catch {
          // Back as before: the folder where it was, then the previous index.
          if files.kind(live) == .missing, files.kind(trashed) != .missing {
            try? moveBack(trashed, to: live)
          }
          if let old = loaded.xml { try? files.write(old, to: indexPath) }
          throw error
        }
      }
      for purgedID in purged { purge(purgedID) }
      return meme
    }
  }

  /// Brings back the most recently deleted meme (also after a restart); nil when the trash is
  /// empty. The folder moves back first, then the index names it again.
  public func undoDelete() throws -> Meme? {
    try withWriteLock { loaded in
      var index = loaded.index
      guard let entry = index.trash.last else { return nil }
      let id = entry.meme.id
      let live = livePath(id)
      let trashed = trashedPath(id)
      var moved = false
      if files.kind(trashed) != .missing {
        guard files.kind(live) == .missing else {
          // Something is at the live name: kept, the undo refused.
          throw StoreError.system(SystemError(.move, path: live, code: EEXIST))
        }
        try files.rename(trashed, to: live)
        moved = true
        try synchronizeAfterMove(from: trashed, to: live, moved: &moved)
      }
      index.trash.removeLast()
      let insertAt = index.memes.firstIndex { $0.id > id } ?? index.memes.endIndex
      index.memes.insert(entry.meme, at: insertAt)
      do {
        try commit(index, replacing: loaded)
      } catch let failure as CommitFailure {
        if !failure.landed && moved { try? moveBack(live, to: trashed) }
        throw failure.error
      }
      return withProblem(entry.meme, checking: .contents)
    }
  }

  /// Removes the leftovers of crashed or failed changes (temporary files, folders of shares
  /// that never reached the index, superseded files of edits, purged trash) and puts folders
  /// where the index says. Returns how many items were removed or moved.
  @discardableResult
  public func repair() throws -> Int {
    try withWriteLock { loaded in
      var count = lastTidyCount
      for meme in loaded.index.memes { count += removeLeftoverFiles(of: meme) }
      return count
    }
  }

  // MARK: - Under the lock

  /// Runs `body` with the exclusive lock held and the index freshly read from disk, after
  /// tidying what a crashed session left.
  func withWriteLock<T>(_ body: (LoadedIndex) throws -> T) throws -> T {
    if let readOnlyReason {
      throw StoreError.readOnly(path: directory.path, reason: readOnlyReason)
    }
    let root: Directory
    do {
      root = try files.rootDirectory()
    } catch {
      throw StoreError.system(error)
    }
    return try StoreLock.withExclusiveLock(".lock", in: root) {
      var loaded = try currentForWriting()
      try tidy(&loaded)
      return try body(loaded)
    }
  }

  /// Writes the index atomically; if that fails after the rename (a failed directory fsync),
  /// puts the previous index back so the store is as before. Returns the index now on disk.
  /// An index of an older schema is written in this one, once the older file is kept beside it
  /// (`keepOlderIndex`).
  @discardableResult
  func commit(_ index: StoreIndex, replacing previous: LoadedIndex) throws -> LoadedIndex {
    try commit(prepareCommit(index, replacing: previous), replacing: previous)
  }

  /// An index written and flushed under a temporary name beside the index, not yet in place.
  struct PreparedIndex: Sendable {
    var index: StoreIndex
    var xml: Data
    var file: AtomicFile
    var temporary: String
  }

  /// The first half of `commit`: the index encoded in the current schema (an older one's file
  /// kept first), written and flushed under a temporary name. Throws a `CommitFailure`, never
  /// landed; leaves no temporary file behind.
  func prepareCommit(_ index: StoreIndex, replacing previous: LoadedIndex) throws
    -> PreparedIndex
  {
    var index = index
    index.version = StoreIndex.currentVersion
    if let older = previous.xml, previous.index.version < StoreIndex.currentVersion {
      do {
        try keepOlderIndex(older, version: previous.index.version)
      } catch {
        throw CommitFailure(error: error, landed: false)
      }
    }
    let encoder = PropertyListEncoder()
    encoder.outputFormat = .xml
    let xml: Data
    do {
      xml = try encoder.encode(index)
    } catch {
      throw CommitFailure(
        error: StoreError.fileSystem(action: "encode", path: indexPath, reason: "\(error)"),
        landed: false)
    }
    do {
      let (file, temporary) = try files.writeTemporary(xml, to: indexPath)
      return PreparedIndex(index: index, xml: xml, file: file, temporary: temporary)
    } catch {
      throw CommitFailure(error: error, landed: false)
    }
  }

  /// The second half: moves `prepared` into place and flushes the folder; if that fails after
  /// the rename (a failed directory fsync), puts `previous` back. Returns the index now on disk.
  /// The cache of the index is written too, unless `savingCache` is false (another commit
  /// follows at once).
  @discardableResult
  func commit(
    _ prepared: PreparedIndex, replacing previous: LoadedIndex, savingCache: Bool = true
  ) throws -> LoadedIndex {
    let (index, xml) = (prepared.index, prepared.xml)
    do {
      try files.moveIntoPlace(prepared.temporary, prepared.file)
    } catch {
      var landed = false
      if (try? Data(contentsOf: URL(fileURLWithPath: indexPath))) == xml {
        if let old = previous.xml {
          landed = (try? files.write(old, to: indexPath)) == nil
        } else {
          files.removeQuietly(indexPath)
          landed = FileKind(path: indexPath) != .missing
        }
      }
      throw CommitFailure(error: error, landed: landed)
    }
    let hash = IndexCache.hash(xml)
    if savingCache {
      // Just written, so not settled: the cache names it by hash until a later read trusts it.
      let cache = IndexCache.encode(
        index, xmlSize: xml.count, xmlHash: hash, identity: FileIdentity(path: indexPath),
        trusted: false)
      Self.saveCache(cache, next: indexPath, files)
    }
    let loaded = LoadedIndex(index: index, xml: xml, xmlHash: hash, parsed: true)
    rememberIndex(loaded)
    return loaded
  }

  /// Saves the bytes of an index of an older schema `version` as `index.v<version>.plist` beside
  /// the index (`index.v1-2.plist` … when that name is taken: nothing is overwritten), before
  /// the first index of the current schema replaces it. An older memesh can then be given its
  /// store back by hand.
  func keepOlderIndex(_ xml: Data, version: Int) throws {
    let folder = (indexPath as NSString).deletingLastPathComponent
    for attempt in 1...1000 {
      let name = "index.v\(version)" + (attempt == 1 ? "" : "-\(attempt)") + ".plist"
      guard files.kind(folder + "/" + name) == .missing else { continue }
      try files.write(xml, to: folder + "/" + name)
      return
    }
    throw StoreError.fileSystem(
      action: "keep", path: folder + "/index.v\(version).plist",
      reason: "a thousand older indexes are kept there already")
  }

  /// Whether `name` is an older index `keepOlderIndex` kept.
  static func isKeptIndex(_ name: String) -> Bool {
    name.hasPrefix("index.v") && name.hasSuffix(".plist")
  }

  /// Makes a folder rename durable; on failure moves it back and rethrows.
  private func synchronizeAfterMove(from source: String, to destination: String, moved: inout Bool)
    throws
  {
    do {
      try files.synchronizeDirectory((source as NSString).deletingLastPathComponent)
      try files.synchronizeDirectory((destination as NSString).deletingLastPathComponent)
    } catch {
      try? moveBack(destination, to: source)
      moved = false
      throw error
    }
  }

  private func moveBack(_ source: String, to destination: String) throws {
    try files.rename(source, to: destination)
    try files.synchronizeDirectory((source as NSString).deletingLastPathComponent)
    try files.synchronizeDirectory((destination as NSString).deletingLastPathComponent)
  }

  /// Removes a purged meme's folder from the trash: first renamed to a temporary name, so a
  /// removal cut short leaves a name memesh can prove it made, never a half-emptied meme.
  func purge(_ id: Int) {
    let doomed = trashPath + "/" + DurableFiles.temporaryPrefix + "purge-\(id)-"
      + DurableFiles.randomToken()
    guard files.kind(trashedPath(id)) == .directory,
      (try? files.rename(trashedPath(id), to: doomed)) != nil
    else { return }
    files.removeQuietly(doomed)
  }

  /// Removes files in a meme's folder that its previous record named and its new one does not
  /// (superseded by an edit). Nothing else in the folder is touched: a file the index does not
  /// name may be a newer version an older index never knew. Returns how many.
  @discardableResult
  func removeSupersededFiles(of old: Meme, keeping new: Meme) -> Int {
    let keep = Set([new.originalFile, new.memeFile, new.thumbnailFile])
    var count = 0
    for name in [old.originalFile, old.memeFile, old.thumbnailFile]
    where !keep.contains(name) && Self.isSafe(name, id: old.id) {
      files.removeQuietly(path(name))
      count += 1
    }
    return count
  }

  /// Removes the leftovers in a meme's folder: temporary names (`.tmp-…`), and, when the
  /// folder's own record agrees with the index (so neither an older index put back nor a newer
  /// version is in play), memesh's picture files that neither names (an edit cut short before
  /// its index write). Anything else in the folder is left alone. Returns how many.
  @discardableResult
  func removeLeftoverFiles(of meme: Meme) -> Int {
    let folder = livePath(meme.id)
    guard files.kind(folder) == .directory else { return 0 }
    let named = Set([meme.originalFile, meme.memeFile, meme.thumbnailFile].map {
      PathName($0).lastComponent
    })
    let agrees = recordedMeme(inFolder: meme.id).map { Self.sameFiles($0, meme) } ?? false
    var count = 0
    for entry in files.entries(folder) where !named.contains(entry) && entry != Self.recordName {
      let ours =
        entry.hasPrefix(DurableFiles.temporaryPrefix)
        || (agrees && ["original", "meme", "thumb"].contains { entry.hasPrefix($0) })
      guard ours else { continue }
      files.removeQuietly(folder + "/" + entry)
      count += 1
    }
    return count
  }

  /// Whether two records of one meme name the same files.
  static func sameFiles(_ one: Meme, _ other: Meme) -> Bool {
    one.id == other.id && one.originalFile == other.originalFile
      && one.memeFile == other.memeFile && one.thumbnailFile == other.thumbnailFile
  }

  private func rememberIndex(_ loaded: LoadedIndex) {
    setMemory(loaded)
  }

  /// Puts the original's bytes at `path` (the caller flushes the folder) as a link to
  /// `meme.originalFile` when that file holds them; else returns them with `path`, for the
  /// caller to write with the meme's other files (`write(together:)`). The draft's pictures are
  /// written once and replaced only by rename, so the two names never see each other's changes:
  /// clearing the draft or deleting the meme removes one name, and the bytes stay for the other.
  private func placeOriginal(of meme: UnrenderedMeme, at path: String) -> [(data: Data, path: String)] {
    if let source = meme.originalFile,
      let folder = try? Directory.open((source as NSString).deletingLastPathComponent),
      files.link((folder, (source as NSString).lastPathComponent), to: path, holding: meme.original)
    {
      return []
    }
    return [(meme.original, path)]
  }

  /// The absolute path of a store-relative name.
  func path(_ relative: String) -> String {
    directory.path + "/" + relative
  }

  /// The original's extension from its first bytes.
  static func originalExtension(_ bytes: Data) -> String {
    sniffFormat(bytes)?.fileExtension ?? "bin"
  }
}
