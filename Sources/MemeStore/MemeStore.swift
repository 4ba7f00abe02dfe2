import Foundation
import MemeCore
import MemeSystem

/// What a share hands the store: the recipe and the three files' bytes, and where the original's
/// bytes already are on disk, if anywhere.
public struct NewMeme: Sendable {
  /// The crop, font and text boxes.
  public var recipe: MemeRecipe
  public var format: ImageFormat
  public var width: Int
  public var height: Int
  public var sourceName: String
  public var originalSHA256: String
  public var original: Data
  public var rendered: Data
  public var thumbnail: Data
  /// A file holding `original`'s bytes that is never changed in place (the draft's copy of the
  /// picture): the store then links it (`link(2)`) rather than writing and syncing the bytes a
  /// second time. The store checks the bytes and writes them itself when it cannot link.
  public var originalFile: String?

  public init(
    recipe: MemeRecipe, format: ImageFormat, width: Int, height: Int, sourceName: String,
    originalSHA256: String, original: Data, rendered: Data, thumbnail: Data,
    originalFile: String? = nil
  ) {
    self.recipe = recipe
    self.format = format
    self.width = width
    self.height = height
    self.sourceName = sourceName
    self.originalSHA256 = originalSHA256
    self.original = original
    self.rendered = rendered
    self.thumbnail = thumbnail
    self.originalFile = originalFile
  }
}

/// The sent-memes store: an XML plist index plus per-meme files under one directory.
///
/// Layout of `directory` (`<home>/memes`): `index.plist` (the truth), `<id>/original.<ext>`,
/// `<id>/meme.<ext>`, `<id>/thumb.png`, `<id>/record.plist` (the meme's own record, so a folder
/// the index lost can be taken back), `trash/<id>/…` for deleted memes, `.lock` (flock),
/// `.index.cache` (a derived fast copy of the index). Every change happens under the lock with
/// the index re-read from its XML, files before the index that names them, each written
/// atomically, every path reached from the store's folder without following a symlink.
///
/// The index decides, and what it does not list is kept: a numeric folder it does not name is
/// never removed and its id never handed out again; one holding a whole meme with its record is
/// taken back into the index (with a note), any other is reported. Only names memesh can prove
/// it made (`.tmp-…`) are removed as leftovers.
public final class MemeStore: @unchecked Sendable {
  /// How many deleted memes `undoDelete` can bring back; older deletions are purged.
  public static let defaultTrashLimit = 50

  /// The store's directory (`<home>/memes`).
  public let directory: URL
  /// True when the store can only be read: its index is damaged or from a newer memesh, or the
  /// directory cannot be created. Shares then fail with a one-line error.
  public let isReadOnly: Bool
  /// One line to show at start: why the store opened read-only, or which folders the index did
  /// not list (taken back, or kept and reported).
  public private(set) var notice: String?
  /// How many deletions are kept for undo.
  public let trashLimit: Int

  let files: DurableFiles
  let clock: @Sendable () -> Date
  /// Why writes are refused (a damaged index), or nil.
  let readOnlyReason: String?
  /// How long the index must have been unchanged before the cache may vouch for it by the
  /// file's identity (`OpenedFile.settled`); tests shorten it.
  let settleTime: Double
  let memoryLock = NSLock()
  private var memory: LoadedIndex?
  /// The last index read from the cache alone, and the index file's identity it was for.
  private var quickMemory: (FileIdentity, CachedIndex)?
  /// How many leftovers the last tidy removed or moved (for `repair`).
  var lastTidyCount: Int {
    get { memoryLock.withLock { tidied } }
    set { memoryLock.withLock { tidied = newValue } }
  }
  private var tidied = 0
  /// What tidying found to tell the user (folders taken back or kept), until taken.
  var tidyNotes: [String] = []
  /// Set when the index on disk is not the one memesh last wrote (its cache names other XML):
  /// the next tidy checks every meme's files.
  var thoroughCheckPending = false

  /// Opens (creating when missing) the store in `directory`.
  public convenience init(directory: URL) throws {
    self.init(directory: directory, fileSystem: POSIXFileSystem())
  }

  /// Opens the store in `directory` doing its writes through `fileSystem`. Never fails: a damaged
  /// index opens read-only with `notice` saying what is wrong.
  public convenience init(
    directory: URL, fileSystem: any StoreFileSystem, trashLimit: Int = MemeStore.defaultTrashLimit,
    clock: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.init(
      directory: directory, fileSystem: fileSystem, trashLimit: trashLimit, clock: clock,
      settleTime: 3)
  }

