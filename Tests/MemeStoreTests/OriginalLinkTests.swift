import Foundation
import MemeCore
import Testing

@testable import MemeStore
import MemeSystem

#if canImport(Glibc)
  import Glibc
#endif

/// A share links the draft's copy of the picture as the meme's original instead of writing the
/// bytes again; the two names stay independent, and anything doubtful is written instead.
@Suite struct OriginalLinkTests {
  /// The inode and link count of a file.
  static func inode(_ path: String) -> (inode: UInt, links: UInt)? {
    var status = stat()
    guard lstat(path, &status) == 0 else { return nil }
    return (UInt(status.st_ino), UInt(status.st_nlink))
  }

  @Test func theDraftsPictureBecomesTheOriginalWithoutACopy() throws {
    let scratch = try Scratch()
    defer { scratch.cleanUp() }
    let store = try MemeStore(directory: scratch.memes)
    let new = try FakeMeme.makeLinked(top: "LINK", bottom: "", in: scratch)
    let meme = try store.add(new)
    let original = store.url(for: meme.originalFile).path
    let source = try #require(new.originalFile)
    #expect(Self.inode(original)?.inode == Self.inode(source)?.inode)
    #expect(Self.inode(original)?.links == 2)
    #expect(try Data(contentsOf: URL(fileURLWithPath: original)) == new.original)
    #expect(try store.meme(id: meme.id).problem == nil)
  }

  @Test func removingTheDraftsPictureLeavesTheMemeWhole() throws {
    let scratch = try Scratch()
    defer { scratch.cleanUp() }
    let store = try MemeStore(directory: scratch.memes)
    let new = try FakeMeme.makeLinked(top: "KEEP", bottom: "", in: scratch)
    let meme = try store.add(new)
    try FileManager.default.removeItem(atPath: try #require(new.originalFile))
    let reopened = try MemeStore(directory: scratch.memes)
    #expect(try reopened.meme(id: meme.id).problem == nil)
    #expect(try Data(contentsOf: reopened.url(for: meme.originalFile)) == new.original)
  }

  @Test func deletingAndPurgingTheMemeLeavesTheDraftsPicture() throws {
    let scratch = try Scratch()
    defer { scratch.cleanUp() }
    let store = MemeStore(
      directory: scratch.memes, fileSystem: POSIXFileSystem(), trashLimit: 1)
    let new = try FakeMeme.makeLinked(top: "GONE", bottom: "", in: scratch)
    let meme = try store.add(new)
    try store.delete(id: meme.id)
    _ = try store.add(FakeMeme.make(top: "OTHER", bottom: ""))
    try store.delete(id: meme.id + 1)  // purges meme's folder from the trash (limit 1)
    #expect(FileKind(path: store.trashedPath(meme.id)) == .missing)
    let source = try #require(new.originalFile)
    #expect(try Data(contentsOf: URL(fileURLWithPath: source)) == new.original)
    #expect(Self.inode(source)?.links == 1)
  }

  /// Other bytes, a symlink, a folder, a missing file: the original is written, not linked.
  @Test(arguments: ["other bytes", "symlink", "folder", "missing", "shorter"])
  func aDoubtfulSourceIsWrittenInstead(_ kind: String) throws {
    let scratch = try Scratch()
    defer { scratch.cleanUp() }
    let store = try MemeStore(directory: scratch.memes)
    let expected = FakeMeme.originalBytes(top: "SAFE")
    let source = scratch.url.appendingPathComponent("source")
    switch kind {
    case "other bytes":
      var bytes = expected
      bytes[bytes.count - 1] ^= 1
      try bytes.write(to: source)
    case "shorter": try expected.dropLast().write(to: source)
    case "symlink":
      let target = scratch.url.appendingPathComponent("target")
      try expected.write(to: target)
      try FileManager.default.createSymbolicLink(at: source, withDestinationURL: target)
    case "folder": try FileManager.default.createDirectory(at: source, withIntermediateDirectories: true)
    default: break
    }
    let meme = try store.add(FakeMeme.make(top: "SAFE", bottom: "", originalFile: source.path))
    let original = store.url(for: meme.originalFile).path
    #expect(FileKind(path: original) == .file(size: expected.count))
    #expect(Self.inode(original)?.links == 1)
    #expect(try Data(contentsOf: URL(fileURLWithPath: original)) == expected)
    #expect(try store.meme(id: meme.id).problem == nil)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: store.livePath(meme.id)).sorted()
        == ["meme.png", "original.jpg", MemeStore.recordName, "thumb.png"])
  }

