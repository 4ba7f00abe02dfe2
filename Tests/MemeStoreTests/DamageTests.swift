import Foundation
import MemeCore
import Testing

@testable import MemeStore
import MemeSystem

@Suite struct DamageTests {
  /// A damaged index and the words the notice must use for it.
  struct Damage: CustomTestStringConvertible, Sendable {
    var name: String
    var bytes: @Sendable (Data) -> Data
    var expected: String
    var testDescription: String { name }
  }

  static let damages: [Damage] = [
    Damage(name: "truncated", bytes: { $0.prefix($0.count / 2) }, expected: "not a valid plist"),
    Damage(name: "empty", bytes: { _ in Data() }, expected: "the file is empty"),
    Damage(
      name: "not a plist", bytes: { _ in Data("hello, world\n".utf8) }, expected: "not an XML plist"
    ),
    Damage(
      name: "binary plist",
      bytes: { xml in
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        return (try? encoder.encode(["version": 1])) ?? xml
      }, expected: "binary plist"),
    Damage(
      name: "wrong type",
      bytes: { xml in
        Data(
          String(decoding: xml, as: UTF8.self).replacingOccurrences(
            of: "<key>width</key>\n\t\t\t<integer>600</integer>",
            with: "<key>width</key>\n\t\t\t<string>wide</string>"
          ).utf8)
      }, expected: "wrong type at 'memes[0].width'"),
    Damage(
      name: "missing key",
      bytes: { xml in
        Data(
          String(decoding: xml, as: UTF8.self).replacingOccurrences(
            of: "<key>nextID</key>", with: "<key>nextId</key>"
          ).utf8)
      }, expected: "missing 'nextID'"),
    Damage(
      name: "newer version",
      bytes: { xml in
        Data(
          String(decoding: xml, as: UTF8.self).replacingOccurrences(
            of: "<key>version</key>\n\t<integer>2</integer>",
            with: "<key>version</key>\n\t<integer>3</integer>"
          ).utf8)
      }, expected: "newer memesh (schema version 3; this one reads up to 2)"),
    Damage(
      name: "deep nesting",
      bytes: { _ in
        let depth = 20_000
        let text =
          "<?xml version=\"1.0\"?><plist version=\"1.0\">"
          + String(repeating: "<array>", count: depth) + String(repeating: "</array>", count: depth)
          + "</plist>"
        return Data(text.utf8)
      }, expected: "nested more than"),
    Damage(
      name: "duplicate id",
      bytes: { xml in
        Data(
          String(decoding: xml, as: UTF8.self).replacingOccurrences(
            of: "<key>id</key>\n\t\t\t<integer>2</integer>",
            with: "<key>id</key>\n\t\t\t<integer>1</integer>"
          ).utf8)
      }, expected: "appears twice"),
    // PropertyListDecoder traps on these bytes instead of throwing (store-index fuzz target).
    Damage(
      name: "bytes in a number",
      bytes: { xml in
        var bytes = [UInt8]()
        let text = String(decoding: xml, as: UTF8.self)
        let marker = "<key>version</key>\n\t<integer>"
        guard let range = text.range(of: marker) else { return xml }
        bytes += Array(text[..<range.upperBound].utf8)
        bytes += [UInt8](repeating: 0xFF, count: 24)
        bytes += Array(text[range.upperBound...].utf8)
        return Data(bytes)
      }, expected: "a <integer> holds something that is not a number"),
  ]

  @Test(arguments: damages)
  func aDamagedIndexOpensReadOnlyAndIsNeverOverwritten(_ damage: Damage) throws {
    let scratch = try Scratch()
    defer { scratch.cleanUp() }
    let store = try MemeStore(directory: scratch.memes)
    _ = try store.add(FakeMeme.make(top: "ONE", bottom: ""))
    _ = try store.add(FakeMeme.make(top: "TWO", bottom: ""))
    let damaged = damage.bytes(try Data(contentsOf: store.indexURL))
    #expect(damaged != (try Data(contentsOf: store.indexURL)), "the damage changes the index")
    try damaged.write(to: store.indexURL)

    let (opened, notice) = MemeStore.open(home: scratch.url)
    let line = try #require(notice)
    #expect(opened.isReadOnly)
    #expect(!line.contains("\n"))
    #expect(line.contains(store.indexURL.path))
    #expect(line.contains(damage.expected), "\(line)")
    #expect(throws: StoreError.self) { try opened.add(FakeMeme.make(top: "THREE", bottom: "")) }
    #expect(throws: StoreError.self) { try opened.delete(id: 1) }
    #expect(throws: StoreError.self) { try opened.memes() }
    // The one-line error of a refused share says why.
    do {
      _ = try opened.add(FakeMeme.make(top: "THREE", bottom: ""))
    } catch let error as StoreError {
      #expect(error.message.contains("read-only"))
      #expect(!error.message.contains("\n"))
    }
    #expect(try Data(contentsOf: store.indexURL) == damaged)
    #expect(FileKind(path: scratch.path + "/1") == .directory)
  }

