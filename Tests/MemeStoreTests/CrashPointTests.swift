import Foundation
import MemeCore
import Testing

@testable import MemeStore
import MemeSystem

/// What a process killed after `survive` file operations leaves (`CutShortFileOperations`).
typealias CrashingFileSystem = CutShortFileOperations

/// A share that dies after any of its file operations leaves a store whose next change keeps
/// only whole memes: no folder that the index does not name survives it.
@Suite struct CrashPointTests {
  /// Numeric folders at the top of the store.
  static func memeFolders(_ scratch: Scratch) throws -> Set<Int> {
    Set(try FileManager.default.contentsOfDirectory(atPath: scratch.path).compactMap(Int.init))
  }

  /// The meme that dies, its original written or linked from a draft's file.
  static func dying(linked: Bool, _ scratch: Scratch) throws -> NewMeme {
    linked
      ? try FakeMeme.makeLinked(top: "DIES", bottom: "", in: scratch)
      : FakeMeme.make(top: "DIES", bottom: "")
  }

  @Test(arguments: [0, 2], [false, true])
  func aShareDyingAtAnyStepLeavesNoOrphanFolder(memesBefore: Int, linked: Bool) throws {
    // How many writing calls a share makes when it runs to the end.
    let counting = try Scratch()
    defer { counting.cleanUp() }
    for number in 0..<memesBefore {
      _ = try MemeStore(directory: counting.memes).add(FakeMeme.make(top: "\(number)", bottom: ""))
    }
    let counter = CrashingFileSystem(survive: .max)
    _ = try MemeStore(directory: counting.memes, fileSystem: counter)
      .add(Self.dying(linked: linked, counting))
    #expect(counter.callCount > 5)

    for survive in 0..<counter.callCount {
      let scratch = try Scratch()
      defer { scratch.cleanUp() }
      for number in 0..<memesBefore {
        _ = try MemeStore(directory: scratch.memes).add(FakeMeme.make(top: "\(number)", bottom: ""))
      }
      let crashing = CrashingFileSystem(survive: survive)
      _ = try? MemeStore(directory: scratch.memes, fileSystem: crashing)
        .add(Self.dying(linked: linked, scratch))

      // The next session shares again: every folder left is a meme the index names, whole.
      // A share cut short after naming its folder is taken back, with a note; nothing else.
      let store = try MemeStore(directory: scratch.memes)
      #expect(
        store.notice == nil || store.notice?.hasPrefix("store: took back meme") == true,
        "after \(survive) calls: \(store.notice ?? "")")
      _ = try store.add(FakeMeme.make(top: "NEXT", bottom: ""))
      let memes = try store.memes()
      #expect(try Self.memeFolders(scratch) == Set(memes.map(\.id)), "after \(survive) calls")
      #expect(memes.filter { $0.recipe.top == "NEXT" }.count == 1)
      #expect(memes.count == memesBefore + 1 || memes.count == memesBefore + 2)
      for meme in memes {
        #expect(FakeMeme.filesMatch(meme, in: store), "after \(survive) calls: meme \(meme.id)")
      }
    }
  }
}
