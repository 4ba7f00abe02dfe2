import Foundation
import MemeCore

extension MemeStore {
  /// The cache beside the index.
  static func cachePath(forIndex indexPath: String) -> String {
    (indexPath as NSString).deletingLastPathComponent + "/.index.cache"
  }

  /// Reads the index: the memory copy or the cache when the XML is unchanged, else the XML.
  /// A missing index is an empty store; an unreadable one throws `StoreError.damagedIndex`.
  static func load(
    indexPath: String, directory: String, files: DurableFiles, memory: LoadedIndex?,
    writeCache: Bool
  ) throws -> LoadedIndex {
    switch FileKind(path: indexPath) {
    case .missing:
      return LoadedIndex(
        index: StoreIndex(nextID: firstFreeID(in: directory)), xml: nil, xmlHash: 0)
    case .file:
      break
    case .symlink:
      throw StoreError.damagedIndex(path: indexPath, reason: "it is a symlink, refused")
    case .directory, .other:
      throw StoreError.damagedIndex(path: indexPath, reason: "it is not a regular file")
    }
    if let memory, let opened = memory.opened, opened.isCurrent(atPath: indexPath) {
      return memory
    }
    let opened: OpenedFile
    let xml: Data
    do {
      (opened, xml) = try OpenedFile.read(atPath: indexPath)
    } catch {
      throw StoreError.damagedIndex(path: indexPath, reason: error.reason)
    }
    let hash = IndexCache.hash(xml)
    if let memory, memory.xml?.count == xml.count, memory.xmlHash == hash {
      return LoadedIndex(index: memory.index, xml: xml, xmlHash: hash, opened: opened)
    }
    let cachePath = cachePath(forIndex: indexPath)
    if FileKind(path: cachePath) != .symlink,
      let cache = try? Data(contentsOf: URL(fileURLWithPath: cachePath)),
      let index = IndexCache.decode(cache, xmlSize: xml.count, xmlHash: hash)
    {
      return LoadedIndex(index: index, xml: xml, xmlHash: hash, opened: opened)
    }
    let index: StoreIndex
    do {
      index = try StoreIndex.decode(xml: xml)
    } catch {
      throw StoreError.damagedIndex(path: indexPath, reason: error.reason)
    }
    if writeCache { saveCache(index, xml: xml, hash: hash, indexPath: indexPath, files: files) }
    return LoadedIndex(index: index, xml: xml, xmlHash: hash, opened: opened)
  }

  /// Writes the cache atomically but without fsync: it is derived, and a torn or stale cache
  /// only costs a slower start. Failures are ignored for the same reason.
  static func saveCache(
    _ index: StoreIndex, xml: Data, hash: UInt64, indexPath: String, files: DurableFiles
  ) {
    let path = cachePath(forIndex: indexPath)
    let directory = (path as NSString).deletingLastPathComponent
    let temporary =
      directory + "/" + DurableFiles.temporaryPrefix + "cache-" + DurableFiles.randomToken()
    let data = IndexCache.encode(index, xmlSize: xml.count, xmlHash: hash)
    do {
      try files.fileSystem.createFile(atPath: temporary, contents: data)
      try files.fileSystem.rename(atPath: temporary, toPath: path)
    } catch {
      files.removeQuietly(temporary)
    }
  }

  /// With no index, the first id above every meme directory present, so ids are never reused
  /// even when the index was lost.
  static func firstFreeID(in directory: String) -> Int {
    var highest = 0
    for folder in [directory, directory + "/trash"] {
      let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
      for entry in entries {
        if let id = Int(entry), id > 0, String(id) == entry { highest = max(highest, id) }
      }
    }
    return highest + 1
  }
}
