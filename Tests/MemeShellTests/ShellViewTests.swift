import Foundation
import Testing

@testable import MemeShell

/// Views and where commands take the user, run in-process on a scratch home.
@Suite struct ShellViewTests {
  static let images = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("transcripts/images")

  func makeShell(home: URL, interactive: Bool = false) -> (Shell, Console.Capture) {
    let capture = Console.Capture()
    var settings = Shell.Settings()
    settings.interactive = interactive
    let shell = Shell(
      home: home, console: Console(capture: capture), settings: settings,
      environment: ["MEMESH_CAMERA": "/nonexistent"])
    return (shell, capture)
  }

  func scratch() -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent(
      "memesh-view-\(UUID().uuidString)")
  }

  /// A damaged store is reported under the banner to a person at a terminal, at once to a
  /// script.
  @Test func aStoreWarningComesUnderTheBanner() throws {
    let home = scratch()
    defer { try? FileManager.default.removeItem(at: home) }
    let memes = home.appendingPathComponent("memes")
    try FileManager.default.createDirectory(at: memes, withIntermediateDirectories: true)
    try Data("hello\n".utf8).write(to: memes.appendingPathComponent("index.plist"))
    let (scripted, scriptedCapture) = makeShell(home: home)
    _ = scripted
    #expect(scriptedCapture.drain().first?.text.hasPrefix("warning: ") == true)
    let (shell, capture) = makeShell(home: home, interactive: true)
    #expect(capture.drain().isEmpty)
    shell.greet()
    let greeting = capture.drain().map(\.text)
    #expect(greeting.first?.hasPrefix("memesh ") == true)
    #expect(greeting.dropFirst().first?.hasPrefix("warning: ") == true)
    #expect(greeting.dropFirst().first?.contains("index") == true)
  }

  /// A shell on `home` with cat.png captioned and shared as meme 1, in the sent memes.
  func shellWithOneSentMeme(home: URL) -> Shell {
    let (shell, _) = makeShell(home: home)
    #expect(shell.run(line: "load '\(Self.images.path)/cat.png'"))
    #expect(shell.run(line: "caption a | b"))
    #expect(shell.run(line: "share"))
    return shell
  }

  @Test func anEmptyStoreStartsInTheEditorAndSharingShowsTheSentMemes() throws {
    let home = scratch()
    defer { try? FileManager.default.removeItem(at: home) }
    let (shell, _) = makeShell(home: home)
    #expect(shell.view == .editor)
    #expect(shell.prompt == "memesh:edit> ")
    #expect(shell.run(line: "load '\(Self.images.path)/cat.png'"))
    #expect(shell.prompt == "memesh:edit cat.png> ")
    #expect(shell.run(line: "caption a | b"))
    #expect(shell.run(line: "share"))
    #expect(shell.view == .sent)
    #expect(shell.prompt == "memesh:sent> ")
  }

  @Test func editorCommandsOpenTheEditorAndShowOpensTheDetail() throws {
    let home = scratch()
    defer { try? FileManager.default.removeItem(at: home) }
    let shell = shellWithOneSentMeme(home: home)
    #expect(shell.run(line: "show 1"))
    #expect(shell.prompt == "memesh:meme 1> ")
    // Editor commands from the detail view open the editor.
    #expect(shell.run(line: "top again"))
    #expect(shell.view == .editor)
    // show from the editor opens the detail.
    #expect(shell.run(line: "show 1"))
    #expect(shell.view == .detail(id: 1))
    #expect(shell.run(line: "back"))
    #expect(shell.view == .sent)
  }

  /// The next session starts in the editor when a draft is waiting: a script restores it
  /// silently; a person at a terminal gets a one-line note, under the banner.
  @Test func aWaitingDraftIsRestoredWithANoteOnlyInATerminal() throws {
    let home = scratch()
    defer { try? FileManager.default.removeItem(at: home) }
    let shell = shellWithOneSentMeme(home: home)
    #expect(shell.run(line: "top again"))
    let (scripted, scriptedCapture) = makeShell(home: home)
    #expect(scripted.state.recipe.top == "again")
    #expect(scriptedCapture.drain().isEmpty)
    let (next, capture) = makeShell(home: home, interactive: true)
    #expect(next.view == .editor)
    #expect(next.state.recipe.top == "again")
    #expect(capture.drain().isEmpty)
    next.greet()
    let greeting = capture.drain().map(\.text)
    #expect(greeting.first?.hasPrefix("memesh ") == true)
    #expect(greeting.dropFirst().first?.hasPrefix("note: restored the draft") == true)
  }

  @Test func aRestoredDraftCancelledLeavesTheNextSessionInTheSentMemes() throws {
    let home = scratch()
    defer { try? FileManager.default.removeItem(at: home) }
    let shell = shellWithOneSentMeme(home: home)
    #expect(shell.run(line: "top again"))
    let (restored, _) = makeShell(home: home)
    #expect(restored.view == .editor)
    #expect(restored.run(line: "cancel"))
    let (next, _) = makeShell(home: home)
    #expect(next.view == .sent)
  }

  @Test func undoBringsBackADeletedMemeInAnyViewAcrossSessions() throws {
    let home = scratch()
    defer { try? FileManager.default.removeItem(at: home) }
    let (shell, capture) = makeShell(home: home)
    #expect(shell.run(line: "load '\(Self.images.path)/square.png'"))
    #expect(shell.run(line: "share"))
    #expect(shell.run(line: "delete 1"))
    let (next, _) = makeShell(home: home)
    _ = capture.drain()
    #expect(next.view == .editor)  // the store is empty again
    // The delete is the last thing done, though this session starts in the editor.
    #expect(next.run(line: "undo"))
    #expect(try next.store.memes().map(\.id) == [1])
    #expect(next.view == .sent)
    #expect(next.run(line: "undo") == false)  // nothing older to undo
  }

  @Test func aFailedCommandChangesNothing() throws {
    let home = scratch()
    defer { try? FileManager.default.removeItem(at: home) }
    let (shell, capture) = makeShell(home: home)
    #expect(shell.run(line: "load '\(Self.images.path)/cat.png'"))
    let before = shell.state
    #expect(shell.run(line: "load '\(Self.images.path)/notes.txt'") == false)
    #expect(shell.run(line: "crop 1000 1000 5 5") == false)
    #expect(shell.run(line: "font Nonexistent") == false)
    #expect(shell.state == before)
    let errors = capture.drain().filter { $0.stream == .error }.map(\.text)
    #expect(errors.count == 3)
    #expect(errors.allSatisfy { $0.hasPrefix("error: ") })
  }
}

