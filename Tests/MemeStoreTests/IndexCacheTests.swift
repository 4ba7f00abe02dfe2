import Foundation
import MemeCore
import Testing

@testable import MemeStore
import MemeSystem

/// The binary cache may save reading the XML index only while the index file is exactly the one
/// it was checked against: every change, by memesh or by hand, in place or by rename, same size or
/// not, damaged or not, is read from the XML again.
@Suite struct IndexCacheTests {
  /// Short enough for a test, longer than file-time granularity (a few ms) on this machine.
  static let settleTime = 0.05

  /// A store with three memes, the second deleted, whose cache vouches for the index file (read
  /// again once it had settled).
  func trustedStore(_ scratch: Scratch) throws -> MemeStore {
    let writer = MemeStore(
      directory: scratch.memes, fileSystem: POSIXFileSystem(), settleTime: Self.settleTime)
    for top in ["ONE", "TWO", "THREE"] { _ = try writer.add(FakeMeme.make(top: top, bottom: "b")) }
    try writer.delete(id: 2)
    #expect(trustedIdentity(scratch) == nil, "a just-written index is not trusted yet")
    Thread.sleep(forTimeInterval: Self.settleTime * 3)
    let store = MemeStore(
      directory: scratch.memes, fileSystem: POSIXFileSystem(), settleTime: Self.settleTime)
    #expect(!store.isReadOnly)
    #expect(trustedIdentity(scratch) == FileIdentity(path: scratch.path + "/index.plist"))
    return store
  }

  func trustedIdentity(_ scratch: Scratch) -> FileIdentity? {
    (try? Data(contentsOf: URL(fileURLWithPath: scratch.path + "/.index.cache")))
      .flatMap(IndexCache.trustedIdentity(in:))
  }

  /// The index as the XML on disk says, parsed directly.
  func xmlIndex(_ scratch: Scratch) throws -> StoreIndex {
    let url = URL(fileURLWithPath: scratch.path + "/index.plist")
    return try StoreIndex.decode(xml: Data(contentsOf: url))
  }

  @Test func aFreshIndexIsReadWhole() throws {
    let scratch = try Scratch()
    defer { scratch.cleanUp() }
    // Settling takes a minute here, so a slow machine cannot make the index look settled.
    let writer = MemeStore(
      directory: scratch.memes, fileSystem: POSIXFileSystem(), settleTime: 60)
    _ = try writer.add(FakeMeme.make(top: "FRESH", bottom: ""))
    let reader = MemeStore(
      directory: scratch.memes, fileSystem: POSIXFileSystem(), settleTime: 60)
    #expect(trustedIdentity(scratch) == nil)
    guard case .decoded = try reader.view() else {
      Issue.record("an index changed seconds ago was taken on the cache's word")
      return
    }
    #expect(try reader.meme(id: 1).recipe.top == "FRESH")
  }

  @Test func aSettledIndexIsServedFromTheCacheRecordByRecord() throws {
    let scratch = try Scratch()
    defer { scratch.cleanUp() }
    _ = try trustedStore(scratch)
    let store = MemeStore(
      directory: scratch.memes, fileSystem: POSIXFileSystem(), settleTime: Self.settleTime)
    guard case .cached = try store.view() else {
      Issue.record("a settled, unchanged index was read again")
      return
    }
    let expected = try xmlIndex(scratch)
    #expect(try store.memes().map(\.recipe.top) == ["ONE", "THREE"])
    #expect(try store.meme(id: 3) == expected.memes[1])
    #expect(throws: StoreError.self) { try store.meme(id: 2) }
    #expect(try store.deletedMemes() == expected.trash.map(\.meme))
    #expect(try store.hasMemes())
  }

