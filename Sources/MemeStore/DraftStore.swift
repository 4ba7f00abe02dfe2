import Foundation
import MemeCore
import MemeSystem

#if canImport(Glibc)
  import Glibc
#endif

/// Saves the editor's draft and its undo history after every change, so the next start (after a
/// quit or a crash) restores it. Layout of `directory` (`<home>/draft`): `draft.plist` (XML),
/// `images/<sha256>` (each picture's original bytes, written once), `.lock` (held around each
/// change), `.session` (held by the session whose draft it is).
///
/// One draft per session: a memesh whose `<home>/draft` belongs to another running session
/// (its `.session` lock is held) keeps its own in `<home>/draft-2` (then `-3`…) and says so, so
/// no session's save, share or cancel touches another's draft. The kernel drops the lock when a
/// session ends or crashes, and the next session restores that draft.
public final class DraftStore: @unchecked Sendable {
  /// The draft's directory.
  public var directory: URL { memoryLock.withLock { slot.directory } }
  var files: DurableFiles { memoryLock.withLock { slot.files } }
  /// One line to show at start when this session's draft is not `<home>/draft` (another running
  /// session has that one), or nil.
  public var notice: String? { memoryLock.withLock { slotNotice } }
  private let memoryLock = NSLock()
  private let fileSystem: any StoreFileSystem
  /// The slots to choose from (`draft`, `draft-2`…) when opened by home; one when by folder.
  private let candidates: [URL]
  private var slot: Slot
  private var slotNotice: String?
  /// The draft file as this session last read or wrote it; a different file there is checked
  /// before it is replaced.
  private var knownDraft: FileIdentity?
  /// Why writing must wait: a damaged draft that could not be moved aside.
  private var blockedBy: StoreError?
  /// The image names referenced at the last cleanup; the images folder is only listed again
  /// when this changes, keeping saves cheap.
  private var lastReferenced: Set<String>?
  /// How the last background save finished, until `takeBackgroundOutcome` takes it.
  private var backgroundOutcome: Result<Void, any Error>?
  /// Says at exit that the last background save failed.
  private var exitReporter: (@Sendable (any Error) -> Void)?

  /// The schema written in `draft.plist`: 2 keeps each step's recipe as text boxes, 1 had a top
  /// and a bottom caption (read as boxes 1 and 2).
  static let currentVersion = 2

  /// Uses `directory` (created on the first save).
  public convenience init(directory: URL, fileSystem: any StoreFileSystem = POSIXFileSystem()) {
    self.init(candidates: [directory.standardizedFileURL], fileSystem: fileSystem)
  }

  /// The draft store of a memesh home: `<home>/draft`, or the first `<home>/draft-N` no other
  /// running session holds (see the type's comment).
  public convenience init(home: URL, fileSystem: any StoreFileSystem = POSIXFileSystem()) {
    let base = home.standardizedFileURL
    let names = ["draft"] + (2...DraftSlots.count).map { "draft-\($0)" }
    self.init(candidates: names.map { base.appendingPathComponent($0) }, fileSystem: fileSystem)
  }

  private init(candidates: [URL], fileSystem: any StoreFileSystem) {
    self.candidates = candidates
    self.fileSystem = fileSystem
    self.slot = Slot(candidates[0], fileSystem)
    if candidates.count > 1 { chooseSlot(writing: false) }
  }

  /// One place a draft can be kept.
  private struct Slot {
    var directory: URL
    var files: DurableFiles
    init(_ directory: URL, _ fileSystem: any StoreFileSystem) {
      self.directory = directory
      self.files = DurableFiles(operations: fileSystem, root: directory.path)
    }
  }

  /// Picks the first slot this process holds or can hold; when `writing`, creates it and takes
  /// its `.session` lock. A slot that does not exist yet is taken only when writing.
  private func chooseSlot(writing: Bool) {
    var busy: URL?
    for candidate in candidates {
      let path = candidate.path
      if DraftSlots.holds(path) {
        setSlot(candidate, busy: busy)
        return
      }
      if FileKind(path: path) == .missing {
        if !writing {
          setSlot(candidate, busy: busy)
          return
        }
        if MemeStore.makeDirectories(path) != nil { continue }
      }
      switch DraftSlots.claim(path) {
      case .claimed:
        setSlot(candidate, busy: busy)
        return
      case .busy:
        busy = busy ?? candidate
      case .unusable:
        continue
      }
    }
    // Every slot busy or unusable: stay where we are; saves report what fails.
  }

  private func setSlot(_ directory: URL, busy: URL?) {
    memoryLock.withLock {
      if slot.directory != directory {
        slot = Slot(directory, fileSystem)
        knownDraft = nil
      }
      if let busy {
        slotNotice =
          "draft: another memesh session is editing the draft in '\(busy.path)'; this session "
          + "keeps its own draft in '\(directory.path)'"
      }
    }
  }

