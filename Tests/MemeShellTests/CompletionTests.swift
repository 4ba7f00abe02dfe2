import Foundation
import Testing

@testable import MemeShell

@Suite struct CompletionTests {
  /// A shell on an empty scratch home, working in a scratch folder with a few files.
  func makeShell() throws -> (Shell, URL) {
    let scratch = FileManager.default.temporaryDirectory
      .appendingPathComponent("memesh-completion-\(UUID().uuidString)")
    try FileManager.default.createDirectory(
      at: scratch.appendingPathComponent("pics"), withIntermediateDirectories: true)
    for name in ["pics/my cat.png", "pics/dog.JPG", "pics/notes.txt"] {
      FileManager.default.createFile(
        atPath: scratch.appendingPathComponent(name).path, contents: Data())
    }
    let shell = Shell(
      home: scratch.appendingPathComponent("home"), console: Console(capture: Console.Capture()),
      settings: Shell.Settings(), environment: ["MEMESH_CAMERA": "/nonexistent"])
    return (shell, scratch)
  }

  @Test func commandNamesAndAliases() throws {
    let (shell, _) = try makeShell()
    let result = shell.complete("ca")
    #expect(result.replacedScalars == 2)
    #expect(result.candidates.map(\.insertion) == ["camera", "caption", "cancel"])
    #expect(result.candidates.first?.display == "camera (unavailable)")
    #expect(
      shell.complete("l").candidates.map(\.insertion)
        == ["load", "ls", "list"].sorted {
          ["load", "list", "ls"].firstIndex(of: $0)! < ["load", "list", "ls"].firstIndex(of: $1)!
        })
  }

  @Test func loadOffersImagesAndFoldersQuoted() throws {
    let (shell, scratch) = try makeShell()
    let folder = scratch.path + "/pics/"
    let result = shell.complete("load " + folder)
    let names = result.candidates.map(\.insertion)
    #expect(names.contains(CommandTokenizer.quoted(folder + "my cat.png")))
    #expect(names.contains(CommandTokenizer.quoted(folder + "dog.JPG")))
    #expect(!names.contains { $0.hasSuffix("notes.txt") })
    #expect(result.replacedScalars == folder.unicodeScalars.count)
    let folders = shell.complete("load " + scratch.path + "/pi").candidates
    #expect(folders.map(\.insertion) == [scratch.path + "/pics/"])
    #expect(folders.first?.appendSpace == false)
  }

  @Test func wordsOfCommands() throws {
    let (shell, _) = try makeShell()
    #expect(shell.complete("browse g").candidates.map(\.insertion) == ["grid"])
    #expect(shell.complete("share c").candidates.map(\.insertion) == ["clipboard"])
    #expect(shell.complete("share --format j").candidates.map(\.insertion) == ["jpeg"])
    #expect(shell.complete("crop o").candidates.map(\.insertion) == ["off"])
    #expect(shell.complete("preview --e").candidates.map(\.insertion) == ["--explain"])
    #expect(shell.complete("font os").candidates.map(\.insertion) == ["Oswald"])
    #expect(shell.complete("help capt").candidates.map(\.insertion) == ["caption"])
    #expect(shell.complete("cl").candidates.map(\.insertion) == ["clear", "cls"])
    #expect(shell.complete("help cle").candidates.map(\.insertion) == ["clear"])
  }
}
