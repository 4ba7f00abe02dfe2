import Foundation
import MemeCore
import Testing

@testable import MemeStore
import MemeSystem

@Suite struct DraftStoreTests {
  static let catSHA = String(repeating: "c", count: 64)
  static let dogSHA = String(repeating: "d", count: 64)
  static let catBytes = Data([0xFF, 0xD8, 0xFF, 0xE0] + Array("cat".utf8))
  static let dogBytes = Data([0x89, 0x50, 0x4E, 0x47] + Array("dog".utf8))

  static func step(_ label: String, top: String = "", sha: String? = catSHA) -> DraftStep {
    DraftStep(
      label: label,
      recipe: MemeRecipe(
        top: top, bottom: "BOTTOM", font: "Oswald", crop: .aspect(width: 16, height: 9)),
      sourcePath: sha == nil ? nil : "/photos/cat.jpg", sourceSHA256: sha, editingID: 3)
  }

  @Test func aSavedDraftIsRestoredByTheNextSession() throws {
    let scratch = try Scratch()
    defer { scratch.cleanUp() }
    let document = DraftDocument(
      steps: [Self.step("load"), Self.step("caption top", top: "HELLO")], current: 1)
    try DraftStore(home: scratch.url).save(document, images: [Self.catSHA: Self.catBytes])
    let next = DraftStore(home: scratch.url)
    #expect(try next.load() == document)
    #expect(try next.imageData(sha256: Self.catSHA) == Self.catBytes)
  }

  @Test func theFirstSaveCreatesAMissingHome() throws {
    let scratch = try Scratch()
    defer { scratch.cleanUp() }
    let home = scratch.url.appendingPathComponent("new/home")
    let document = DraftDocument(steps: [Self.step("new", sha: nil)], current: 0)
    try DraftStore(home: home).save(document)
    #expect(try DraftStore(home: home).load() == document)
  }

  /// PropertyListDecoder traps on non-ASCII bytes in an `<integer>`; the draft is refused and
  /// moved aside instead, with a one-line reason.
  @Test func aNumberHoldingOtherBytesIsDamageNotACrash() throws {
    let scratch = try Scratch()
    let store = DraftStore(home: scratch.url)
    try store.save(DraftDocument(steps: [Self.step("new", sha: nil)], current: 0))
    let path = scratch.url.appendingPathComponent("draft/draft.plist")
    let text = try String(contentsOf: path, encoding: .utf8)
    let marker = try #require(text.range(of: "<integer>"))
    let bytes =
      Array(text[..<marker.upperBound].utf8) + [UInt8](repeating: 0xFF, count: 16)
      + Array(text[marker.upperBound...].utf8)
    try Data(bytes).write(to: path)
    #expect(throws: StoreError.self) { try DraftStore(home: scratch.url).load() }
  }

  @Test func noDraftLoadsAsNil() throws {
    let scratch = try Scratch()
    defer { scratch.cleanUp() }
    #expect(try DraftStore(home: scratch.url).load() == nil)
  }

