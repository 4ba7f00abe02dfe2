import Foundation
import MemeCore

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
    try withWriteLock { loaded in
      var index = loaded.index
      var previous = loaded
      if loaded.xml == nil {
        // No index on disk yet: write the empty one first. A crash during this first share then
        // leaves a folder at or above nextID, which the next change removes; with no index, the
        // folder would pass for a meme of a lost index and stay forever.
        do {
          previous = try commit(index, replacing: loaded)
        } catch let failure as CommitFailure {
          throw failure.error
        }
      }
      let id = index.nextID
      let folder = livePath(id)
      let originalName = "\(id)/original.\(Self.originalExtension(meme.original))"
      let memeName = "\(id)/meme.\(meme.format.fileExtension)"
      let thumbnailName = "\(id)/thumb.png"
      do {
        files.removeQuietly(folder)  // a share that crashed before its index write
        try files.makeDirectory(folder)
        try files.synchronizeDirectory(directory.path)
        try placeOriginal(of: meme, at: path(originalName))
        try files.write(meme.rendered, to: path(memeName), synchronizingDirectory: false)
        try files.write(meme.thumbnail, to: path(thumbnailName), synchronizingDirectory: false)
        try files.synchronizeDirectory(folder)
        let date = now()
        let added = Meme(
          id: id, top: meme.top, bottom: meme.bottom, font: meme.font, crop: meme.crop,
          created: date, modified: date, width: meme.width, height: meme.height,
          format: meme.format, sourceName: meme.sourceName,
          originalSHA256: meme.originalSHA256.lowercased(), originalFile: originalName,
          memeFile: memeName, thumbnailFile: thumbnailName)
        index.memes.append(added)
        index.nextID = id + 1
        try commit(index, replacing: previous)
        return added
      } catch let failure as CommitFailure {
        if !failure.landed { files.removeQuietly(folder) }
        throw failure.error
      } catch {
        files.removeQuietly(folder)
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
      guard FileKind(path: folder) != .symlink else {
        throw StoreError.readOnly(path: folder, reason: "the meme's folder is a symlink, refused")
      }
      // New files get new names, so the old ones stay whole until the index moves on.
      let token = DurableFiles.randomToken()
      let keepOriginal =
        old.originalSHA256 == meme.originalSHA256.lowercased()
        && Self.isSafe(old.originalFile, id: id)
        && FileKind(path: path(old.originalFile)) != .missing
      let originalName =
        keepOriginal
        ? old.originalFile : "\(id)/original-\(token).\(Self.originalExtension(meme.original))"
      let memeName = "\(id)/meme-\(token).\(meme.format.fileExtension)"
      let thumbnailName = "\(id)/thumb-\(token).png"
      let written = (keepOriginal ? [] : [originalName]) + [memeName, thumbnailName]
      do {
        try files.makeDirectory(folder)
        try files.synchronizeDirectory(directory.path)
        if !keepOriginal { try placeOriginal(of: meme, at: path(originalName)) }
        try files.write(meme.rendered, to: path(memeName), synchronizingDirectory: false)
        try files.write(meme.thumbnail, to: path(thumbnailName), synchronizingDirectory: false)
        try files.synchronizeDirectory(folder)
        let updated = Meme(
          id: id, top: meme.top, bottom: meme.bottom, font: meme.font, crop: meme.crop,
          created: old.created, modified: max(now(), old.modified), width: meme.width,
          height: meme.height, format: meme.format, sourceName: meme.sourceName,
          originalSHA256: meme.originalSHA256.lowercased(), originalFile: originalName,
          memeFile: memeName, thumbnailFile: thumbnailName)
        index.memes[position] = updated
        try commit(index, replacing: loaded)
        removeUnreferencedFiles(of: updated)
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
      index.trash.append(TrashedMeme(meme: meme, deleted: now()))
      var purged: [Int] = []
      while index.trash.count > trashLimit { purged.append(index.trash.removeFirst().meme.id) }
      do {
        try commit(index, replacing: loaded)
      } catch let failure as CommitFailure {
        throw failure.error
      }
      if FileKind(path: live) != .missing {
        do {
          files.removeQuietly(trashed)
          try files.rename(live, to: trashed)
          try files.synchronizeDirectory(directory.path)
          try files.synchronizeDirectory(trashPath)
        } catch {
          // Back as before: the folder where it was, then the previous index.
          if FileKind(path: live) == .missing, FileKind(path: trashed) != .missing {
            try? moveBack(trashed, to: live)
          }
          if let old = loaded.xml { try? files.write(old, to: indexPath) }
          throw error
        }
      }
      for purgedID in purged { files.removeQuietly(trashedPath(purgedID)) }
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
      if FileKind(path: trashed) != .missing {
        files.removeQuietly(live)  // not a live meme: its id is in the trash
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
      var count = tidy(loaded.index)
      for meme in loaded.index.memes { count += removeUnreferencedFiles(of: meme) }
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
    try files.makeDirectory(directory.path)
    return try StoreLock.withExclusiveLock(at: lockPath) {
      let loaded = try current()
      tidy(loaded.index)
      return try body(loaded)
    }
  }

  /// Writes the index atomically; if that fails after the rename (a failed directory fsync),
  /// puts the previous index back so the store is as before. Returns the index now on disk.
  @discardableResult
  func commit(_ index: StoreIndex, replacing previous: LoadedIndex) throws -> LoadedIndex {
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
      try files.write(xml, to: indexPath)
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
    // Just written, so not settled: the cache names it by hash until a later read trusts it.
    let cache = IndexCache.encode(
      index, xmlSize: xml.count, xmlHash: hash, identity: FileIdentity(path: indexPath),
      trusted: false)
    Self.saveCache(cache, next: indexPath, files)
    let loaded = LoadedIndex(index: index, xml: xml, xmlHash: hash)
    rememberIndex(loaded)
    return loaded
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

  /// Cheap cleanup done before every change (one listing of the store and one of the trash).
  @discardableResult
  func tidy(_ index: StoreIndex) -> Int {
    var count = 0
    let top = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    for entry in top {
      if entry.hasPrefix(DurableFiles.temporaryPrefix) {
        files.removeQuietly(directory.path + "/" + entry)
        count += 1
      } else if let id = Int(entry), String(id) == entry, id >= index.nextID {
        // Written by a share that died before its index write: never part of the store.
        files.removeQuietly(directory.path + "/" + entry)
        count += 1
      }
    }
    let live = Set(index.memes.map(\.id))
    let trashed = Set(index.trash.map(\.meme.id))
    // A delete or undo that died between moving the folder and writing the index.
    for id in trashed
    where FileKind(path: trashedPath(id)) == .missing && FileKind(path: livePath(id)) == .directory
    {
      if (try? moveBack(livePath(id), to: trashedPath(id))) != nil { count += 1 }
    }
    let inTrash = (try? FileManager.default.contentsOfDirectory(atPath: trashPath)) ?? []
    for entry in inTrash {
      let path = trashPath + "/" + entry
      guard let id = Int(entry), String(id) == entry else {
        if entry.hasPrefix(DurableFiles.temporaryPrefix) {
          files.removeQuietly(path)
          count += 1
        }
        continue
      }
      if trashed.contains(id) { continue }
      if live.contains(id) {
        if FileKind(path: livePath(id)) == .missing, (try? moveBack(path, to: livePath(id))) != nil
        {
          count += 1
        }
      } else {
        files.removeQuietly(path)  // purged, but the removal did not finish
        count += 1
      }
    }
    return count
  }

  /// Removes files in a meme's folder that its record does not name (superseded by an edit,
  /// or temporary). Returns how many.
  @discardableResult
  func removeUnreferencedFiles(of meme: Meme) -> Int {
    let folder = livePath(meme.id)
    guard FileKind(path: folder) == .directory else { return 0 }
    let keep = Set(
      [meme.originalFile, meme.memeFile, meme.thumbnailFile].map {
        ($0 as NSString).lastPathComponent
      })
    var count = 0
    for entry in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    where !keep.contains(entry) {
      files.removeQuietly(folder + "/" + entry)
      count += 1
    }
    return count
  }

  private func rememberIndex(_ loaded: LoadedIndex) {
    setMemory(loaded)
  }

  /// Puts the original's bytes at `path` (the caller flushes the folder): a link to
  /// `meme.originalFile` when that file holds them, else written. The draft's pictures are
  /// written once and replaced only by rename, so the two names never see each other's changes:
  /// clearing the draft or deleting the meme removes one name, and the bytes stay for the other.
  private func placeOriginal(of meme: NewMeme, at path: String) throws {
    if let source = meme.originalFile, files.link(source, to: path, holding: meme.original) {
      return
    }
    try files.write(meme.original, to: path, synchronizingDirectory: false)
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
