import Foundation
import MemeCore
import Testing

@testable import MemeStore
import MemeSystem

@Suite struct MemeStoreTests {
  @Test func emptyStoreListsNothingAndCreatesNoIndexUntilAShare() throws {
    let scratch = try Scratch()
    defer { scratch.cleanUp() }
    let store = MemeStore(directory: scratch.memes, fileSystem: POSIXFileSystem())
    #expect(store.notice == nil)
    #expect(!store.isReadOnly)
    #expect(try store.memes().isEmpty)
    #expect(FileKind(path: scratch.path + "/index.plist") == .missing)
    #expect(throws: StoreError.noMeme(id: 1)) { try store.meme(id: 1) }
  }

  @Test func shareWritesAReadableXMLIndexAndThreeFiles() throws {
    let scratch = try Scratch()
    defer { scratch.cleanUp() }
    let store = try MemeStore(directory: scratch.memes)
    let new = FakeMeme.make(top: "ONE DOES NOT", bottom: "SIMPLY")
    let meme = try store.add(new)
    #expect(meme.id == 1)
    #expect(meme.originalFile == "1/original.jpg")
    #expect(meme.memeFile == "1/meme.png")
    #expect(meme.thumbnailFile == "1/thumb.png")
    #expect(try Data(contentsOf: store.url(for: meme.originalFile)) == new.original)
    #expect(try Data(contentsOf: store.url(for: meme.memeFile)) == new.rendered)
    #expect(try Data(contentsOf: store.url(for: meme.thumbnailFile)) == new.thumbnail)
    let xml = try String(contentsOf: store.indexURL, encoding: .utf8)
    #expect(xml.hasPrefix("<?xml"))
    #expect(xml.contains("<key>version</key>"))
    #expect(xml.contains("<string>ONE DOES NOT</string>"))
    // A second process (a fresh store) reads back the same meme, dates included.
    let reopened = try MemeStore(directory: scratch.memes)
    #expect(try reopened.memes() == [meme])
    #expect(try reopened.meme(id: 1) == meme)
  }

  @Test func idsOnlyGrowAcrossDeletesAndRestarts() throws {
    let scratch = try Scratch()
    defer { scratch.cleanUp() }
    let store = try MemeStore(directory: scratch.memes)
    for number in 1...3 {
      #expect(try store.add(FakeMeme.make(top: "\(number)", bottom: "")).id == number)
    }
    try store.delete(id: 3)
    try store.delete(id: 2)
    #expect(try store.add(FakeMeme.make(top: "4", bottom: "")).id == 4)
    let reopened = try MemeStore(directory: scratch.memes)
    try reopened.delete(id: 4)
    #expect(try reopened.add(FakeMeme.make(top: "5", bottom: "")).id == 5)
    #expect(try reopened.memes().map(\.id) == [1, 5])
  }