extension ShellViewTests {
  @Test func helpListsEveryCommandOfTheRegistry() throws {
    let home = scratch()
    defer { try? FileManager.default.removeItem(at: home) }
    let (shell, capture) = makeShell(home: home)
    #expect(shell.run(line: "help"))
    let lines = capture.drain().map(\.text)
    for command in CommandRegistry.commands {
      #expect(lines.contains { $0.hasPrefix("  " + command.usage) }, "\(command.name)")
    }
  }
}

extension ShellViewTests {
  /// The sent memes' table lines up in terminal columns whatever the captions hold.
  @Test func theTableLinesUpWideAndCombiningCaptions() throws {
    let home = scratch()
    defer { try? FileManager.default.removeItem(at: home) }
    let (shell, capture) = makeShell(home: home)
    let captions = [
      "日本語のキャプションはとても長い | 下",
      "👨‍👩‍👧 family 👍🏽 🇯🇵🇫🇷 | ❤️ ok",
      "Ame\u{301}lie cafe\u{301} | mañana",
      "مَرْحَبًا بالعالم | plain",
    ]
    for caption in captions {
      #expect(shell.run(line: "load '\(Self.images.path)/square.png'"))
      #expect(shell.run(line: "caption \(caption)"))
      #expect(shell.run(line: "share"))
    }
    _ = capture.drain()
    #expect(shell.run(line: "browse"))
    let lines = capture.drain().map(\.text)
    #expect(lines.count == captions.count + 1)
    /// The terminal column where `word` starts in `line`.
    func column(of word: String, in line: String) -> Int? {
      line.range(of: word).map { Display.columns(String(line[..<$0.lowerBound])) }
    }
    let header = try #require(lines.first)
    for line in lines.dropFirst() {
      #expect(column(of: "Anton", in: line) == column(of: "FONT", in: header), "\(line)")
      #expect(column(of: "64×64", in: line) == column(of: "SIZE", in: header), "\(line)")
    }
    // The long Japanese caption is cut at 24 columns, with an ellipsis.
    #expect(lines[1].contains("日本語のキャプションは…"))
  }
}

