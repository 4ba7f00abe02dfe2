import Foundation
import Testing

@testable import MemeSystem

/// A new empty folder, removed at the end.
final class ScratchFolder {
  let path: String
  init() throws {
    var template = Array((NSTemporaryDirectory() + "/memesystem.XXXXXX").utf8CString)
    let made = template.withUnsafeMutableBufferPointer { buffer in
      buffer.baseAddress.map { mkdtemp($0) != nil } ?? false
    }
    guard made else { throw SystemError(.create, path: "scratch", code: errno) }
    path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
  deinit { try? FileManager.default.removeItem(atPath: path) }
}

@Suite struct SystemErrorTests {
  @Test(arguments: [
    (ENOENT, false, "no such file"), (ENOENT, true, "no such folder"),
    (EACCES, false, "permission denied"), (ENOSPC, true, "no space left on the device"),
    (ENOTDIR, true, "a part of the path is not a folder"),
  ])
  func oneWordingPerErrno(code: Int32, creating: Bool, words: String) {
    #expect(SystemError.reason(code, creating: creating) == words)
  }

  @Test func messageNamesOperationPathAndReason() {
    #expect(
      SystemError(.write, path: "/x/y.png", code: ENOENT).message
        == "cannot write '/x/y.png': no such folder")
    #expect(SystemError.symlink(.remove, path: "/h/trash").message
      == "cannot remove '/h/trash': it is a symlink, refused")
  }
}

@Suite struct DirectoryTests {
  @Test func symlinkedFolderIsRefusedNotFollowed() throws {
    let scratch = try ScratchFolder()
    let outside = try ScratchFolder()
    try Data("keep".utf8).write(to: URL(fileURLWithPath: outside.path + "/precious"))
    symlink(outside.path, scratch.path + "/trash")
    let root = try Directory.open(scratch.path)
    #expect(throws: SystemError.symlink(.open, path: scratch.path + "/trash")) {
      try root.directory("trash")
    }
    #expect(throws: SystemError.symlink(.remove, path: scratch.path + "/trash")) {
      try root.remove("trash")
    }
    #expect(throws: SystemError.self) { try Directory.open(scratch.path + "/trash") }
    #expect(FileManager.default.fileExists(atPath: outside.path + "/precious"))
    #expect(FileKind(path: scratch.path + "/trash") == .symlink)
  }

  @Test func removeStopsAtASymlinkInside() throws {
    let scratch = try ScratchFolder()
    let outside = try ScratchFolder()
    try Data("keep".utf8).write(to: URL(fileURLWithPath: outside.path + "/precious"))
    let root = try Directory.open(scratch.path)
    try root.makeDirectory("12")
    symlink(outside.path, scratch.path + "/12/link")
    #expect(throws: SystemError.self) { try root.remove("12") }
    #expect(FileManager.default.fileExists(atPath: outside.path + "/precious"))
  }

  @Test func newFoldersAndFilesArePrivate() throws {
    let scratch = try ScratchFolder()
    let root = try Directory.open(scratch.path)
    try root.makeDirectory("memes")
    try AtomicFile("index.plist", in: try root.directory("memes")).write(Data("x".utf8))
    #expect(root.status(of: "memes").map { $0.st_mode & 0o777 } == 0o700)
    #expect(try root.directory("memes").status(of: "index.plist").map { $0.st_mode & 0o777 } == 0o600)
  }
}

@Suite struct AtomicFileTests {
  @Test func replacesWholeAndLeavesNoTemporary() throws {
    let scratch = try ScratchFolder()
    let root = try Directory.open(scratch.path)
    let file = AtomicFile("a", in: root)
    try file.write(Data("one".utf8))
    try file.write(Data("two".utf8))
    #expect(try root.readFile("a") == Data("two".utf8))
    #expect(try root.entries() == ["a"])
  }

  @Test func aSymlinkAtTheNameIsReplacedNotWrittenThrough() throws {
    let scratch = try ScratchFolder()
    let outside = try ScratchFolder()
    try Data("keep".utf8).write(to: URL(fileURLWithPath: outside.path + "/precious"))
    symlink(outside.path + "/precious", scratch.path + "/a")
    try AtomicFile("a", in: try Directory.open(scratch.path)).write(Data("new".utf8))
    #expect(FileManager.default.contents(atPath: outside.path + "/precious") == Data("keep".utf8))
  }

  @Test func leftoversOfADeadWriterAreRemovedOthersKept() throws {
    let scratch = try ScratchFolder()
    let root = try Directory.open(scratch.path)
    // pid 2^22+1 is above Linux's pid_max default ceiling: no such process.
    let dead = ".meme.png.memesh-4194305-17"
    let live = ".meme.png.memesh-\(getpid())-18"
    for name in [dead, live, ".meme.png.memesh-x-1", "meme.png"] {
      try root.createFile(name, contents: Data("x".utf8))
    }
    #expect(AtomicFile.removeDeadLeftovers(in: root) == [dead])
    #expect(Set(try root.entries()) == [live, ".meme.png.memesh-x-1", "meme.png"])
  }
}