  /// As above, trusting an index file unchanged for `settleTime` seconds by its identity.
  init(
    directory: URL, fileSystem: any StoreFileSystem, trashLimit: Int = MemeStore.defaultTrashLimit,
    clock: @escaping @Sendable () -> Date = { Date() }, settleTime: Double
  ) {
    self.directory = directory.standardizedFileURL
    self.settleTime = settleTime
    self.files = DurableFiles(operations: fileSystem, root: self.directory.path)
    self.trashLimit = max(1, trashLimit)
    self.clock = clock
    let unusable = Self.makeDirectories(self.directory.path)
    let indexPath = self.directory.path + "/index.plist"
    var reason: String?
    var notice: String?
    var loaded: LoadedIndex?
    // A cache that vouches for the index file as it is now saves reading it: it was checked.
    let quick = Self.quickLoad(indexPath: indexPath)
    // The cache's header as it was before this open rewrites it: what memesh last wrote.
    let lastWritten = quick == nil ? Self.cacheHeader(indexPath: indexPath) : nil
    do {
      if quick == nil {
        loaded = try Self.load(
          indexPath: indexPath, directory: self.directory.path, files: files, memory: nil,
          writeCache: true, settleTime: settleTime)
      }
    } catch let error as StoreError {
      if case .damagedIndex(_, let why) = error {
        reason = "its index is damaged (\(why))"
        notice =
          "store: cannot read '\(indexPath)': \(why); left as is, sent memes are read-only until "
          + "it is repaired or moved away"
      } else {
        reason = error.message
        notice = "store: \(error.message)"
      }
    } catch {
      reason = "\(error)"
      notice = "store: \(error)"
    }
    if reason == nil, let unusable {
      reason = unusable
      notice = "store: cannot use '\(self.directory.path)': \(unusable); sharing will fail"
    }
    if reason == nil, FileKind(path: indexPath) == .missing,
      let foreign = Self.foreignEntry(in: self.directory.path)
    {
      // A --home that already held a 'memes' folder of someone else's files: never memesh's.
      reason = "it holds '\(foreign)', which memesh did not make"
      notice =
        "store: refused '\(self.directory.path)': it holds '\(foreign)', which memesh did not "
        + "make; sharing will fail (choose another --home)"
    }
    self.readOnlyReason = reason
    self.isReadOnly = reason != nil
    self.notice = notice
    self.memory = loaded
    self.quickMemory = quick
    if reason == nil {
      let elsewhere =
        loaded.map { Self.cacheDisagrees(header: lastWritten, with: $0) } ?? false
      self.notice = takeBackUnlistedFolders(indexChangedElsewhere: elsewhere)
    }
  }

  /// Whether a cache exists that was made from other XML than `loaded`'s: memesh writes the
  /// cache after every index it writes, so the index was put there by something else (or a
  /// crash fell between the two writes).
  static func cacheDisagrees(header: Data?, with loaded: LoadedIndex) -> Bool {
    guard let xml = loaded.xml, let header else { return false }
    return !IndexCache.describes(header, xmlSize: xml.count, xmlHash: loaded.xmlHash)
  }

  /// The first bytes of the cache beside `indexPath` (its header), or nil when there is none.
  static func cacheHeader(indexPath: String) -> Data? {
    guard let file = CacheFile(path: cachePath(forIndex: indexPath)) else { return nil }
    return file.bytes(0..<min(file.size, IndexCache.bodyOffset))
  }

  /// The first name in a store folder without an index that memesh would not have made there
  /// (its numbered folders, the trash, the lock, the cache, temporary names), or nil.
  static func foreignEntry(in path: String) -> String? {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
    let own: Set<String> = ["trash", ".lock", ".index.cache", "index.plist"]
    return entries.sorted().first { entry in
      !own.contains(entry) && memeID(folderName: entry) == nil
        && !entry.hasPrefix(DurableFiles.temporaryPrefix) && !isKeptIndex(entry)
    }
  }

