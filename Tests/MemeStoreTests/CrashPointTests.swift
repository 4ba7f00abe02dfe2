import Foundation
import MemeCore
import Testing

@testable import MemeStore
import MemeSystem

/// The real file system until the `survive`-th writing call has been made; from then on every
/// call fails, cleanups included — what a process killed at that moment leaves on disk.
final class CrashingFileSystem: FileOperations, @unchecked Sendable {
  private let lock = NSLock()
  private var calls = 0
  let survive: Int

  init(survive: Int) {
    self.survive = survive
  }

  /// Writing calls made (and, up to `survive`, carried out).
  var callCount: Int { lock.withLock { calls } }

  private func step(_ path: String) throws(SystemError) {
    let dead = lock.withLock {
      calls += 1
      return calls > survive
    }
    if dead { throw SystemError(.write, path: path, code: EIO) }
  }

  func createFile(_ name: String, in directory: Directory, contents: Data, mode: mode_t)
    throws(SystemError)
  {
    try step(name)
    try directory.createFile(name, contents: contents, mode: mode)
  }

  func synchronizeFile(_ name: String, in directory: Directory) throws(SystemError) {
    try step(name)
    try directory.synchronizeFile(name)
  }

  func rename(_ name: String, in source: Directory, to newName: String, in destination: Directory)
    throws(SystemError)
  {
    try step(name)
    try source.rename(name, to: newName, in: destination)
  }

  func synchronize(_ directory: Directory) throws(SystemError) {
    try step(directory.path)
    try directory.synchronize()
  }

  func makeDirectory(_ name: String, in directory: Directory) throws(SystemError) {
    try step(name)
    try directory.makeDirectory(name)
  }

  func remove(_ name: String, in directory: Directory) throws(SystemError) {
    try step(name)
    try directory.remove(name)
  }

  func link(_ name: String, in source: Directory, to newName: String, in destination: Directory)
    throws(SystemError)
  {
    try step(name)
    try source.link(name, to: newName, in: destination)
  }
}

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
      #expect(memes.filter { $0.top == "NEXT" }.count == 1)
      #expect(memes.count == memesBefore + 1 || memes.count == memesBefore + 2)
      for meme in memes {
        #expect(FakeMeme.filesMatch(meme, in: store), "after \(survive) calls: meme \(meme.id)")
      }
    }
  }
}