  @Test func aMissingOrCorruptFileMarksOnlyThatMeme() throws {
    let scratch = try Scratch()
    defer { scratch.cleanUp() }
    let store = try MemeStore(directory: scratch.memes)
    let one = try store.add(FakeMeme.make(top: "ONE", bottom: ""))
    let two = try store.add(FakeMeme.make(top: "TWO", bottom: ""))
    let three = try store.add(FakeMeme.make(top: "THREE", bottom: ""))
    try FileManager.default.removeItem(at: store.url(for: one.memeFile))
    try Data("garbage".utf8).write(to: store.url(for: two.thumbnailFile))

    let reopened = try MemeStore(directory: scratch.memes)
    #expect(reopened.notice == nil)
    let listed = try reopened.memes()
    #expect(listed.map(\.id) == [1, 2, 3])
    #expect(listed.allSatisfy { $0.problem == nil })  // listing checks folders, not files
    #expect(try reopened.meme(id: 1).problem?.contains("missing") == true)
    #expect(try reopened.meme(id: 2).problem?.contains("corrupt") == true)
    #expect(try reopened.meme(id: 3).problem == nil)
    // The others still work: edit, delete, share.
    _ = try reopened.update(id: three.id, with: FakeMeme.make(top: "THREE!", bottom: ""))
    _ = try reopened.add(FakeMeme.make(top: "FOUR", bottom: ""))
    try reopened.delete(id: one.id)
    #expect(try reopened.memes().map(\.id) == [2, 3, 4])
  }

  @Test func aMissingFolderIsMarkedInTheListing() throws {
    let scratch = try Scratch()
    defer { scratch.cleanUp() }
    let store = try MemeStore(directory: scratch.memes)
    for top in ["ONE", "TWO"] { _ = try store.add(FakeMeme.make(top: top, bottom: "")) }
    try FileManager.default.removeItem(atPath: scratch.path + "/1")
    let listed = try MemeStore(directory: scratch.memes).memes()
    #expect(listed[0].problem?.contains("missing") == true)
    #expect(listed[1].problem == nil)
  }

  @Test(arguments: ["/etc/passwd", "1/../../escape.png", "../outside/meme.png", "2/meme.png"])
  func anEntryPointingOutsideItsFolderIsRefused(_ path: String) throws {
    let scratch = try Scratch()
    defer { scratch.cleanUp() }
    let store = try MemeStore(directory: scratch.memes)
    let one = try store.add(FakeMeme.make(top: "ONE", bottom: ""))
    _ = try store.add(FakeMeme.make(top: "TWO", bottom: ""))
    let xml = try String(contentsOf: store.indexURL, encoding: .utf8)
    try xml.replacingOccurrences(
      of: "<string>\(one.memeFile)</string>", with: "<string>\(path)</string>"
    )
    .write(to: store.indexURL, atomically: true, encoding: .utf8)
    // Without its own record (a store from before records), nothing can put the entry right:
    // it is refused. (With one, the meme is taken from its folder: anOlderIndexPutBack….)
    try FileManager.default.removeItem(atPath: scratch.path + "/1/" + MemeStore.recordName)
    let reopened = try MemeStore(directory: scratch.memes)
    let listed = try reopened.memes()
    #expect(listed[0].problem?.hasPrefix("refused") == true)
    #expect(listed[1].problem == nil)
    #expect(try reopened.meme(id: 1).problem?.hasPrefix("refused") == true)
  }