  /// Before the first write: this slot created and held, else the next free one.
  private func claimForWriting() {
    let current = directory.path
    if candidates.count > 1, !DraftSlots.holds(current) { chooseSlot(writing: true) }
  }

  var documentPath: String { directory.path + "/draft.plist" }
  var imagesPath: String { directory.path + "/images" }
  var lockPath: String { directory.path + "/.lock" }

  /// The file holding the saved bytes of the picture with this SHA-256, once it is in place (or
  /// the saves under way have finished without it); nil when there is none. A share links it as
  /// the meme's original. It does not wait for the rest of a save (the draft document, its
  /// fsyncs): the share writes the store meanwhile, and clears the draft afterwards, which
  /// waits for the saves (`clear`). The picture is in place only whole and fsynced (written by
  /// temporary name, fsync and rename, never changed in place), and the store checks its bytes
  /// before linking it.
  public func savedImagePath(sha256: String) -> String? {
    let path = imageURL(sha256: sha256).path
    let saved = {
      if case .file = FileKind(path: path) { return true }
      return false
    }
    DraftSaveQueue.shared.wait(until: saved)
    return saved() ? path : nil
  }

  /// Where the bytes of the picture with this SHA-256 are kept.
  public func imageURL(sha256: String) -> URL {
    URL(fileURLWithPath: imagesPath + "/" + sha256.lowercased())
  }

  /// Saves `document` (bounded to `DraftDocument.maximumSteps`) atomically. `images` maps a
  /// SHA-256 to a picture's original bytes; each is written only if not saved already, so
  /// passing the current picture every time is cheap. Images no step names are removed.
  public func save(_ document: DraftDocument, images: [String: Data] = [:]) throws {
    DraftSaveQueue.shared.waitUntilIdle()
    try write(document, images: images)
  }

  /// Saves as `save` does, on a thread of its own, and returns at once: the editor goes on while
  /// the picture's megabytes and the document are written and synced. Saves run in order, a
  /// waiting one is replaced by a newer one, and reading or clearing the draft waits for them, as
  /// does the process's exit. The draft on disk is always one whole saved state; a crash loses at
  /// most the changes of the save under way. `takeBackgroundOutcome` tells how the saves went;
  /// a failure nobody took by the exit is handed to `reportAtExit`.
  public func saveInBackground(
    _ document: DraftDocument, images: [String: Data],
    reportAtExit: @escaping @Sendable (any Error) -> Void
  ) {
    memoryLock.withLock { exitReporter = reportAtExit }
    DraftSaveQueue.shared.enqueue(self, document, images: images)
  }

  /// How the background saves finished since the last call: nil when none did, else the last
  /// one's result. `waiting` first waits for the saves under way.
  public func takeBackgroundOutcome(waiting: Bool) -> Result<Void, any Error>? {
    if waiting { DraftSaveQueue.shared.waitUntilIdle() }
    return memoryLock.withLock {
      defer { backgroundOutcome = nil }
      return backgroundOutcome
    }
  }

  /// Waits until the background saves of every draft store have finished (before the folder
  /// they write to is removed).
  public static func waitForBackgroundSaves() {
    DraftSaveQueue.shared.waitUntilIdle()
  }

  /// Called by the queue after each background save.
  func finishedBackgroundSave(_ result: Result<Void, any Error>) {
    memoryLock.withLock { backgroundOutcome = result }
  }

  /// At exit, after the last background save: reports its failure if no one took it.
  func reportUntakenFailure() {
    let (outcome, reporter) = memoryLock.withLock { (backgroundOutcome, exitReporter) }
    if case .failure(let error) = outcome { reporter?(error) }
  }

