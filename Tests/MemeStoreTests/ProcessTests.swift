import Foundation
import MemeCore
import Testing

@testable import MemeStore
import MemeSystem

#if canImport(Glibc)
  import Glibc
#endif

/// Separate processes on one store: two sessions sharing at once, and sessions killed at random
/// moments (`memesh-store-torture` does the sharing).
@Suite struct ProcessTests {
  @Test func twoSessionsSharingAtOnceKeepEveryMemeWithDistinctIDs() throws {
    let torture = try #require(tortureExecutable(), "memesh-store-torture is not built")
    let scratch = try Scratch()
    defer { scratch.cleanUp() }
    let first = try TortureProcess(torture, ["share", scratch.path, "50", "first"])
    let second = try TortureProcess(torture, ["share", scratch.path, "50", "second"])
    let results = [first.finish(), second.finish()]
    for result in results {
      #expect(result.status == 0, "\(result.errors)")
      #expect(result.lines.count == 50)
    }
    let store = try MemeStore(directory: scratch.memes)
    let memes = try store.memes()
    #expect(memes.count == 100)
    #expect(Set(memes.map(\.id)).count == 100)
    #expect(memes.filter { $0.recipe.top.hasPrefix("first ") }.count == 50)
    #expect(memes.filter { $0.recipe.top.hasPrefix("second ") }.count == 50)
    let printed = results.flatMap(\.lines).compactMap { Int($0.split(separator: " ").last ?? "") }
    #expect(Set(printed) == Set(memes.map(\.id)))
    for meme in memes { #expect(FakeMeme.filesMatch(meme, in: store), "meme \(meme.id)") }
  }

  @Test func sessionsKilledAtRandomMomentsNeverDamageTheStore() throws {
    let torture = try #require(tortureExecutable(), "memesh-store-torture is not built")
    let scratch = try Scratch()
    defer { scratch.cleanUp() }
    var highest = 0
    for round in 0..<30 {
      let mode = round % 3 == 2 ? "mix" : "share"
      let process = try TortureProcess(torture, [mode, scratch.path, "1000", "r\(round)"])
      usleep(UInt32.random(in: 20_000...160_000))
      process.kill()
      let result = process.finish()
      #expect(result.status != 0 || result.lines.count == 1000)

      // The store opens, nothing is damaged, every meme is whole and matches its record.
      let store = try MemeStore(directory: scratch.memes)
      // A share killed after naming its folder is taken back, with a note; nothing else.
      #expect(
        store.notice == nil || store.notice?.hasPrefix("store: took back meme") == true,
        "round \(round): \(store.notice ?? "")")
      let memes = try store.memes()
      #expect(Set(memes.map(\.id)).count == memes.count)
      for meme in memes {
        let checked = try store.meme(id: meme.id)
        #expect(checked.problem == nil, "round \(round): \(checked.problem ?? "")")
        #expect(FakeMeme.filesMatch(checked, in: store), "round \(round) meme \(meme.id)")
      }
      // Shared memes that were confirmed are there (mix rounds may delete some; not shares).
      let added = result.lines.filter { $0.hasPrefix("added ") }.compactMap {
        Int($0.dropFirst(6))
      }
      if mode == "share" {
        let present = Set(memes.map(\.id))
        for id in added { #expect(present.contains(id), "round \(round): meme \(id) lost") }
      }
      // Ids only grow: a new id is above every id seen in earlier rounds.
      if let first = added.min() { #expect(first > highest, "round \(round): id \(first) reused") }
      let trashed = try store.deletedMemes().map(\.id)
      highest = max(highest, added.max() ?? 0, (memes.map(\.id) + trashed).max() ?? 0)
    }
    // After a tidy-up nothing a crash left remains: each folder holds its three files and its
    // record (and, where a kill fell between an edit's index write and its record, the files
    // that record names, and the pictures of a later edit killed before its index write: with
    // the record behind the index, memesh cannot prove those are not a newer version's, so it
    // keeps them).
    let store = try MemeStore(directory: scratch.memes)
    try store.repair()
    let memes = try store.memes()
    #expect(memes.count > 0)
    let entries = try FileManager.default.contentsOfDirectory(atPath: scratch.path)
    #expect(entries.filter { $0.hasPrefix(".tmp-") }.isEmpty)
    #expect(Set(entries.compactMap(Int.init)) == Set(memes.map(\.id)))
    for meme in memes {
      let files = Set(
        try FileManager.default.contentsOfDirectory(atPath: scratch.path + "/\(meme.id)"))
      let recorded = store.recordedMeme(inFolder: meme.id)
      let allowed = Set(
        ([meme] + (recorded.map { [$0] } ?? [])).flatMap {
          [$0.originalFile, $0.memeFile, $0.thumbnailFile].map { PathName($0).lastComponent }
        } + [MemeStore.recordName])
      let recordBehind = recorded.map { !MemeStore.sameFiles($0, meme) } ?? false
      let unexplained = files.subtracting(allowed).filter { name in
        !(recordBehind && ["original-", "meme-", "thumb-"].contains { name.hasPrefix($0) })
      }
      #expect(unexplained.isEmpty, "meme \(meme.id): \(files)")
      #expect(files.count >= 4, "meme \(meme.id): \(files)")
    }
    let trashed = Set(try store.deletedMemes().map(\.id))
    let inTrash =
      (try? FileManager.default.contentsOfDirectory(atPath: scratch.path + "/trash")) ?? []
    #expect(Set(inTrash.compactMap(Int.init)) == trashed)
  }

  @Test func aLockLeftByAKilledSessionDoesNotBlockTheNext() throws {
    let torture = try #require(tortureExecutable(), "memesh-store-torture is not built")
    let scratch = try Scratch()
    defer { scratch.cleanUp() }
    // Kill a session while it shares (it holds the lock most of the time), then share again.
    let process = try TortureProcess(torture, ["share", scratch.path, "100000", "held"])
    usleep(150_000)
    process.kill()
    _ = process.finish()
    let after = try TortureProcess(torture, ["share", scratch.path, "1", "after"])
    let result = after.finish()
    #expect(result.status == 0, "\(result.errors)")
    #expect(try MemeStore(directory: scratch.memes).memes().last?.recipe.top == "after 0")
  }
}
