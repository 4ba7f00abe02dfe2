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

extension CompletionTests {
  /// Meme ids are listed with their captions as 'caption' takes them, with no dangling bar.
  @Test func memeIDsAreListedWithTheirCaptions() throws {
    let (shell, _) = try makeShell()
    let images = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("transcripts/images/cat.png").path
    for captions in ["one | two", "only top |", "| only bottom", "|"] {
      #expect(shell.run(line: "load '\(images)'"))
      #expect(shell.run(line: "caption \(captions)"))
      #expect(shell.run(line: "share"))
    }
    #expect(
      shell.complete("show ").candidates.map(\.display) == [
        "1  one | two", "2  only top", "3  | only bottom", "4  (no captions)",
      ])
    #expect(shell.complete("show 3").candidates.map(\.insertion) == ["3"])
  }
}

extension CompletionTests {
  /// `font` completes font names, and font files and folders once the word is a path.
  @Test func fontOffersFontFilesOnceTheWordIsAPath() throws {
    let (shell, scratch) = try makeShell()
    for name in ["pics/Impact.ttf", "pics/Comic.OTF", "pics/family.ttc", "pics/readme.txt"] {
      FileManager.default.createFile(
        atPath: scratch.appendingPathComponent(name).path, contents: Data())
    }
    let names = shell.complete("font " + scratch.path + "/pics/").candidates.map(\.display)
    #expect(names == ["Comic.OTF", "Impact.ttf", "family.ttc"])
    #expect(
      shell.complete("font " + scratch.path + "/p").candidates.map(\.insertion)
        == [scratch.path + "/pics/"])
    #expect(shell.complete("font Bebas").candidates.map(\.insertion) == ["BebasNeue"])
  }
}

extension CompletionTests {
  /// Every match comes back, not the first thousand: a cut list would make Tab insert a
  /// prefix the other names do not share (a0 for a0000…a1499).
  @Test func aBigFolderGivesEveryNameInByteOrder() throws {
    let (shell, scratch) = try makeShell()
    let folder = scratch.appendingPathComponent("many")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    for number in 0..<1500 {
      let name = "a" + String(10000 + number).dropFirst() + (number % 2 == 0 ? ".png" : ".txt")
      FileManager.default.createFile(
        atPath: folder.appendingPathComponent(name).path, contents: nil)
    }
    for name in ["B.png", ".hidden.png", "sub"] {
      try FileManager.default.createDirectory(
        at: folder.appendingPathComponent(name == "sub" ? name : "ignored"),
        withIntermediateDirectories: true)
      if name != "sub" {
        FileManager.default.createFile(
          atPath: folder.appendingPathComponent(name).path, contents: nil)
      }
    }
    // A link to a folder is a folder; a dangling link is left out.
    try FileManager.default.createSymbolicLink(
      atPath: folder.appendingPathComponent("link").path, withDestinationPath: "sub")
    try FileManager.default.createSymbolicLink(
      atPath: folder.appendingPathComponent("gone.png").path, withDestinationPath: "nowhere")
    let prefix = folder.path + "/"
    let any = shell.complete("share file " + prefix + "a").candidates
    #expect(any.count == 1500)
    #expect(any.first?.display == "a0000.png")
    #expect(any.last?.display == "a1499.txt")
    let pictures = shell.complete("load " + prefix).candidates.map(\.display)
    #expect(pictures.count == 750 + 4)
    #expect(Array(pictures.prefix(2)) == ["B.png", "a0000.png"])
    #expect(["link/", "sub/", "ignored/"].allSatisfy(pictures.contains))
    #expect(!pictures.contains("gone.png") && !pictures.contains(".hidden.png"))
    #expect(shell.complete("load " + prefix + ".").candidates.map(\.display) == [".hidden.png"])
  }
}