  /// The body of `save`, run by the caller or the background queue.
  func write(_ document: DraftDocument, images: [String: Data]) throws {
    let document = document.bounded()
    guard !document.steps.isEmpty else {
      try remove()
      return
    }
    let referenced = Set(document.steps.compactMap { $0.sourceSHA256?.lowercased() })
    for sha in referenced where !Self.isSHA256(sha) {
      throw StoreError.fileSystem(
        action: "save the draft to", path: documentPath, reason: "'\(sha)' is not a SHA-256")
    }
    let file = DraftFile(
      version: Self.currentVersion, steps: document.steps,
      current: min(max(0, document.current), document.steps.count - 1))
    let encoder = PropertyListEncoder()
    encoder.outputFormat = .xml
    let xml = try encoder.encode(file)
    claimForWriting()
    if let unusable = MemeStore.makeDirectories(directory.path) {
      throw StoreError.fileSystem(
        action: "save the draft to", path: directory.path, reason: unusable)
    }
    let files = self.files
    let root: Directory
    do {
      root = try files.rootDirectory()
    } catch {
      throw StoreError.system(error)
    }
    try StoreLock.withExclusiveLock(".lock", in: root) {
      try setAsideUnknownDraft()
      // Temporary files of a save cut short (a crash): memesh's own names, under the lock.
      for entry in files.entries(directory.path) where entry.hasPrefix(DurableFiles.temporaryPrefix) {
        files.removeQuietly(directory.path + "/" + entry)
      }
      var wroteImage = false
      for (sha, bytes) in images {
        let name = sha.lowercased()
        guard referenced.contains(name), files.kind(imagesPath + "/" + name) == .missing
        else { continue }
        if !wroteImage { try files.makeDirectory(imagesPath) }
        // Noted with the bytes as the file stands before its name appears (`WrittenFiles`).
        let (file, temporary) = try files.writeTemporary(bytes, to: imagesPath + "/" + name)
        let written = file.directory.status(of: temporary)
        try files.moveIntoPlace(temporary, file, synchronizingDirectory: false)
        if let written {
          WrittenFiles.shared.record(written, path: imagesPath + "/" + name, bytes: bytes)
        }
        DraftSaveQueue.shared.announceProgress()
        wroteImage = true
      }
      if wroteImage { try files.synchronizeDirectory(imagesPath) }
      try files.write(xml, to: documentPath)
      let written = FileIdentity(path: documentPath)
      memoryLock.withLock { knownDraft = written }
      let previous = memoryLock.withLock { lastReferenced }
      if previous != referenced || wroteImage {
        removeImages(except: referenced)
        memoryLock.withLock { lastReferenced = referenced }
      }
    }
  }

  /// The saved draft, or nil when there is none. A damaged draft is moved aside (the message
  /// names where) and reported as a one-line `StoreError`.
  public func load() throws -> DraftDocument? {
    DraftSaveQueue.shared.waitUntilIdle()
    let document = try read(movingAsideDamage: true)
    let read = FileIdentity(path: documentPath)
    memoryLock.withLock { knownDraft = read }
    return document
  }

  /// The largest draft file memesh reads (300 steps of the longest captions fit).
  static let maximumSize = 64 << 20

  /// Reads and checks the draft file; nil when there is none. A damaged one is moved aside when
  /// `movingAsideDamage` (the error says where), else only reported.
  private func read(movingAsideDamage: Bool) throws -> DraftDocument? {
    let path = documentPath
    func damaged(_ reason: String) -> StoreError {
      movingAsideDamage
        ? self.damaged(reason) : .damagedDraft(path: path, reason: reason, movedTo: nil)
    }
    switch files.kind(path) {
    case .missing: return nil
    case .file: break
    case .symlink: throw damaged("it is a symlink")
    case .directory, .other: throw damaged("it is not a regular file")
    }
    let data: Data
    do {
      data = try files.read(path, limit: Self.maximumSize)
    } catch {
      if error.code == EFBIG { throw damaged("it is larger than memesh writes") }
      throw StoreError.damagedDraft(path: path, reason: error.reason, movedTo: nil)
    }
    guard !data.isEmpty else { throw damaged("the file is empty") }
    guard StoreIndex.nestingDepth(of: data) <= StoreIndex.maximumNesting else {
      throw damaged("nested too deeply")
    }
    if let bad = StoreIndex.malformedNumber(in: data) {
      throw damaged("a <\(bad)> holds something that is not a number")
    }
    // The version first: a newer draft may not decode at all, and is refused, never moved.
    if let version = try? PropertyListDecoder().decode(DraftFile.Version.self, from: data).version,
      version > Self.currentVersion
    {
      throw StoreError.damagedDraft(
        path: path, reason: "written by a newer memesh (version \(version))", movedTo: nil)
    }
    let file: DraftFile
    do {
      file = try StoreIndex.plistDecoder().decode(DraftFile.self, from: data)
    } catch {
      throw damaged("not a draft plist")
    }
    guard !file.steps.isEmpty, file.steps.indices.contains(file.current) else {
      throw damaged("its current step \(file.current) is out of range")
    }
    for step in file.steps {
      if let sha = step.sourceSHA256, !Self.isSHA256(sha.lowercased()) {
        throw damaged("'\(sha.prefix(80))' is not a SHA-256")
      }
      if let problem = Self.numberProblem(in: step) { throw damaged(problem) }
    }
    return DraftDocument(steps: file.steps, current: file.current).bounded()
  }

