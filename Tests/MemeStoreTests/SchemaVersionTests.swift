import Foundation
import MemeCore
import Testing

@testable import MemeStore
import MemeSystem

/// Files written by memesh 0.1 (schema version 1: a top and a bottom caption, a font and a crop
/// per meme and per draft step), kept in `Tests/StoreFixtures/version-1` exactly as it wrote them: three
/// shared memes and a draft editing meme 1.
@Suite struct SchemaVersionTests {
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("StoreFixtures/version-1")

  static func fixture(_ name: String) throws -> Data {
    try Data(contentsOf: fixtures.appendingPathComponent(name))
  }

  /// What memesh 0.1's three memes are as recipes.
  static let recipes = [
    MemeRecipe(top: "one does not simply", bottom: "share a meme", font: "Oswald"),
    MemeRecipe(top: "don't do it", bottom: "", crop: .aspect(width: 1, height: 1)),
    MemeRecipe(top: "", bottom: "webp one"),
  ]

  /// A scratch store holding memesh 0.1's index.
  static func versionOneStore() throws -> (Scratch, MemeStore) {
    let scratch = try Scratch()
    try FileManager.default.createDirectory(at: scratch.memes, withIntermediateDirectories: true)
    try fixture("index.plist").write(to: scratch.memes.appendingPathComponent("index.plist"))
    return (scratch, MemeStore(directory: scratch.memes, fileSystem: POSIXFileSystem()))
  }

  @Test func aVersionOneIndexReadsAsRecipesOfTwoBoxes() throws {
    let (scratch, store) = try Self.versionOneStore()
    defer { scratch.cleanUp() }
    #expect(store.notice == nil || store.notice?.contains("cannot read") == false)
    let memes = try store.memes()
    #expect(memes.map(\.recipe) == Self.recipes)
    #expect(memes[0].recipe.boxes.map(\.placement) == [.top, .bottom])
    #expect(memes.map(\.sourceName) == ["photo.jpg", "cat.png", "photo.webp"])
  }