  @Test func updateKeepsIDAndCreatedAndReplacesFiles() throws {
    let scratch = try Scratch()
    defer { scratch.cleanUp() }
    let clock = TestClock()
    let store = MemeStore(
      directory: scratch.memes, fileSystem: POSIXFileSystem(), clock: { clock.now() })
    let first = try store.add(FakeMeme.make(top: "BEFORE", bottom: "A"))
    _ = try store.add(FakeMeme.make(top: "OTHER", bottom: "B"))
    clock.advance(90)
    let edited = try store.update(id: first.id, with: FakeMeme.make(top: "AFTER", bottom: "C"))
    #expect(edited.id == first.id)
    #expect(edited.created == first.created)
    #expect(edited.modified == first.modified.addingTimeInterval(90))
    #expect(edited.recipe.top == "AFTER")
    #expect(FakeMeme.filesMatch(edited, in: store))
    let reopened = try MemeStore(directory: scratch.memes)
    #expect(try reopened.memes().map(\.recipe.top) == ["AFTER", "OTHER"])
    #expect(try reopened.meme(id: first.id) == edited)
    // The superseded rendering is gone; the folder holds the three named files and its record.
    let folder = try FileManager.default.contentsOfDirectory(atPath: scratch.path + "/1")
    #expect(
      Set(folder)
        == Set(
          [edited.originalFile, edited.memeFile, edited.thumbnailFile].map {
            PathName($0).lastComponent
          } + [MemeStore.recordName]))
    #expect(throws: StoreError.noMeme(id: 9)) {
      try store.update(id: 9, with: FakeMeme.make(top: "X", bottom: ""))
    }
  }

  @Test func deleteThenUndoRestoresTheMemeAlsoAfterARestart() throws {
    let scratch = try Scratch()
    defer { scratch.cleanUp() }
    let store = try MemeStore(directory: scratch.memes)
    let kept = try store.add(FakeMeme.make(top: "KEPT", bottom: ""))
    let gone = try store.add(FakeMeme.make(top: "GONE", bottom: "SOON"))
    let deleted = try store.delete(id: gone.id)
    #expect(deleted == gone)
    #expect(try store.memes() == [kept])
    #expect(FileKind(path: scratch.path + "/2") == .missing)
    #expect(throws: StoreError.noMeme(id: 2)) { try store.meme(id: 2) }

    let restarted = try MemeStore(directory: scratch.memes)
    #expect(try restarted.deletedMemes() == [gone])
    let back = try #require(try restarted.undoDelete())
    #expect(back == gone)
    #expect(try restarted.memes() == [kept, gone])
    #expect(FakeMeme.filesMatch(back, in: restarted))
    #expect(try restarted.undoDelete() == nil)
  }

  @Test func undoRestoresTheMostRecentDeletionFirst() throws {
    let scratch = try Scratch()
    defer { scratch.cleanUp() }
    let store = try MemeStore(directory: scratch.memes)
    for number in 1...3 { _ = try store.add(FakeMeme.make(top: "\(number)", bottom: "")) }
    try store.delete(id: 1)
    try store.delete(id: 3)
    #expect(try store.undoDelete()?.id == 3)
    #expect(try store.undoDelete()?.id == 1)
    #expect(try store.memes().map(\.id) == [1, 2, 3])
  }

  @Test func trashIsBoundedAndPurgesTheOldestDeletion() throws {
    let scratch = try Scratch()
    defer { scratch.cleanUp() }
    let store = MemeStore(directory: scratch.memes, fileSystem: POSIXFileSystem(), trashLimit: 2)
    for number in 1...4 { _ = try store.add(FakeMeme.make(top: "\(number)", bottom: "")) }
    for id in 1...3 { try store.delete(id: id) }
    #expect(try store.deletedMemes().map(\.id) == [2, 3])
    #expect(FileKind(path: scratch.path + "/trash/1") == .missing)
    #expect(try store.undoDelete()?.id == 3)
    #expect(try store.undoDelete()?.id == 2)
    #expect(try store.undoDelete() == nil)
    #expect(try store.memes().map(\.id) == [2, 3, 4])
  }

  @Test func memesAreFoundByTheirOriginalsSHA256() throws {
    let scratch = try Scratch()
    defer { scratch.cleanUp() }
    let store = try MemeStore(directory: scratch.memes)
    let cat = String(repeating: "c", count: 64)
    let dog = String(repeating: "d", count: 64)
    _ = try store.add(FakeMeme.make(top: "CAT 1", bottom: "", sha: cat))
    _ = try store.add(FakeMeme.make(top: "DOG", bottom: "", sha: dog))
    _ = try store.add(FakeMeme.make(top: "CAT 2", bottom: "", sha: cat.uppercased()))
    #expect(try store.memes(withOriginalSHA256: cat).map(\.recipe.top) == ["CAT 1", "CAT 2"])
    #expect(try store.memes(withOriginalSHA256: String(repeating: "e", count: 64)).isEmpty)
  }

  @Test func anIndexEditedByHandIsReadEvenWhenItsSizeIsUnchanged() throws {
    let scratch = try Scratch()
    defer { scratch.cleanUp() }
    let store = try MemeStore(directory: scratch.memes)
    _ = try store.add(FakeMeme.make(top: "ALPHA", bottom: ""))
    #expect(try store.memes().map(\.recipe.top) == ["ALPHA"])  // memory copy and cache now hold ALPHA
    let xml = try String(contentsOf: store.indexURL, encoding: .utf8)
    try xml.replacingOccurrences(of: "ALPHA", with: "OMEGA")
      .write(to: store.indexURL, atomically: false, encoding: .utf8)
    #expect(try store.memes().map(\.recipe.top) == ["OMEGA"])
    #expect(try MemeStore(directory: scratch.memes).memes().map(\.recipe.top) == ["OMEGA"])
  }

  @Test func aGarbledCacheIsIgnored() throws {
    let scratch = try Scratch()
    defer { scratch.cleanUp() }
    let store = try MemeStore(directory: scratch.memes)
    let meme = try store.add(FakeMeme.make(top: "CACHED", bottom: ""))
    let cache = URL(fileURLWithPath: scratch.path + "/.index.cache")
    var bytes = try Data(contentsOf: cache)
    #expect(!bytes.isEmpty)
    bytes = bytes.prefix(bytes.count / 2)
    try bytes.write(to: cache)
    #expect(try MemeStore(directory: scratch.memes).memes() == [meme])
  }

  /// A folder the index does not list is never memesh's to remove: it stays, is reported, and
  /// its id is not handed out again. Temporary names memesh made are cleaned.
  @Test func anUnlistedFolderIsKeptReportedAndItsIDNotReused() throws {
    let scratch = try Scratch()
    defer { scratch.cleanUp() }
    let store = try MemeStore(directory: scratch.memes)
    _ = try store.add(FakeMeme.make(top: "ONE", bottom: ""))
    try FileManager.default.createDirectory(
      atPath: scratch.path + "/2", withIntermediateDirectories: true)
    try Data("half".utf8).write(to: URL(fileURLWithPath: scratch.path + "/2/meme.png"))
    try Data("x".utf8).write(to: URL(fileURLWithPath: scratch.path + "/.tmp-index.plist-1234"))
    let reopened = try MemeStore(directory: scratch.memes)
    #expect(reopened.notice?.contains("kept folder 2 in '\(scratch.path)'") == true)
    #expect(try reopened.memes().map(\.id) == [1])
    let three = try reopened.add(FakeMeme.make(top: "THREE", bottom: ""))
    #expect(three.id == 3)
    #expect(FakeMeme.filesMatch(three, in: reopened))
    #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.path + "/2/meme.png")) == Data("half".utf8))
    #expect(FileKind(path: scratch.path + "/.tmp-index.plist-1234") == .missing)
  }

  /// An older index put back: the memes shared since are taken back from their folders (their
  /// own records), with a note, and the next share takes a new id.
  @Test func anOlderIndexPutBackLosesNoMeme() throws {
    let scratch = try Scratch()
    defer { scratch.cleanUp() }
    let store = try MemeStore(directory: scratch.memes)
    _ = try store.add(FakeMeme.make(top: "ONE", bottom: ""))
    let old = try Data(contentsOf: URL(fileURLWithPath: scratch.path + "/index.plist"))
    let two = try store.add(FakeMeme.make(top: "TWO", bottom: ""))
    let edited = try store.update(id: 1, with: FakeMeme.make(top: "ONE EDITED", bottom: ""))
    _ = try store.add(FakeMeme.make(top: "THREE", bottom: ""))
    try store.delete(id: 3)
    try old.write(to: URL(fileURLWithPath: scratch.path + "/index.plist"))
    let reopened = try MemeStore(directory: scratch.memes)
    let notice = try #require(reopened.notice)
    #expect(notice.contains("took back meme 2"), "\(notice)")
    #expect(notice.contains("took the versions of meme 1"), "\(notice)")
    let memes = try reopened.memes()
    #expect(memes.map(\.recipe.top) == ["ONE EDITED", "TWO"])
    #expect(memes.allSatisfy { $0.problem == nil && FakeMeme.filesMatch($0, in: reopened) })
    #expect(memes.first == edited && memes.last == two)
    // Meme 3 is in the trash folder, which the old index never knew: kept, its id not reused.
    #expect(FileKind(path: scratch.path + "/trash/3") == .directory)
    #expect(try reopened.add(FakeMeme.make(top: "FOUR", bottom: "")).id == 4)
  }

  /// A symlink where the trash goes is refused by name and never followed.
  @Test func aSymlinkedTrashIsRefusedNotFollowed() throws {
    let scratch = try Scratch()
    defer { scratch.cleanUp() }
    let outside = scratch.url.appendingPathComponent("outside")
    try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
    let store = try MemeStore(directory: scratch.memes)
    _ = try store.add(FakeMeme.make(top: "ONE", bottom: ""))
    try FileManager.default.createSymbolicLink(
      atPath: scratch.path + "/trash", withDestinationPath: outside.path)
    #expect {
      try store.delete(id: 1)
    } throws: { error in
      (error as? StoreError)?.message == "cannot create '\(scratch.path)/trash': it is a symlink, refused"
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path).isEmpty)
    #expect(try MemeStore(directory: scratch.memes).memes().map(\.id) == [1])
  }

  /// Records the cache holds that disagree with the XML change nothing a write does.
  @Test func aDamagedCacheDecidesNothing() throws {
    let scratch = try Scratch()
    defer { scratch.cleanUp() }
    let store = try MemeStore(directory: scratch.memes)
    for top in ["ONE", "TWO", "THREE"] { _ = try store.add(FakeMeme.make(top: top, bottom: "")) }
    let cache = URL(fileURLWithPath: scratch.path + "/.index.cache")
    var bytes = [UInt8](try Data(contentsOf: cache))
    // The records' bytes scrambled; the header still names the XML.
    for position in stride(from: IndexCache.bodyOffset + 32, to: bytes.count, by: 5) {
      bytes[position] ^= 0x5A
    }
    try Data(bytes).write(to: cache)
    let next = try MemeStore(directory: scratch.memes)
    _ = try next.add(FakeMeme.make(top: "FOUR", bottom: ""))
    let memes = try MemeStore(directory: scratch.memes).memes()
    #expect(memes.map(\.recipe.top) == ["ONE", "TWO", "THREE", "FOUR"])
    #expect(memes.allSatisfy { $0.problem == nil })
  }

  /// New stores are private: folders 0700, files 0600.
  @Test func aNewStoreIsPrivate() throws {
    let scratch = try Scratch()
    defer { scratch.cleanUp() }
    let store = try MemeStore(directory: scratch.memes)
    let meme = try store.add(FakeMeme.make(top: "ONE", bottom: ""))
    func mode(_ path: String) -> UInt32 {
      var status = stat()
      lstat(path, &status)
      return UInt32(status.st_mode & 0o777)
    }
    #expect(mode(scratch.path) == 0o700)
    #expect(mode(scratch.path + "/1") == 0o700)
    for name in [meme.memeFile, meme.originalFile, meme.thumbnailFile, "index.plist"] {
      #expect(mode(scratch.path + "/" + name) == 0o600, "\(name)")
    }
  }
}
