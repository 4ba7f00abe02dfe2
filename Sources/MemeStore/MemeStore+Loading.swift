import Foundation
import MemeCore
import MemeSystem

extension MemeStore {
  /// The cache beside the index.
  static func cachePath(forIndex indexPath: String) -> String {
    (indexPath as NSString).deletingLastPathComponent + "/.index.cache"
  }

  /// The index from the cache alone, without reading the XML: only when the cache trusts exactly
  /// the file `indexPath` names now (see `IndexCache`). Nil sends the caller to `load`.
  static func quickLoad(indexPath: String) -> (FileIdentity, CachedIndex)? {
    var status = stat()
    guard lstat(indexPath, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
    let identity = FileIdentity(status)
    let cachePath = cachePath(forIndex: indexPath)
    guard let file = CacheFile(path: cachePath),
      let header = file.bytes(0..<min(file.size, IndexCache.bodyOffset)),
      IndexCache.trustedIdentity(in: header) == identity,
      let cached = IndexCache.open(
        size: file.size, xmlSize: nil, xmlHash: nil, read: { file.bytes($0) })
    else { return nil }
    return (identity, cached)
  }

  /// Reads the index: the memory copy or the cache when the XML is unchanged, else the XML.
  /// A missing index is an empty store; an unreadable one throws `StoreError.damagedIndex`.
  /// `useCache: false` parses the XML even when the cache matches it (a cache record that did not
  /// decode).
  static func load(
    indexPath: String, directory: String, files: DurableFiles, memory: LoadedIndex?,
    writeCache: Bool, settleTime: Double, useCache: Bool = true
  ) throws -> LoadedIndex {
    switch FileKind(path: indexPath) {
    case .missing:
      return LoadedIndex(
        index: StoreIndex(nextID: firstFreeID(in: directory)), xml: nil, xmlHash: 0, parsed: true)
    case .file:
      break
    case .symlink:
      throw StoreError.damagedIndex(path: indexPath, reason: "it is a symlink, refused")
    case .directory, .other:
      throw StoreError.damagedIndex(path: indexPath, reason: "it is not a regular file")
    }
    if let memory, useCache || memory.parsed, let opened = memory.opened,
      opened.isCurrent(atPath: indexPath)
    {
      return memory
    }
    let opened: OpenedFile
    let xml: Data
    do {
      (opened, xml) = try OpenedFile.read(atPath: indexPath, settleTime: settleTime)
    } catch {
      throw StoreError.damagedIndex(path: indexPath, reason: error.reason)
    }
    let hash = IndexCache.hash(xml)
    if let memory, memory.parsed, memory.xml == xml {
      return LoadedIndex(index: memory.index, xml: xml, xmlHash: hash, opened: opened, parsed: true)
    }
    if useCache, let memory, memory.xml?.count == xml.count, memory.xmlHash == hash {
      return LoadedIndex(index: memory.index, xml: xml, xmlHash: hash, opened: opened)
    }
    let cachePath = cachePath(forIndex: indexPath)
    if useCache, FileKind(path: cachePath) != .symlink,
      let cache = try? Data(contentsOf: URL(fileURLWithPath: cachePath)),
      let index = IndexCache.open(cache, xmlSize: xml.count, xmlHash: hash)?.index()
    {
      if writeCache, opened.settled, IndexCache.trustedIdentity(in: cache) != opened.identity {
        // The XML read now is the one the cache was made from, and has not changed for a while:
        // from now on its identity alone vouches for it.
        saveCache(IndexCache.trusting(cache, identity: opened.identity), next: indexPath, files)
      }
      return LoadedIndex(index: index, xml: xml, xmlHash: hash, opened: opened)
    }
    let index: StoreIndex
    do {
      index = try StoreIndex.decode(xml: xml)
    } catch {
      throw StoreError.damagedIndex(path: indexPath, reason: error.reason)
    }
    if writeCache {
      let cache = IndexCache.encode(
        index, xmlSize: xml.count, xmlHash: hash, identity: opened.identity,
        trusted: opened.settled)
      saveCache(cache, next: indexPath, files)
    }
    return LoadedIndex(index: index, xml: xml, xmlHash: hash, opened: opened, parsed: true)
  }

  /// Writes the cache beside `indexPath` atomically but without fsync: it is derived, and a torn
  /// or stale cache only costs a slower start. Failures are ignored for the same reason.
  static func saveCache(_ data: Data, next indexPath: String, _ files: DurableFiles) {
    files.writeQuickly(data, to: cachePath(forIndex: indexPath))
  }

  /// With no index, the first id above every meme folder present (live or in the trash), so ids
  /// are never reused even when the index was lost.
  static func firstFreeID(in directory: String) -> Int {
    highestFolderID(in: directory) + 1
  }

  /// The highest meme id among the folders of the store and of its trash (0 when none).
  static func highestFolderID(in directory: String) -> Int {
    var highest = 0
    for folder in [directory, directory + "/trash"] {
      for (id, _) in numericEntries(inDirectory: folder) { highest = max(highest, id) }
    }
    return highest
  }
}