  /// What no memesh writes in a step: a caption past the typed limit, an impossible crop, an
  /// id out of range.
  static func numberProblem(in step: DraftStep) -> String? {
    if (step.sourcePath?.utf8.count ?? 0) > 65536 {
      return "a name is longer than memesh writes"
    }
    if let id = step.editingID, !(1...maximumMemeID).contains(id) {
      return "meme id \(id) is out of range"
    }
    return nil
  }

  /// Under the lock, before a save replaces the draft file: a file there that this session did
  /// not read or write (restored from a backup, or damaged) is checked, and moved aside when
  /// memesh cannot read it, so no draft is ever overwritten unread.
  private func setAsideUnknownDraft() throws {
    if let blocked = memoryLock.withLock({ blockedBy }) { throw blocked }
    let identity = FileIdentity(path: documentPath)
    guard let identity, identity != memoryLock.withLock({ knownDraft }) else { return }
    do {
      _ = try read(movingAsideDamage: true)
    } catch let error as StoreError {
      if case .damagedDraft(_, _, let movedTo) = error, movedTo == nil {
        memoryLock.withLock { blockedBy = error }
        throw error
      }
    }
  }

  /// The original bytes of a draft's picture.
  public func imageData(sha256: String) throws -> Data {
    DraftSaveQueue.shared.waitUntilIdle()
    let name = sha256.lowercased()
    guard Self.isSHA256(name), let data = try? files.read(imagesPath + "/" + name) else {
      throw StoreError.missingDraftImage(sha256: name)
    }
    return data
  }

  /// Forgets the draft (after a share, or `new`).
  public func clear() throws {
    DraftSaveQueue.shared.waitUntilIdle()
    try remove()
  }

  /// Forgets the draft only while it is still `document` (as `load` returned it): a draft that
  /// another memesh saved since is left alone.
  public func clear(ifStill document: DraftDocument) throws {
    DraftSaveQueue.shared.waitUntilIdle()
    try remove(onlyIf: document)
  }

  /// The body of `clear`: removes the draft, or only when it is `onlyIf`.
  private func remove(onlyIf expected: DraftDocument? = nil) throws {
    let files = self.files
    guard FileKind(path: directory.path) == .directory, let root = try? files.rootDirectory()
    else { return }
    try StoreLock.withExclusiveLock(".lock", in: root) {
      if let expected {
        // Read as `load` does, without moving a damaged file aside.
        guard (try? read(movingAsideDamage: false)) == expected else { return }
      } else if FileIdentity(path: documentPath) != memoryLock.withLock({ knownDraft }) {
        // Not the draft this session knows: checked (and moved aside if damaged) first.
        try setAsideUnknownDraft()
      }
      try files.remove(documentPath)
      memoryLock.withLock { knownDraft = nil }
      try files.synchronizeDirectory(directory.path)
      removeImages(except: [])
      memoryLock.withLock { lastReferenced = [] }
    }
  }

  // MARK: - Helpers

  /// Moves a damaged draft aside so the next save starts fresh, and says where it went: to the
  /// first free name of `draft.plist.damaged`, `draft.plist.damaged-2` … (never over a draft
  /// damaged before).
  private func damaged(_ reason: String) -> StoreError {
    for number in 1...1000 {
      let aside = documentPath + ".damaged" + (number == 1 ? "" : "-\(number)")
      guard files.kind(aside) == .missing else { continue }
      if (try? files.renameWithoutReplacing(documentPath, to: aside)) != nil {
        memoryLock.withLock { blockedBy = nil }
        return .damagedDraft(path: documentPath, reason: reason, movedTo: aside)
      }
      break
    }
    let error = StoreError.damagedDraft(path: documentPath, reason: reason, movedTo: nil)
    memoryLock.withLock { blockedBy = error }
    return error
  }

  /// Removes the draft's pictures no step names: only names memesh gives them (a SHA-256) or
  /// its temporary names; anything else in the folder is left alone.
  private func removeImages(except referenced: Set<String>) {
    for entry in files.entries(imagesPath)
    where !referenced.contains(entry)
      && (Self.isSHA256(entry) || entry.hasPrefix(DurableFiles.temporaryPrefix))
    {
      files.removeQuietly(imagesPath + "/" + entry)
      WrittenFiles.shared.forget(imagesPath + "/" + entry)
    }
  }

  /// 64 lowercase hex digits: safe as a file name.
  static func isSHA256(_ text: String) -> Bool {
    text.utf8.count == 64
      && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
  }
}

/// `draft.plist` on disk: the document plus a schema version.
private struct DraftFile: Codable {
  var version: Int
  var steps: [DraftStep]
  var current: Int

  /// The version alone, read before the rest.
  struct Version: Decodable {
    var version: Int
  }
}
