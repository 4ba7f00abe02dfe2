import Foundation
import MemeCore

/// Saves the editor's draft and its undo history after every change, so the next start (after a
/// quit or a crash) restores it. Layout of `directory` (`<home>/draft`): `draft.plist` (XML),
/// `images/<sha256>` (each picture's original bytes, written once), `.lock`.
public final class DraftStore: @unchecked Sendable {
  /// The draft's directory.
  public let directory: URL
  let files: DurableFiles
  private let memoryLock = NSLock()
  /// The image names referenced at the last cleanup; the images folder is only listed again
  /// when this changes, keeping saves cheap.
  private var lastReferenced: Set<String>?
  /// How the last background save finished, until `takeBackgroundOutcome` takes it.
  private var backgroundOutcome: Result<Void, any Error>?
  /// Says at exit that the last background save failed.
  private var exitReporter: (@Sendable (any Error) -> Void)?

  /// The schema written in `draft.plist`.
  static let currentVersion = 1

  /// Uses `directory` (created on the first save).
  public init(directory: URL, fileSystem: any StoreFileSystem = POSIXFileSystem()) {
    self.directory = directory.standardizedFileURL
    self.files = DurableFiles(fileSystem: fileSystem)
  }

  /// The draft store of a memesh home (`<home>/draft`).
  public convenience init(home: URL) {
    self.init(directory: home.appendingPathComponent("draft"))
  }

  var documentPath: String { directory.path + "/draft.plist" }
  var imagesPath: String { directory.path + "/images" }
  var lockPath: String { directory.path + "/.lock" }

  /// The file holding the saved bytes of the picture with this SHA-256, once the saves under way
  /// have finished; nil when there is none. A share links it as the meme's original.
  public func savedImagePath(sha256: String) -> String? {
    DraftSaveQueue.shared.waitUntilIdle()
    let path = imageURL(sha256: sha256).path
    guard case .file = FileKind(path: path) else { return nil }
    return path
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
    try? FileManager.default.createDirectory(
      at: directory.deletingLastPathComponent(), withIntermediateDirectories: true)
    try files.makeDirectory(directory.path)
    try StoreLock.withExclusiveLock(at: lockPath) {
      var wroteImage = false
      for (sha, bytes) in images {
        let name = sha.lowercased()
        guard referenced.contains(name), FileKind(path: imagesPath + "/" + name) == .missing
        else { continue }
        if !wroteImage { try files.makeDirectory(imagesPath) }
        try files.write(bytes, to: imagesPath + "/" + name, synchronizingDirectory: false)
        wroteImage = true
      }
      if wroteImage { try files.synchronizeDirectory(imagesPath) }
      try files.write(xml, to: documentPath)
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
    let path = documentPath
    switch FileKind(path: path) {
    case .missing: return nil
    case .file: break
    case .symlink, .directory, .other: throw damaged("it is not a regular file")
    }
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw StoreError.damagedDraft(path: path, reason: "it cannot be read", movedTo: nil)
    }
    guard !data.isEmpty else { throw damaged("the file is empty") }
    guard StoreIndex.nestingDepth(of: data) <= StoreIndex.maximumNesting else {
      throw damaged("nested too deeply")
    }
    if let bad = StoreIndex.malformedNumber(in: data) {
      throw damaged("a <\(bad)> holds something that is not a number")
    }
    let file: DraftFile
    do {
      file = try PropertyListDecoder().decode(DraftFile.self, from: data)
    } catch {
      throw damaged("not a draft plist")
    }
    guard file.version <= Self.currentVersion else {
      throw StoreError.damagedDraft(
        path: path, reason: "written by a newer memesh (version \(file.version))", movedTo: nil)
    }
    guard !file.steps.isEmpty, file.steps.indices.contains(file.current) else {
      throw damaged("its current step \(file.current) is out of range")
    }
    for sha in file.steps.compactMap(\.sourceSHA256) where !Self.isSHA256(sha.lowercased()) {
      throw damaged("'\(sha)' is not a SHA-256")
    }
    return DraftDocument(steps: file.steps, current: file.current).bounded()
  }

  /// The original bytes of a draft's picture.
  public func imageData(sha256: String) throws -> Data {
    DraftSaveQueue.shared.waitUntilIdle()
    let name = sha256.lowercased()
    guard Self.isSHA256(name), FileKind(path: imagesPath + "/" + name) != .symlink,
      let data = try? Data(contentsOf: URL(fileURLWithPath: imagesPath + "/" + name))
    else { throw StoreError.missingDraftImage(sha256: name) }
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
    guard FileKind(path: directory.path) == .directory else { return }
    try StoreLock.withExclusiveLock(at: lockPath) {
      if let expected {
        // Read as `load` does, without moving a damaged file aside.
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: documentPath)),
          let file = try? PropertyListDecoder().decode(DraftFile.self, from: data),
          DraftDocument(steps: file.steps, current: file.current).bounded() == expected
        else { return }
      }
      try files.remove(documentPath)
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
    for number in 1...100 {
      let aside = documentPath + ".damaged" + (number == 1 ? "" : "-\(number)")
      guard FileKind(path: aside) == .missing else { continue }
      if (try? files.rename(documentPath, to: aside)) != nil {
        return .damagedDraft(path: documentPath, reason: reason, movedTo: aside)
      }
      break
    }
    return .damagedDraft(path: documentPath, reason: reason, movedTo: nil)
  }

  private func removeImages(except referenced: Set<String>) {
    for entry in (try? FileManager.default.contentsOfDirectory(atPath: imagesPath)) ?? []
    where !referenced.contains(entry) {
      files.removeQuietly(imagesPath + "/" + entry)
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
}