  @Test func lazyRecordsEqualEagerOnes() throws {
    let scratch = try Scratch()
    defer { scratch.cleanUp() }
    _ = try trustedStore(scratch)
    let index = try xmlIndex(scratch)
    let bytes = IndexCache.encode(index, xmlSize: 10, xmlHash: 42, identity: nil, trusted: false)
    let cached = try #require(IndexCache.open(bytes, xmlSize: 10, xmlHash: 42))
    #expect(IndexCache.open(bytes, xmlSize: 10, xmlHash: 43) == nil)
    #expect(IndexCache.open(bytes, xmlSize: 11, xmlHash: 42) == nil)
    for meme in index.memes { #expect(cached.meme(id: meme.id) == .found(meme)) }
    #expect(cached.meme(id: 2) == .absent)
    #expect(cached.meme(id: 99) == .absent)
    #expect(cached.index() == index)
    #expect(cached.nextID == index.nextID)
  }

  @Test func aSameSizeRewriteInPlaceIsRead() throws {
    let scratch = try Scratch()
    defer { scratch.cleanUp() }
    let store = try trustedStore(scratch)
    #expect(try store.meme(id: 1).recipe.top == "ONE")  // remembered from the cache
    let xml = try String(contentsOf: store.indexURL, encoding: .utf8)
    try xml.replacingOccurrences(of: "<string>ONE</string>", with: "<string>UNO</string>")
      .write(to: store.indexURL, atomically: false, encoding: .utf8)
    #expect(try store.meme(id: 1).recipe.top == "UNO")
    let reopened = MemeStore(
      directory: scratch.memes, fileSystem: POSIXFileSystem(), settleTime: Self.settleTime)
    #expect(try reopened.meme(id: 1).recipe.top == "UNO")
    #expect(try reopened.memes().map(\.recipe.top) == ["UNO", "THREE"])
  }

  @Test func aShareByAnotherProcessIsSeen() throws {
    let torture = try #require(tortureExecutable(), "memesh-store-torture is not built")
    let scratch = try Scratch()
    defer { scratch.cleanUp() }
    let store = try trustedStore(scratch)
    #expect(try store.memes().count == 2)
    let other = try TortureProcess(torture, ["share", scratch.path, "1", "OTHER"])
    let result = other.finish()
    #expect(result.status == 0, "\(result.errors)")
    #expect(try store.memes().map(\.recipe.top) == ["ONE", "THREE", "OTHER 0"])
    #expect(try store.meme(id: 4).recipe.top == "OTHER 0")
  }

  @Test func damageAfterTheCacheWasTrustedIsDetected() throws {
    let scratch = try Scratch()
    defer { scratch.cleanUp() }
    let store = try trustedStore(scratch)
    #expect(try store.meme(id: 1).recipe.top == "ONE")
    let size = try Data(contentsOf: store.indexURL).count
    try Data(repeating: 0x41, count: size).write(to: store.indexURL)  // same size, in place
    #expect(throws: StoreError.self) { try store.meme(id: 1) }
    #expect(throws: StoreError.self) { try store.memes() }
    let reopened = MemeStore(
      directory: scratch.memes, fileSystem: POSIXFileSystem(), settleTime: Self.settleTime)
    #expect(reopened.isReadOnly)
    #expect(reopened.notice?.contains("index.plist") == true)
    #expect(try Data(contentsOf: store.indexURL) == Data(repeating: 0x41, count: size))
  }

  @Test func aDamagedCacheRecordFallsBackToTheXML() throws {
    let scratch = try Scratch()
    defer { scratch.cleanUp() }
    _ = try trustedStore(scratch)
    let expected = try xmlIndex(scratch)
    let cacheURL = URL(fileURLWithPath: scratch.path + "/.index.cache")
    var bytes = try Data(contentsOf: cacheURL)
    // The first record: after the header, 4 numbers, 2 ids, 3 offsets; then its id and the
    // length of its top caption, made absurd.
    let recordStart = IndexCache.bodyOffset + 8 * (4 + 2 + 3)
    bytes.replaceSubrange(
      (recordStart + 8)..<(recordStart + 16), with: [UInt8](repeating: 0xFF, count: 8))
    try bytes.write(to: cacheURL)
    let store = MemeStore(
      directory: scratch.memes, fileSystem: POSIXFileSystem(), settleTime: Self.settleTime)
    #expect(try store.meme(id: 1) == expected.memes[0])
    #expect(try store.memes().map(\.recipe.top) == ["ONE", "THREE"])
  }
}
