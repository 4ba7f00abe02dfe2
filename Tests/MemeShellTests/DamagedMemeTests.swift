import Foundation
import Testing

@testable import MemeShell

/// A sent meme with one of its files gone (a user tidying the folder, a failed disk): each
/// command refuses only when it needs the missing file, and 'edit' then 'share' repairs it.
@Suite struct DamagedMemeTests {
  static let images = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("transcripts/images")

  struct Case: Sendable, CustomTestStringConvertible {
    /// What is removed from `memes/1/`, "" for the folder itself.
    var removed: String
    /// The error line of `export 1 PATH`, or nil when it works.
    var export: String?
    /// The error line of `edit 1`, or nil when it works.
    var edit: String?
    var testDescription: String { removed.isEmpty ? "the folder" : removed }
  }

  static let cases = [
    Case(removed: "thumb.png", export: nil, edit: nil),
    Case(
      removed: "meme.png", export: "error: export: meme 1: its file '[store]/1/meme.png' is missing",
      edit: nil),
    Case(
      removed: "original.png", export: nil,
      edit: "error: edit: meme 1 cannot be edited: its file '[store]/1/original.png' is missing"),
    Case(
      removed: "", export: "error: export: meme 1: its folder '[store]/1' is missing",
      edit: "error: edit: meme 1 cannot be edited: its folder '[store]/1' is missing"),
  ]

  @Test(arguments: cases)
  func commandsNeedOnlyTheirOwnFiles(_ test: Case) throws {
    let home = FileManager.default.temporaryDirectory
      .appendingPathComponent("memesh-damaged-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: home) }
    let capture = Console.Capture()
    func shell() -> Shell {
      Shell(
        home: home, console: Console(capture: capture), settings: Shell.Settings(),
        environment: ["MEMESH_CAMERA": "/nonexistent"])
    }
    let first = shell()
    #expect(first.run(line: "load '\(Self.images.path)/cat.png'"))
    #expect(first.run(line: "caption kept | safe"))
    #expect(first.run(line: "share"))
    let store = first.store.directory.path
    try FileManager.default.removeItem(atPath: "\(store)/1/\(test.removed)")
    _ = capture.drain()

    let session = shell()
    func errors(_ line: String) -> String? {
      let ran = session.run(line: line)
      let lines = capture.drain().filter { $0.stream == .error }.map {
        $0.text.replacingOccurrences(of: store, with: "[store]")
      }
      #expect(ran == lines.isEmpty, "\(line): \(lines)")
      #expect(lines.count <= 1, "\(line): \(lines)")
      return lines.first
    }
    let output = home.appendingPathComponent("out.png").path
    #expect(errors("export 1 '\(output)'") == test.export)
    #expect(FileManager.default.fileExists(atPath: output) == (test.export == nil))
    #expect(errors("edit 1") == test.edit)
    guard test.edit == nil else { return }
    // Sharing the edit writes every file anew: the meme is whole again.
    #expect(errors("share") == nil)
    let repaired = try session.store.meme(id: 1)
    #expect(repaired.problem == nil)
    #expect(repaired.recipe.top == "kept")
  }

  /// 'undo' brings back a deleted meme whose files were removed from the trash meanwhile: the
  /// record comes back, and a warning says its files did not.
  @Test func undoOfADeleteWhoseFilesLeftTheTrashSaysSo() throws {
    let home = FileManager.default.temporaryDirectory
      .appendingPathComponent("memesh-damaged-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: home) }
    let capture = Console.Capture()
    let shell = Shell(
      home: home, console: Console(capture: capture), settings: Shell.Settings(),
      environment: ["MEMESH_CAMERA": "/nonexistent"])
    #expect(shell.run(line: "load '\(Self.images.path)/cat.png'"))
    #expect(shell.run(line: "share"))
    #expect(shell.run(line: "delete 1"))
    let store = shell.store.directory.path
    try FileManager.default.removeItem(atPath: store + "/trash/1")
    _ = capture.drain()
    #expect(shell.run(line: "undo"))
    #expect(
      capture.drain().map(\.text) == [
        "restored meme 1", "warning: meme 1: its folder '\(store)/1' is missing",
      ])
  }

  /// With the index damaged the store is read-only: 'share file' writes nothing and says how the
  /// meme can still be had.
  @Test func shareIntoADamagedStoreNamesTheWayOut() throws {
    let home = FileManager.default.temporaryDirectory
      .appendingPathComponent("memesh-damaged-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: home) }
    let memes = home.appendingPathComponent("memes")
    try FileManager.default.createDirectory(at: memes, withIntermediateDirectories: true)
    try Data("hello\n".utf8).write(to: memes.appendingPathComponent("index.plist"))
    let capture = Console.Capture()
    let shell = Shell(
      home: home, console: Console(capture: capture), settings: Shell.Settings(),
      environment: ["MEMESH_CAMERA": "/nonexistent"])
    #expect(shell.run(line: "load '\(Self.images.path)/cat.png'"))
    _ = capture.drain()
    let output = home.appendingPathComponent("out.png").path
    #expect(!shell.run(line: "share file '\(output)'"))
    #expect(
      capture.drain().map(\.text) == [
        "error: share: the store '\(memes.path)' is read-only: its index is damaged (not an XML "
          + "plist (starts with \"hello\")); nothing was written ('preview --out FILE' writes "
          + "the meme without saving it)"
      ])
    #expect(!FileManager.default.fileExists(atPath: output))
    let index = try Data(contentsOf: memes.appendingPathComponent("index.plist"))
    #expect(index == Data("hello\n".utf8))
  }
}