  /// Creates the folder `path` (absolute) and its missing parents. Nil when it is a folder then,
  /// else why not: "'/home/me/notes' is not a directory", "permission denied", "cannot create
  /// '/srv/memesh': permission denied". The folders above it may be symlinks, `path` itself not
  /// (the store writes only into real folders).
  static func makeDirectories(_ path: String) -> String? {
    var prefix = ""
    for component in path.split(separator: "/") {
      prefix += "/" + component
      var status = stat()
      if prefix == path, lstat(prefix, &status) == 0, status.st_mode & S_IFMT == S_IFLNK {
        return "it is a symlink, refused"
      }
      if stat(prefix, &status) == 0 {
        guard status.st_mode & S_IFMT == S_IFDIR else { return "'\(prefix)' is not a directory" }
        continue
      }
      if mkdir(prefix, 0o700) != 0, errno != EEXIST {
        let reason = SystemError.reason(errno, creating: true)
        return prefix == path ? reason : "cannot create '\(prefix)': \(reason)"
      }
    }
    return nil
  }

  /// Opens the store under `home` (`<home>/memes`); the notice, if any, is one line to show.
  public static func open(
    home: URL, fileSystem: any StoreFileSystem = POSIXFileSystem()
  ) -> (store: MemeStore, notice: String?) {
    let store = MemeStore(
      directory: home.appendingPathComponent("memes"), fileSystem: fileSystem)
    return (store, store.notice)
  }

  // MARK: - Paths

  var indexPath: String { directory.path + "/index.plist" }
  var lockPath: String { directory.path + "/.lock" }
  var trashPath: String { directory.path + "/trash" }
  /// The live directory of meme `id`.
  func livePath(_ id: Int) -> String { directory.path + "/\(id)" }
  /// Where meme `id`'s directory goes while it is in the trash.
  func trashedPath(_ id: Int) -> String { trashPath + "/\(id)" }

  /// The index file (`<directory>/index.plist`).
  public var indexURL: URL { directory.appendingPathComponent("index.plist") }

  /// The absolute URL of a store-relative file name.
  public func url(for relativePath: String) -> URL {
    directory.appendingPathComponent(relativePath)
  }

  // MARK: - Reading

  /// All memes, oldest first. A meme whose files are missing or outside the store carries a
  /// `problem`; the others are unaffected.
  ///
  /// Listing checks each meme's file names and that its folder exists (one directory listing,
  /// cheap for 10,000 memes); `meme(id:)` checks the files themselves.
  public func memes() throws -> [Meme] {
    let memes = try wholeIndex().memes
    let folders = numericEntries(inDirectory: directory.path)
    return memes.map { meme in
      var meme = meme
      meme.problem = problem(of: meme, checking: .paths)
      guard meme.problem == nil else { return meme }
      switch folders[meme.id] {
      case true?: break
      case false? where files.kind(livePath(meme.id)) == .symlink:
        meme.problem = "refused: its folder '\(livePath(meme.id))' is a symlink"
      case false?: meme.problem = "refused: its folder '\(livePath(meme.id))' is not a directory"
      case nil: meme.problem = "its folder '\(livePath(meme.id))' is missing"
      }
      return meme
    }
  }

  /// Whether the store holds any meme, without checking every meme's files as `memes()` does
  /// (the shell asks at start-up; on 10,000 memes that check costs more than the answer).
  public func hasMemes() throws -> Bool {
    switch try view() {
    case .decoded(let index): !index.memes.isEmpty
    case .cached(let cached): !cached.ids.isEmpty
    }
  }

  /// One meme by id, its files checked (present, not symlinks, PNG or JPEG bytes). From a cache
  /// that vouches for the index, only this meme's record is decoded.
  public func meme(id: Int) throws -> Meme {
    let found: Meme?
    switch try view() {
    case .decoded(let index):
      found = Self.position(of: id, in: index.memes).map { index.memes[$0] }
    case .cached(let cached):
      switch cached.meme(id: id) {
      case .found(let meme): found = meme
      case .absent: found = nil
      case .damaged:
        let index = try readXML().index
        found = Self.position(of: id, in: index.memes).map { index.memes[$0] }
      }
    }
    guard let found else { throw StoreError.noMeme(id: id) }
    return withProblem(found, checking: .contents)
  }

  /// The memes made from the original whose bytes have this SHA-256 (lowercase hex), oldest
  /// first: how `load` of a memesh-written file finds the meme to edit again.
  public func memes(withOriginalSHA256 sha256: String) throws -> [Meme] {
    let wanted = sha256.lowercased()
    return try wholeIndex().memes.filter { $0.originalSHA256.lowercased() == wanted }
      .map { withProblem($0, checking: .contents) }
  }