  @Test func theFirstWriteMigratesAndKeepsTheVersionOneIndexBeside() throws {
    let (scratch, store) = try Self.versionOneStore()
    defer { scratch.cleanUp() }
    let added = try store.add(FakeMeme.make(top: "NEW", bottom: "ONE"))
    #expect(added.id == 4)
    let kept = scratch.memes.appendingPathComponent("index.v1.plist")
    #expect(try Data(contentsOf: kept) == (try Self.fixture("index.plist")))
    let xml = String(
      decoding: try Data(contentsOf: scratch.memes.appendingPathComponent("index.plist")),
      as: UTF8.self)
    #expect(xml.contains("<key>version</key>\n\t<integer>2</integer>"))
    #expect(xml.contains("<key>boxes</key>"))
    // Nothing lost: the old memes read the same from the new index, in a new session too.
    let reopened = MemeStore(directory: scratch.memes, fileSystem: POSIXFileSystem())
    #expect(try reopened.memes().prefix(3).map(\.recipe) == Self.recipes)
    #expect(
      try reopened.meme(id: 4).recipe
        == MemeRecipe(top: "NEW", bottom: "ONE", crop: .aspect(width: 1, height: 1)))
    // Migrated once: a later write keeps no second copy.
    try reopened.delete(id: 4)
    let names = try FileManager.default.contentsOfDirectory(atPath: scratch.path)
    #expect(names.filter { $0.hasPrefix("index.v") } == ["index.v1.plist"])
  }

  @Test func aFileWhereTheKeptIndexGoesIsNeverOverwritten() throws {
    let (scratch, store) = try Self.versionOneStore()
    defer { scratch.cleanUp() }
    let mine = scratch.memes.appendingPathComponent("index.v1.plist")
    try Data("my own notes".utf8).write(to: mine)
    try store.delete(id: 2)
    #expect(try Data(contentsOf: mine) == Data("my own notes".utf8))
    let kept = scratch.memes.appendingPathComponent("index.v1-2.plist")
    #expect(try Data(contentsOf: kept) == (try Self.fixture("index.plist")))
    #expect(try store.memes().map(\.id) == [1, 3])
  }

  @Test func aVersionThreeIndexIsRefusedInOneLineAndKept() throws {
    let (scratch, _) = try Self.versionOneStore()
    defer { scratch.cleanUp() }
    let path = scratch.memes.appendingPathComponent("index.plist")
    let newer = String(decoding: try Data(contentsOf: path), as: UTF8.self)
      .replacingOccurrences(
        of: "<key>version</key>\n\t<integer>1</integer>",
        with: "<key>version</key>\n\t<integer>3</integer>")
    try Data(newer.utf8).write(to: path)
    let store = MemeStore(directory: scratch.memes, fileSystem: POSIXFileSystem())
    #expect(store.isReadOnly)
    let notice = try #require(store.notice)
    #expect(notice.contains("written by a newer memesh (schema version 3; this one reads up to 2)"))
    #expect(!notice.contains("\n"))
    #expect(throws: StoreError.self) { try store.add(FakeMeme.make(top: "NO", bottom: "")) }
    #expect(try Data(contentsOf: path) == Data(newer.utf8))
  }

  @Test func aVersionOneRecordIsTakenBack() throws {
    let scratch = try Scratch()
    defer { scratch.cleanUp() }
    let folder = scratch.memes.appendingPathComponent("1")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try Self.fixture("record.plist").write(to: folder.appendingPathComponent("record.plist"))
    let store = MemeStore(directory: scratch.memes, fileSystem: POSIXFileSystem())
    let recorded = try #require(store.recordedMeme(inFolder: 1))
    #expect(recorded.recipe == Self.recipes[0])
    #expect(recorded.memeFile == "1/meme.jpg")
  }

  @Test func aVersionOneDraftRestoresAndIsSavedAsVersionTwo() throws {
    let scratch = try Scratch()
    defer { scratch.cleanUp() }
    let directory = scratch.url.appendingPathComponent("draft")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    try Self.fixture("draft.plist").write(to: directory.appendingPathComponent("draft.plist"))
    let drafts = DraftStore(directory: directory)
    let document = try #require(try drafts.load())
    #expect(document.steps.map(\.label) == ["start", "edit 1", "bottom \"draft in progress\""])
    let current = try #require(document.currentStep)
    #expect(
      current.recipe
        == MemeRecipe(top: "one does not simply", bottom: "draft in progress", font: "Oswald"))
    #expect(current.editingID == 1 && current.sourcePath == "photo.jpg")
    #expect(document.steps[0].recipe == .blank)
    try drafts.save(document)
    let saved = String(
      decoding: try Data(contentsOf: directory.appendingPathComponent("draft.plist")),
      as: UTF8.self)
    #expect(saved.contains("<key>version</key>\n\t<integer>2</integer>"))
    #expect(saved.contains("<key>boxes</key>"))
    #expect(try DraftStore(directory: directory).load() == document)
  }

  /// A draft of a later version is refused and left where it is (never moved aside as damage).
  @Test func aNewerDraftIsRefusedNotMoved() throws {
    let scratch = try Scratch()
    defer { scratch.cleanUp() }
    let directory = scratch.url.appendingPathComponent("draft")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let path = directory.appendingPathComponent("draft.plist")
    let newer = """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0"><dict><key>version</key><integer>3</integer>
      <key>current</key><integer>0</integer><key>steps</key><array><dict>
      <key>label</key><string>x</string><key>layers</key><array/></dict></array></dict></plist>
      """
    try Data(newer.utf8).write(to: path)
    #expect(
      throws: StoreError.damagedDraft(
        path: path.path, reason: "written by a newer memesh (version 3)", movedTo: nil)
    ) { try DraftStore(directory: directory).load() }
    #expect(try Data(contentsOf: path) == Data(newer.utf8))
  }
}