  @Test func imagesAreWrittenOnceAndRemovedWhenNoStepNamesThem() throws {
    let scratch = try Scratch()
    defer { scratch.cleanUp() }
    let drafts = DraftStore(home: scratch.url)
    try drafts.save(
      DraftDocument(steps: [Self.step("load")], current: 0), images: [Self.catSHA: Self.catBytes])
    let catPath = drafts.imageURL(sha256: Self.catSHA).path
    func inode() throws -> Int? {
      try FileManager.default.attributesOfItem(atPath: catPath)[.systemFileNumber] as? Int
    }
    let written = try inode()
    #expect(written != nil)
    // Saving again with the same picture does not rewrite it.
    try drafts.save(
      DraftDocument(steps: [Self.step("load"), Self.step("caption top", top: "A")], current: 1),
      images: [Self.catSHA: Self.catBytes])
    #expect(try inode() == written)
    // A new picture replaces the old once no step names the old.
    try drafts.save(
      DraftDocument(steps: [Self.step("load", sha: Self.dogSHA)], current: 0),
      images: [Self.dogSHA: Self.dogBytes])
    #expect(FileKind(path: catPath) == .missing)
    #expect(try drafts.imageData(sha256: Self.dogSHA) == Self.dogBytes)
    #expect(throws: StoreError.missingDraftImage(sha256: Self.catSHA)) {
      try drafts.imageData(sha256: Self.catSHA)
    }
  }

  @Test func longHistoriesKeepTheNewestSteps() throws {
    let scratch = try Scratch()
    defer { scratch.cleanUp() }
    let steps = (0..<(DraftDocument.maximumSteps + 50)).map { Self.step("step \($0)") }
    let drafts = DraftStore(home: scratch.url)
    try drafts.save(DraftDocument(steps: steps, current: steps.count - 2))
    let loaded = try #require(try drafts.load())
    #expect(loaded.steps.count == DraftDocument.maximumSteps)
    #expect(loaded.steps.first?.label == "step 50")
    #expect(loaded.currentStep?.label == "step \(steps.count - 2)")
  }

  @Test(arguments: [
    ("empty", Data()), ("not a plist", Data("nope".utf8)),
    (
      "out of range",
      Data(
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict><key>version</key><integer>1</integer>
        <key>current</key><integer>5</integer><key>steps</key><array/></dict></plist>
        """.utf8)
    ),
    ("deep", Data(("<plist>" + String(repeating: "<array>", count: 20_000)).utf8)),
  ])
  func aDamagedDraftIsMovedAsideWithAOneLineError(_ name: String, _ bytes: Data) throws {
    let scratch = try Scratch()
    defer { scratch.cleanUp() }
    let drafts = DraftStore(home: scratch.url)
    try FileManager.default.createDirectory(at: drafts.directory, withIntermediateDirectories: true)
    let path = drafts.directory.appendingPathComponent("draft.plist")
    try bytes.write(to: path)
    do {
      _ = try drafts.load()
      Issue.record("a damaged draft (\(name)) loaded")
    } catch let error as StoreError {
      #expect(!error.message.contains("\n"))
      #expect(error.message.contains(path.path + ".damaged"), "\(error.message)")
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: path.path + ".damaged")) == bytes)
    #expect(try drafts.load() == nil)  // the next start is clean
  }

  /// A draft damaged again later is moved aside beside the first one, never over it.
  @Test func aSecondDamagedDraftKeepsTheFirst() throws {
    let scratch = try Scratch()
    defer { scratch.cleanUp() }
    let drafts = DraftStore(home: scratch.url)
    try FileManager.default.createDirectory(at: drafts.directory, withIntermediateDirectories: true)
    let path = drafts.directory.appendingPathComponent("draft.plist").path
    var messages: [String] = []
    for bytes in ["first", "second", "third"] {
      try Data(bytes.utf8).write(to: URL(fileURLWithPath: path))
      #expect(throws: StoreError.self) {
        do { _ = try drafts.load() } catch let error as StoreError {
          messages.append(error.message)
          throw error
        }
      }
    }
    for (bytes, aside) in zip(["first", "second", "third"], ["", "-2", "-3"]) {
      let kept = try Data(contentsOf: URL(fileURLWithPath: path + ".damaged" + aside))
      #expect(kept == Data(bytes.utf8))
    }
    #expect(messages.last?.contains("moved aside to '\(path).damaged-3'") == true, "\(messages)")
    #expect(try drafts.load() == nil)
  }

  /// A session that read the draft and then found it unusable clears only that draft: one that
  /// another memesh saved meanwhile stays, with its picture.
  @Test func clearIfStillLeavesADraftSavedSince() throws {
    let scratch = try Scratch()
    defer { scratch.cleanUp() }
    let drafts = DraftStore(home: scratch.url)
    try drafts.save(DraftDocument(steps: [Self.step("load")], current: 0), images: [:])
    let read = try #require(try drafts.load())
    let newer = DraftDocument(steps: [Self.step("load"), Self.step("top")], current: 1)
    try DraftStore(home: scratch.url).save(newer, images: [Self.catSHA: Self.catBytes])
    try drafts.clear(ifStill: read)
    #expect(try drafts.load() == newer)
    #expect(FileKind(path: drafts.imageURL(sha256: Self.catSHA).path) != .missing)
    try drafts.clear(ifStill: newer)
    #expect(try drafts.load() == nil)
  }

  @Test func clearForgetsTheDraftAndItsImages() throws {
    let scratch = try Scratch()
    defer { scratch.cleanUp() }
    let drafts = DraftStore(home: scratch.url)
    try drafts.save(
      DraftDocument(steps: [Self.step("load")], current: 0), images: [Self.catSHA: Self.catBytes])
    try drafts.clear()
    #expect(try drafts.load() == nil)
    #expect(FileKind(path: drafts.imageURL(sha256: Self.catSHA).path) == .missing)
  }

  @Test func aFailingSaveLeavesThePreviousDraft() throws {
    let scratch = try Scratch()
    defer { scratch.cleanUp() }
    let first = DraftDocument(steps: [Self.step("load")], current: 0)
    try DraftStore(home: scratch.url).save(first, images: [Self.catSHA: Self.catBytes])
    for operation in [FileOperation.createFile, .synchronizeFile, .rename] {
      let faulty = FaultyFileSystem(fault: (operation, 1, ENOSPC))
      let drafts = DraftStore(
        directory: scratch.url.appendingPathComponent("draft"), fileSystem: faulty)
      #expect(throws: StoreError.self) {
        try drafts.save(DraftDocument(steps: [Self.step("load"), Self.step("x")], current: 1))
      }
      #expect(try DraftStore(home: scratch.url).load() == first)
    }
  }

  // MARK: - Saving in the background

  @Test func backgroundSavesLandInOrderBeforeTheDraftIsRead() throws {
    let scratch = try Scratch()
    defer { scratch.cleanUp() }
    let drafts = DraftStore(home: scratch.url)
    var steps = [Self.step("load")]
    for number in 1...20 {
      steps.append(Self.step("caption \(number)", top: "\(number)"))
      drafts.saveInBackground(
        DraftDocument(steps: steps, current: steps.count - 1),
        images: [Self.catSHA: Self.catBytes], reportAtExit: { _ in })
    }
    // Another session's store (or this one's) reads the last state, picture included.
    let next = DraftStore(home: scratch.url)
    #expect(try next.load() == DraftDocument(steps: steps, current: steps.count - 1))
    #expect(try next.imageData(sha256: Self.catSHA) == Self.catBytes)
    #expect(next.savedImagePath(sha256: Self.catSHA) == drafts.imageURL(sha256: Self.catSHA).path)
    #expect(next.savedImagePath(sha256: Self.dogSHA) == nil)
    if case .failure(let error) = drafts.takeBackgroundOutcome(waiting: true) {
      Issue.record("a background save failed: \(error)")
    }
    #expect(drafts.takeBackgroundOutcome(waiting: true) == nil)
  }

  @Test func aFailingBackgroundSaveIsReportedAndLeavesThePreviousDraft() throws {
    let scratch = try Scratch()
    defer { scratch.cleanUp() }
    let first = DraftDocument(steps: [Self.step("load")], current: 0)
    try DraftStore(home: scratch.url).save(first, images: [Self.catSHA: Self.catBytes])
    let drafts = DraftStore(
      directory: scratch.url.appendingPathComponent("draft"),
      fileSystem: FaultyFileSystem(fault: (.rename, 1, ENOSPC)))
    drafts.saveInBackground(
      DraftDocument(steps: [Self.step("load"), Self.step("x")], current: 1), images: [:],
      reportAtExit: { _ in })
    guard case .failure(let error)? = drafts.takeBackgroundOutcome(waiting: true) else {
      Issue.record("the failed save was not reported")
      return
    }
    #expect((error as? StoreError)?.message.contains("draft.plist") == true)
    #expect(try DraftStore(home: scratch.url).load() == first)
  }

  @Test func clearingWaitsForTheBackgroundSaves() throws {
    let scratch = try Scratch()
    defer { scratch.cleanUp() }
    let drafts = DraftStore(home: scratch.url)
    drafts.saveInBackground(
      DraftDocument(steps: [Self.step("load")], current: 0),
      images: [Self.catSHA: Self.catBytes], reportAtExit: { _ in })
    try drafts.clear()
    #expect(try DraftStore(home: scratch.url).load() == nil)
    #expect(FileKind(path: drafts.imageURL(sha256: Self.catSHA).path) == .missing)
  }
}

/// One draft per session: a home whose draft another running session holds gives this session a
/// draft of its own, and nothing this session does touches the other's.
@Suite struct DraftSessionTests {
  @Test func aSecondSessionKeepsItsOwnDraft() throws {
    let scratch = try Scratch()
    defer { scratch.cleanUp() }
    let home = scratch.url.appendingPathComponent("home")
    let theirs = home.appendingPathComponent("draft")
    let document = DraftDocument(
      steps: [DraftStep(label: "top", recipe: MemeRecipe(top: "THEIRS", bottom: ""))], current: 0)
    try DraftStore(directory: theirs).save(document)
    // The other session: its lock on draft/.session, held as a running memesh holds it.
    let other = open(theirs.path + "/.session", O_RDWR | O_CREAT, 0o600)
    #expect(flock(other, LOCK_EX | LOCK_NB) == 0)
    let mine = DraftStore(home: home)
    #expect(mine.directory.lastPathComponent == "draft-2")
    #expect(mine.notice?.contains("another memesh session is editing the draft") == true)
    #expect(try mine.load() == nil)
    try mine.save(
      DraftDocument(
        steps: [DraftStep(label: "top", recipe: MemeRecipe(top: "MINE", bottom: ""))], current: 0))
    try mine.clear()
    #expect(try DraftStore(directory: theirs).load() == document)
    close(other)
  }

  /// A draft file this session never read (put back from a backup, or damaged) is checked before
  /// a save replaces it, and moved aside when memesh cannot read it, never over an earlier one.
  @Test func aDamagedDraftIsMovedAsideBeforeTheNextSave() throws {
    let scratch = try Scratch()
    defer { scratch.cleanUp() }
    let drafts = DraftStore(directory: scratch.url.appendingPathComponent("d"))
    try drafts.save(DraftDocument(steps: [DraftStep(label: "one")], current: 0))
    let path = drafts.directory.path + "/draft.plist"
    try Data("earlier".utf8).write(to: URL(fileURLWithPath: path + ".damaged"))
    try Data("garbage".utf8).write(to: URL(fileURLWithPath: path))
    try drafts.save(DraftDocument(steps: [DraftStep(label: "two")], current: 0))
    #expect(try Data(contentsOf: URL(fileURLWithPath: path + ".damaged")) == Data("earlier".utf8))
    #expect(try Data(contentsOf: URL(fileURLWithPath: path + ".damaged-2")) == Data("garbage".utf8))
    #expect(try drafts.load()?.currentStep?.label == "two")
  }

  /// A caption longer than typed text may be is damage, not a draft to restore.
  @Test func aCaptionBombInTheDraftIsRefused() throws {
    let scratch = try Scratch()
    defer { scratch.cleanUp() }
    let drafts = DraftStore(directory: scratch.url.appendingPathComponent("d"))
    let bomb = String(repeating: "A", count: TextBox.maximumCharacters + 1)
    try drafts.save(
      DraftDocument(
        steps: [DraftStep(label: "top", recipe: MemeRecipe(top: bomb, bottom: ""))], current: 0))
    #expect(throws: StoreError.self) { try DraftStore(directory: drafts.directory).load() }
  }
}