  @Test func anEditWithANewPictureLinksItToo() throws {
    let scratch = try Scratch()
    defer { scratch.cleanUp() }
    let store = try MemeStore(directory: scratch.memes)
    let first = try store.add(FakeMeme.make(top: "ONE", bottom: ""))
    var edit = try FakeMeme.makeLinked(top: "TWO", bottom: "", in: scratch)
    edit.originalSHA256 = String(repeating: "b", count: 64)
    let updated = try store.update(id: first.id, with: edit)
    let original = store.url(for: updated.originalFile).path
    #expect(Self.inode(original)?.inode == Self.inode(try #require(edit.originalFile))?.inode)
    #expect(try Data(contentsOf: URL(fileURLWithPath: original)) == edit.original)
  }

  /// The draft's picture saved by this process, as a share finds it.
  static func savedPicture(_ top: String, in scratch: Scratch) throws -> (DraftStore, String) {
    let sha = String(repeating: "e", count: 64)
    let drafts = DraftStore(home: scratch.url)
    let step = DraftStep(
      label: "load", recipe: MemeRecipe(top: top, bottom: "", crop: .aspect(width: 1, height: 1)),
      sourcePath: "/photos/\(top).jpg", sourceSHA256: sha, editingID: nil)
    try drafts.save(
      DraftDocument(steps: [step], current: 0), images: [sha: FakeMeme.originalBytes(top: top)])
    return (drafts, try #require(drafts.savedImagePath(sha256: sha)))
  }

  @Test func thePictureTheDraftJustSavedIsLinked() throws {
    let scratch = try Scratch()
    defer { scratch.cleanUp() }
    let store = try MemeStore(directory: scratch.memes)
    let (_, source) = try Self.savedPicture("SAVED", in: scratch)
    let meme = try store.add(FakeMeme.make(top: "SAVED", bottom: "", originalFile: source))
    let original = store.url(for: meme.originalFile).path
    #expect(Self.inode(original)?.inode == Self.inode(source)?.inode)
    #expect(
      try Data(contentsOf: URL(fileURLWithPath: original)) == FakeMeme.originalBytes(top: "SAVED"))
  }

  /// The draft's picture, once saved, replaced by another file, changed in place (its time moved
  /// on), or holding other bytes than the meme's original: the original is written, never linked.
  @Test(arguments: ["replaced", "changed in place", "other original"])
  func aSavedPictureThatIsNoLongerTheOriginalIsNotLinked(_ kind: String) throws {
    let scratch = try Scratch()
    defer { scratch.cleanUp() }
    let store = try MemeStore(directory: scratch.memes)
    let (_, source) = try Self.savedPicture("FIRST", in: scratch)
    var expected = FakeMeme.originalBytes(top: "FIRST")
    var meme = FakeMeme.make(top: "FIRST", bottom: "", originalFile: source)
    switch kind {
    case "replaced":
      var other = expected
      other[other.count - 1] ^= 1
      try other.write(to: URL(fileURLWithPath: source + ".new"))
      #expect(rename(source + ".new", source) == 0)
    case "changed in place":
      let descriptor = open(source, O_WRONLY)
      var byte: UInt8 = 0x55
      #expect(pwrite(descriptor, &byte, 1, off_t(expected.count - 1)) == 1)
      let later = timespec(tv_sec: 1_900_000_000, tv_nsec: 0)
      var times = [later, later]
      #expect(futimens(descriptor, &times) == 0)
      close(descriptor)
    default:
      expected = FakeMeme.originalBytes(top: "FIRSU")
      meme.original = expected
    }
    let added = try store.add(meme)
    let original = store.url(for: added.originalFile).path
    #expect(Self.inode(original)?.links == 1)
    #expect(try Data(contentsOf: URL(fileURLWithPath: original)) == expected)
  }
}