  /// The meme `undoDelete` would bring back and when it was deleted; nil when the trash is empty.
  public func lastDeletion() throws -> (id: Int, deleted: Date)? {
    try wholeIndex().trash.last.map { ($0.meme.id, $0.deleted) }
  }

  /// Deleted memes with when each was deleted, oldest deletion first.
  public func deletions() throws -> [(meme: Meme, deleted: Date)] {
    try wholeIndex().trash.map { ($0.meme, $0.deleted) }
  }

  /// Deleted memes that `undoDelete` can still bring back, oldest deletion first.
  public func deletedMemes() throws -> [Meme] {
    try wholeIndex().trash.map(\.meme)
  }

  /// The index for reading: from the cache alone when it vouches for the index file as it is now
  /// (records decoded on demand), else as `current()` reads it.
  func view() throws -> IndexView {
    let (remembered, quick) = memoryLock.withLock { (memory, quickMemory) }
    if let remembered, let opened = remembered.opened, opened.isCurrent(atPath: indexPath) {
      return .decoded(remembered.index)
    }
    if let quick, FileIdentity(path: indexPath) == quick.0 { return .cached(quick.1) }
    if let found = Self.quickLoad(indexPath: indexPath) {
      memoryLock.withLock { quickMemory = found }
      return .cached(found.1)
    }
    return .decoded(try current().index)
  }

  /// Every meme and the trash, decoded (from the XML when a cache record does not decode).
  func wholeIndex() throws -> StoreIndex {
    switch try view() {
    case .decoded(let index): return index
    case .cached(let cached):
      if let index = cached.index() { return index }
      return try readXML().index
    }
  }

  /// The index for a change, under the lock: parsed from the XML bytes on disk now, never taken
  /// from the cache (a damaged cache must not decide what a change removes). The memory copy
  /// serves when it was parsed from, or written as, exactly these bytes.
  func currentForWriting() throws -> LoadedIndex {
    let remembered = memoryLock.withLock { memory }
    let loaded = try Self.load(
      indexPath: indexPath, directory: directory.path, files: files,
      memory: remembered?.parsed == true ? remembered : nil, writeCache: true,
      settleTime: settleTime, useCache: false)
    memoryLock.withLock { memory = loaded }
    return loaded
  }

  /// The index as it is on disk now (the memory copy when the file has not changed).
  func current() throws -> LoadedIndex {
    let remembered = memoryLock.withLock { memory }
    let loaded = try Self.load(
      indexPath: indexPath, directory: directory.path, files: files, memory: remembered,
      writeCache: !isReadOnly, settleTime: settleTime)
    memoryLock.withLock { memory = loaded }
    return loaded
  }

  /// The index parsed from the XML, ignoring the memory copy and the cache (one of whose records
  /// did not decode); rewrites the cache.
  func readXML() throws -> LoadedIndex {
    let loaded = try Self.load(
      indexPath: indexPath, directory: directory.path, files: files, memory: nil,
      writeCache: !isReadOnly, settleTime: settleTime, useCache: false)
    memoryLock.withLock {
      memory = loaded
      quickMemory = nil
    }
    return loaded
  }

  /// Replaces the memory copy of the index (after a commit).
  func setMemory(_ loaded: LoadedIndex) {
    memoryLock.withLock { memory = loaded }
  }

  /// Binary search in memes sorted by id.
  static func position(of id: Int, in memes: [Meme]) -> Int? {
    var low = 0
    var high = memes.count
    while low < high {
      let middle = (low + high) / 2
      if memes[middle].id < id { low = middle + 1 } else { high = middle }
    }
    return low < memes.count && memes[low].id == id ? low : nil
  }

  /// Now, to whole seconds: the XML index keeps whole seconds, so a meme reads back equal.
  func now() -> Date {
    Date(timeIntervalSince1970: clock().timeIntervalSince1970.rounded(.down))
  }
}

/// The index to read from: decoded whole, or the cache's records decoded on demand.
enum IndexView {
  case decoded(StoreIndex)
  case cached(CachedIndex)
}

/// The index as read, with the XML it came from (size and hash identify it).
struct LoadedIndex: Sendable {
  var index: StoreIndex
  /// The XML bytes; nil when there is no index file yet.
  var xml: Data?
  var xmlHash: UInt64
  /// The XML file read, held open so its inode cannot be reused by another file: while the path
  /// still names this very file, unchanged, the memory copy is current without reading it again.
  var opened: OpenedFile? = nil
  /// True when `index` was parsed from `xml` (or written as it), not taken from the cache.
  var parsed = false
}