  @Test func aSymlinkEscapingTheStoreIsRefused() throws {
    let scratch = try Scratch()
    defer { scratch.cleanUp() }
    let store = try MemeStore(directory: scratch.memes)
    _ = try store.add(FakeMeme.make(top: "ONE", bottom: ""))
    let two = try store.add(FakeMeme.make(top: "TWO", bottom: ""))
    // Folder 1 becomes a symlink to a copy outside the store; a file of 2 becomes one too.
    let outside = scratch.url.appendingPathComponent("outside")
    try FileManager.default.moveItem(atPath: scratch.path + "/1", toPath: outside.path)
    try FileManager.default.createSymbolicLink(
      atPath: scratch.path + "/1", withDestinationPath: outside.path)
    try FileManager.default.removeItem(at: store.url(for: two.memeFile))
    try FileManager.default.createSymbolicLink(
      atPath: store.url(for: two.memeFile).path, withDestinationPath: "/etc/hostname")
    let reopened = try MemeStore(directory: scratch.memes)
    #expect(try reopened.memes().map { $0.problem?.hasPrefix("refused") == true } == [true, false])
    #expect(try reopened.meme(id: 1).problem?.hasPrefix("refused") == true)
    #expect(try reopened.meme(id: 2).problem?.hasPrefix("refused") == true)
    // Deleting the escaping meme moves the link, never what it points to.
    try reopened.delete(id: 1)
    #expect(FileKind(path: outside.path + "/meme.png") != .missing)
  }

  @Test func aReadOnlyDirectoryGivesAClearErrorOnShare() throws {
    let scratch = try Scratch()
    defer { scratch.cleanUp() }
    let existing = try MemeStore(directory: scratch.memes).add(
      FakeMeme.make(top: "ONE", bottom: ""))
    let before = snapshot(scratch.memes)
    let readOnly = FaultyFileSystem(fault: nil, failEverything: EROFS)
    let store = MemeStore(directory: scratch.memes, fileSystem: readOnly)
    #expect(try store.memes() == [existing])
    do {
      _ = try store.add(FakeMeme.make(top: "TWO", bottom: ""))
      Issue.record("a share into a read-only directory succeeded")
    } catch let error as StoreError {
      #expect(error.message.contains("read-only file system"))
      #expect(error.message.contains(scratch.path))
      #expect(!error.message.contains("\n"))
    }
    #expect(throws: StoreError.self) { try store.delete(id: 1) }
    #expect(snapshot(scratch.memes) == before)
  }

  @Test func aMissingIndexNeverLetsAnIDBeReused() throws {
    let scratch = try Scratch()
    defer { scratch.cleanUp() }
    let store = try MemeStore(directory: scratch.memes)
    for number in 1...3 { _ = try store.add(FakeMeme.make(top: "\(number)", bottom: "")) }
    try FileManager.default.removeItem(at: store.indexURL)
    // The memes are taken back from their own records, with a note; no id is reused.
    let reopened = try MemeStore(directory: scratch.memes)
    #expect(reopened.notice?.hasPrefix("store: took back memes 1, 2, 3") == true)
    #expect(try reopened.memes().map(\.recipe.top) == ["1", "2", "3"])
    #expect(try reopened.add(FakeMeme.make(top: "NEW", bottom: "")).id == 4)
    #expect(FileKind(path: scratch.path + "/3/meme.png") != .missing)
  }

  /// MEMESH_HOME naming a file, a file where the memes folder goes: the notice and the share's
  /// error say which path is in the way, and nothing is written.
  @Test(arguments: ["", "/memes"])
  func aFileWhereAFolderMustBeNamesIt(_ fileAt: String) throws {
    let scratch = try Scratch()
    defer { scratch.cleanUp() }
    let file = scratch.url.path + "/home" + fileAt
    if !fileAt.isEmpty {
      try FileManager.default.createDirectory(
        atPath: scratch.url.path + "/home", withIntermediateDirectories: true)
    }
    try Data("notes\n".utf8).write(to: URL(fileURLWithPath: file))
    let opened = MemeStore.open(home: scratch.url.appendingPathComponent("home"))
    let memes = scratch.url.path + "/home/memes"
    #expect(opened.store.isReadOnly)
    #expect(
      opened.notice
        == "store: cannot use '\(memes)': '\(file)' is not a directory; sharing will fail")
    let error = #expect(throws: StoreError.self) {
      try opened.store.add(FakeMeme.make(top: "ONE", bottom: ""))
    }
    #expect(error?.message.hasSuffix(": '\(file)' is not a directory") == true)
    #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == Data("notes\n".utf8))
  }

  /// A symlink where the memes folder goes is refused, as the store refuses any symlinked
  /// folder, and the notice says so (it said "cannot create").
  @Test func aSymlinkedMemesFolderIsRefusedByName() throws {
    let scratch = try Scratch()
    defer { scratch.cleanUp() }
    let elsewhere = scratch.url.appendingPathComponent("other-disk")
    try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(at: scratch.memes, withDestinationURL: elsewhere)
    let store = MemeStore(directory: scratch.memes, fileSystem: POSIXFileSystem())
    #expect(
      store.notice
        == "store: cannot use '\(scratch.path)': it is a symlink, refused; sharing will fail")
  }
}