extension ShellViewTests {
  /// Ctrl-C during a long command (the line editor's flag, here set by the test) stops it
  /// before it changes anything, with one error line; the session goes on.
  @Test func ctrlCDuringLongCommandsChangesNothing() throws {
    let home = scratch()
    defer { try? FileManager.default.removeItem(at: home) }
    let (shell, capture) = makeShell(home: home)
    #expect(shell.run(line: "load '\(Self.images.path)/square.png'"))
    #expect(shell.run(line: "caption keep | me"))
    #expect(shell.run(line: "share"))
    #expect(shell.run(line: "load '\(Self.images.path)/square.png'"))
    #expect(shell.run(line: "top draft"))
    let before = shell.state
    // load() waits for the draft's background save.
    let draft = try #require(try shell.editor.drafts.load())
    let out = home.appendingPathComponent("out.png")
    _ = capture.drain()

    shell.interruptRequested = { true }
    #expect(!shell.run(line: "load '\(Self.images.path)/cat.png'"))
    #expect(!shell.run(line: "preview --out '\(out.path)'"))
    #expect(!shell.run(line: "preview"))
    #expect(!shell.run(line: "fonts"))
    #expect(!shell.run(line: "browse"))
    #expect(!shell.run(line: "browse --tsv"))
    #expect(!shell.run(line: "edit 1"))
    #expect(
      capture.drain().map(\.text) == [
        "error: load: interrupted; the editor is unchanged",
        "error: preview: interrupted; nothing was written",
        "error: preview: interrupted; nothing was shown",
        "error: fonts: interrupted",
        "error: browse: interrupted; nothing was listed",
        "error: browse: interrupted; nothing was listed",
        "error: edit: interrupted; the editor is unchanged",
      ])
    #expect(shell.state == before)
    #expect(shell.view == .editor)
    #expect(try shell.editor.drafts.load() == draft)
    #expect(!FileManager.default.fileExists(atPath: out.path))
    #expect(try shell.store.memes().count == 1)

    shell.interruptRequested = { false }
    #expect(shell.run(line: "browse"))
    #expect(shell.view == .sent)
  }
}

extension ShellViewTests {
  /// A long picture name is cut in the middle in the prompt: its end and extension stay.
  @Test func theEditorPromptKeepsTheEndOfALongName() throws {
    let home = scratch()
    defer { try? FileManager.default.removeItem(at: home) }
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    let long = home.appendingPathComponent(
      "a very long file name for a picture of my cat sleeping on the sofa.png")
    try FileManager.default.copyItem(at: Self.images.appendingPathComponent("cat.png"), to: long)
    let (shell, _) = makeShell(home: home)
    #expect(shell.run(line: "load '\(long.path)'"))
    #expect(shell.prompt == "memesh:edit a very long file na…the sofa.png> ")
    #expect(Shell.promptName("猫 ☕.jpg") == "猫 ☕.jpg")
    #expect(Shell.promptName(String(repeating: "猫", count: 20) + ".jpg") == "猫猫猫猫猫猫猫猫猫…猫猫猫猫.jpg")
  }
}
