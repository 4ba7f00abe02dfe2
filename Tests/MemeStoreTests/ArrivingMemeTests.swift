import Foundation
import MemeCore
import MemeSystem
import Testing

@testable import MemeStore

/// A meme added while it is rendered (`MemeStore.add(_:arriving:)`): its parts come one at a
/// time, and the store never lists it before they are all on disk.
@Suite struct ArrivingMemeTests {
  /// Names in the store's folder: meme folders and leftovers.
  static func names(_ scratch: Scratch) throws -> Set<String> {
    Set(try FileManager.default.contentsOfDirectory(atPath: scratch.path))
      .subtracting([".lock", ".index.cache", "index.plist", "trash"])
  }

  /// Starts adding `meme` on a thread, its parts to come.
  static func startAdding(_ meme: NewMeme, to store: MemeStore, _ parts: ArrivingMeme)
    -> Concurrently<Meme, any Error>
  {
    let unrendered = meme.unrendered
    return Concurrently { try store.add(unrendered, arriving: parts) }
  }

  @Test func theMemeIsListedOnlyOnceItsThumbnailHasCome() throws {
    let scratch = try Scratch()
    defer { scratch.cleanUp() }
    let store = try MemeStore(directory: scratch.memes)
    _ = try store.add(FakeMeme.make(top: "BEFORE", bottom: ""))
    let meme = FakeMeme.make(top: "LATE", bottom: "PARTS")
    let parts = ArrivingMeme()
    let adding = Self.startAdding(meme, to: store, parts)
    parts.deliver(encoded: meme.rendered, width: 640, height: 480)
    // The encoded file is being written; without the thumbnail the meme is not listed, and no
    // folder takes its id.
    Thread.sleep(forTimeInterval: 0.2)
    #expect(try MemeStore(directory: scratch.memes).memes().map(\.recipe.top) == ["BEFORE"])
    #expect(!(try Self.names(scratch)).contains("2"))
    parts.deliver(thumbnail: meme.thumbnail)
    let added = try adding.result()
    #expect(added.id == 2)
    #expect(added.width == 640 && added.height == 480)
    let listed = try MemeStore(directory: scratch.memes).memes()
    #expect(listed.map(\.recipe.top) == ["BEFORE", "LATE"])
    #expect(FakeMeme.filesMatch(try #require(listed.last), in: store))
    #expect(try Self.names(scratch) == ["1", "2"])
  }

  @Test(arguments: [false, true])
  func anAbandonedAddLeavesTheStoreAsItWas(afterTheEncodedFile: Bool) throws {
    let scratch = try Scratch()
    defer { scratch.cleanUp() }
    let store = try MemeStore(directory: scratch.memes)
    _ = try store.add(FakeMeme.make(top: "KEPT", bottom: ""))
    let index = try Data(contentsOf: URL(fileURLWithPath: scratch.path + "/index.plist"))
    let meme = try FakeMeme.makeLinked(top: "GONE", bottom: "", in: scratch)
    let parts = ArrivingMeme()
    let adding = Self.startAdding(meme, to: store, parts)
    if afterTheEncodedFile {
      parts.deliver(encoded: meme.rendered, width: 600, height: 600)
      Thread.sleep(forTimeInterval: 0.1)
    }
    parts.abandon()
    #expect(throws: ArrivingMeme.Abandoned.self) { try adding.result() }
    // Nothing of the abandoned meme is left: no folder, no temporary file, the same index.
    #expect(try Self.names(scratch) == ["1"])
    #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.path + "/index.plist")) == index)
    // The draft's copy of the original is untouched, and the next share takes the next id.
    #expect(
      try Data(contentsOf: URL(fileURLWithPath: try #require(meme.originalFile)))
        == FakeMeme.originalBytes(top: "GONE"))
    let next = try store.add(FakeMeme.make(top: "NEXT", bottom: ""))
    #expect(next.id == 2)
    #expect(try store.memes().map(\.recipe.top) == ["KEPT", "NEXT"])
  }
}