@Suite struct MemeshPathsTests {
  @Test func homeOrder() {
    #expect(MemeshPaths.home(flag: "/f", environment: ["MEMESH_HOME": "/m"]) == "/f")
    #expect(MemeshPaths.home(flag: nil, environment: ["MEMESH_HOME": "/m"]) == "/m")
    #expect(MemeshPaths.home(flag: "~/h", environment: ["HOME": "/u"]) == "/u/h")
    #expect(MemeshPaths.home(flag: nil, environment: ["XDG_DATA_HOME": "/x", "HOME": "/u"]) == "/x/memesh")
    #expect(MemeshPaths.home(flag: nil, environment: ["HOME": "/u"]) == "/u/.local/share/memesh")
    #expect(MemeshPaths.historyFile(flag: "/f", environment: [:]) == "/f/history")
    #expect(MemeshPaths.historyFile(flag: nil, environment: ["HOME": "/u"])
      == "/u/.local/state/memesh/history")
  }

  @Test func unusableHomes() throws {
    let scratch = try ScratchFolder()
    try Data().write(to: URL(fileURLWithPath: scratch.path + "/file"))
    #expect(MemeshPaths.unusableHome("") != nil)
    #expect(MemeshPaths.unusableHome(scratch.path + "/file") == "it is not a folder")
    #expect(
      MemeshPaths.unusableHome(scratch.path + "/file/x")?.hasSuffix("/file' is not a folder") == true)
    #expect(MemeshPaths.unusableHome(scratch.path + "/new/deeper") == nil)
    #expect(MemeshPaths.unusableHome(scratch.path) == nil)
  }
}

/// Reading a whole file: its bytes, or a `.read` error saying why in the one wording table.
@Suite struct WholeFileTests {
  @Test func readsTheBytes() throws {
    let scratch = try ScratchFolder()
    let path = scratch.path + "/file"
    try Data("hello\n".utf8).write(to: URL(fileURLWithPath: path))
    #expect(try WholeFile.read(path: path) == Data("hello\n".utf8))
  }

  /// Large files are read into a page mapping of their own: every byte arrives, at sizes on,
  /// around and between page and 1-MB boundaries.
  @Test(arguments: [(1 << 20) - 1, 1 << 20, (2 << 20) + 1, (4 << 20) + 4_097, 6 << 20])
  func readsLargeFilesWhole(size: Int) throws {
    let scratch = try ScratchFolder()
    let path = scratch.path + "/photo"
    // No stretch of the file repeats another at a page's distance.
    let bytes = Data((0..<size).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 11) })
    try bytes.write(to: URL(fileURLWithPath: path))
    let read = try WholeFile.read(path: path)
    #expect(read.count == size)
    #expect(read == bytes)
  }

  @Test func headIsTheSizeAndFirstBytes() throws {
    let scratch = try ScratchFolder()
    let path = scratch.path + "/file"
    try Data("hello\n".utf8).write(to: URL(fileURLWithPath: path))
    let head = try #require(WholeFile.head(path: path, count: 4))
    #expect(head.size == 6)
    #expect(head.bytes == Data("hell".utf8))
    #expect(WholeFile.head(path: path, count: 16)?.bytes == Data("hello\n".utf8))
    #expect(WholeFile.head(path: "/nonexistent/f", count: 4) == nil)
    #expect(WholeFile.head(path: scratch.path, count: 4) == nil, "a folder")
    #expect(WholeFile.head(path: "/dev/null", count: 4) == nil, "not a regular file")
  }

  @Test func aMissingFileIsMissing() {
    let error = #expect(throws: SystemError.self) { try WholeFile.read(path: "/nonexistent/f") }
    #expect(error?.isMissing == true)
    #expect(error?.message == "cannot read '/nonexistent/f': no such file")
  }

  @Test func refusalsAreNotMissingFiles() throws {
    let scratch = try ScratchFolder()
    let path = scratch.path + "/file"
    try Data(count: 10).write(to: URL(fileURLWithPath: path))
    let cases: [(String, Int, String)] = [
      ("/dev/null", 1 << 20, "not a regular file"), (scratch.path, 1 << 20, "is a directory"),
      (path, 5, "the file is larger than 0 MB"), ("", 1, "no file name given"),
      (path + "\0x", 1 << 20, "the file name contains a NUL byte"),
    ]
    for (path, limit, reason) in cases {
      let error = #expect(throws: SystemError.self) { try WholeFile.read(path: path, maxBytes: limit) }
      #expect(error?.reason == reason)
      #expect(error?.isMissing == false)
    }
  }
}
