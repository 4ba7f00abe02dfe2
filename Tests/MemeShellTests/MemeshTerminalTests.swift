import Foundation
import Testing

@testable import MemeShell

/// The built `memesh` in a real terminal (tmux), read back as a person sees the screen: what
/// depends on the window's size.
@Suite(.serialized) struct MemeshTerminalTests {
  let home = FileManager.default.temporaryDirectory.appendingPathComponent(
    "memesh-terminal-\(UUID().uuidString)")

  /// Three sent memes with long captions, made by a piped session.
  func makeMemes() throws {
    let result = try EndToEndTests().run(
      [],
      input: """
        load images/cat.png
        caption one does not simply walk into a terminal | and expect the table to fit
        share
        load images/photo.jpg
        caption 日本語のキャプションはとても長いです | 😹 cats 😹 everywhere
        share
        load images/square.png
        top short
        share
        """, home: home)
    #expect(result.status == 0, "\(result.errors)")
  }

  /// memesh on a `width`×`height` terminal, drawing with block symbols, ready at its prompt.
  func start(
    width: Int, height: Int, environment: String = "", arguments: String = ""
  ) throws -> LineEditorTerminal {
    let binary = try #require(EndToEndTests.binary(), "the memesh binary is not built")
    let folder = EndToEndTests.packageRoot.appendingPathComponent("transcripts").path
    let command =
      "cd \(LineEditorTerminal.shellQuote(folder)) && exec env LANG=C.UTF-8 TERM=xterm-256color "
      + "MEMESH_HOME=\(LineEditorTerminal.shellQuote(home.path)) MEMESH_PREVIEW=symbols "
      + "MEMESH_CAMERA=/nonexistent XDG_CONFIG_HOME=/nonexistent \(environment) "
      + LineEditorTerminal.shellQuote(binary.path) + " " + arguments
    return try LineEditorTerminal(command: command, width: width, height: height) {
      $0.contains("memesh:sent>") || $0.contains("memesh:edit>")
    }
  }

  /// Runs `line` on a cleared screen at the prompt `before` and waits for the prompt `after`;
  /// the screen's rows.
  func run(
    _ line: String, in terminal: LineEditorTerminal, before: String = "memesh:sent>",
    after: String? = nil
  ) throws -> [String] {
    func rows(_ screen: String) -> [String] { screen.split(separator: "\n").map(String.init) }
    try terminal.type("clear")
    try terminal.press("Enter")
    try terminal.waitFor { rows($0) == [before] }
    try terminal.type(line)
    try terminal.press("Enter")
    try terminal.waitFor { rows($0).count > 1 && rows($0).last == (after ?? before) }
    return try terminal.screen()
  }

  @Test func theSentMemesTableFillsTheWindowEvenAfterAResize() throws {
    defer { try? FileManager.default.removeItem(at: home) }
    try makeMemes()
    let terminal = try start(width: 80, height: 24)
    for width in [80, 60] {
      try terminal.resize(width: width, height: 24)
      let screen = try run("browse", in: terminal)
      let table = Array(screen.drop { !$0.hasPrefix("ID  TOP") }.prefix(4))
      // One screen line per meme: a row that wrapped would push its end onto a line of its own.
      #expect(table.count == 4, "\(screen.joined(separator: "\n"))")
      #expect(table.dropFirst().map { $0.prefix(3) } == [" 1 ", " 2 ", " 3 "])
      #expect(
        screen.allSatisfy { Display.columns($0) <= width }, "\(screen.joined(separator: "\n"))")
      // Cut captions end in "…"; the short one is whole.
      #expect(table[1].contains("…"))
      #expect(table[3].contains(" short "))
    }
    // A wide window shows long captions whole (a pipe cuts them at 24 columns).
    try terminal.resize(width: 140, height: 24)
    let screen = try run("browse", in: terminal)
    #expect(
      screen.contains { $0.contains(" one does not simply walk into a terminal ") },
      "\(screen.joined(separator: "\n"))")
    #expect(screen.contains { $0.contains(" 日本語のキャプションはとても長いです ") })
  }

  @Test func showFitsThePictureTheFactsAndThePromptInTheWindow() throws {
    defer { try? FileManager.default.removeItem(at: home) }
    try makeMemes()
    let terminal = try start(width: 80, height: 24)
    let screen = try run("show 1", in: terminal, after: "memesh:meme 1>")
    // Nothing scrolled away: the typed command is still on the first row, the picture under it.
    #expect(screen.first == "memesh:sent> show 1", "\(screen.joined(separator: "\n"))")
    let facts = try #require(screen.firstIndex(of: "meme: 1"))
    #expect(facts >= 1 + 4, "a picture of at least 4 rows between the command and the facts")
    #expect(screen[facts...].contains("file: " + home.path + "/memes/1/meme.png"))
  }

  @Test func helpWrapsAtTheWindowsWidthBetweenWords() throws {
    defer { try? FileManager.default.removeItem(at: home) }
    for width in [80, 60] {
      let terminal = try start(width: width, height: 120)
      let screen = try run("help", in: terminal, before: "memesh:edit>")
      let text = screen.joined(separator: "\n")
      // No line is wider than the window (the terminal would have cut it anywhere) ...
      #expect(screen.allSatisfy { Display.columns($0) <= width }, "\(text)")
      // ... and wrapping only ever replaced a space: the sentences read whole again.
      let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
      #expect(words.contains("undo the last change (in the sent memes: the last delete)"))
      #expect(
        words.contains(
          "--keep-going goes on (status 1 at the end if any failed, 0 after 'quit')."))
    }
  }

  @Test func ctrlCDuringALongCommandLeavesItsMessageOnALineOfItsOwn() throws {
    defer { try? FileManager.default.removeItem(at: home) }
    // Long enough to still be running when Ctrl-C comes (several seconds).
    let script = home.appendingPathComponent("long.memesh")
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    try Data(String(repeating: "top again\n", count: 300_000).utf8).write(to: script)
    let terminal = try start(width: 80, height: 24)
    try terminal.type("source \(LineEditorTerminal.shellQuote(script.path))")
    try terminal.press("Enter")
    usleep(300_000)
    try terminal.press("C-c")
    try terminal.waitFor("error: source: interrupted")
    let screen = try terminal.screen()
    // The terminal echoes ^C where the cursor is; the message starts on the next line.
    #expect(screen.contains("^C"), "\(screen.joined(separator: "\n"))")
    #expect(
      screen.contains { $0.hasPrefix("error: source: interrupted; stopped before line ") },
      "\(screen.joined(separator: "\n"))")
  }

  @Test func theTableShownAtTheStartHoldsOnlyTheNewestMemesThatFit() throws {
    defer { try? FileManager.default.removeItem(at: home) }
    let input = (1...25).map { "load images/square.png\ntop meme \($0)\nshare" }
    let made = try EndToEndTests().run([], input: input.joined(separator: "\n"), home: home)
    #expect(made.status == 0, "\(made.errors)")
    let terminal = try start(width: 80, height: 24)
    let screen = try terminal.screen()
    let text = screen.joined(separator: "\n")
    // Nothing scrolled away: the banner is still on the first row.
    #expect(screen.first?.hasPrefix("memesh 0.1.0: ") == true, "\(text)")
    #expect(screen.contains("the newest 18 of 25 sent memes ('browse' lists them all):"), "\(text)")
    let ids = screen.compactMap { Int($0.prefix(4).trimmingCharacters(in: .whitespaces)) }
    #expect(ids == Array(8...25), "\(text)")
    // 'browse' still lists every meme.
    try terminal.resize(width: 80, height: 40)
    try terminal.type("browse")
    try terminal.press("Enter")
    // "meme 25" is on the screen already (the start-up table): wait for browse's own rows.
    try terminal.waitFor { $0.contains("\n 1  meme 1 ") }
  }

  @Test func withNoColorPicturesAreDrawnWithoutColors() throws {
    defer { try? FileManager.default.removeItem(at: home) }
    try makeMemes()
    let terminal = try start(width: 80, height: 24, environment: "MEMESH_PREVIEW= NO_COLOR=1")
    let screen = try run("browse grid", in: terminal)
    // Thumbnails in block symbols (their shapes, in the terminal's own colors) over their ids.
    #expect(!screen.contains { $0.contains("pictures are off") })
    #expect(
      screen.contains { $0.unicodeScalars.contains { (0x2580...0x259F).contains($0.value) } },
      "\(screen.joined(separator: "\n"))")
    #expect(screen.contains { $0.trimmingCharacters(in: .whitespaces).hasPrefix("1 ") })
  }

  @Test func aPreviewNamesTheCaptionsLeftAsPlaceholdersOnOneLine() throws {
    defer { try? FileManager.default.removeItem(at: home) }
    let terminal = try start(width: 80, height: 24)
    try terminal.type("load images/cat.png")
    try terminal.press("Enter")
    try terminal.waitForPrompt("memesh:edit cat.png>")
    let cases = [
      (
        "top only a top",
        "(the placeholder BOTTOM is not drawn; 'bottom TEXT' sets the bottom caption)"
      ),
      (
        "caption | only a bottom",
        "(the placeholder TOP is not drawn; 'top TEXT' sets the top caption)"
      ),
      (
        "bottom ''",
        "(placeholders TOP and BOTTOM are not drawn; 'top TEXT', 'bottom TEXT' set them)"
      ),
    ]
    for (change, note) in cases {
      try terminal.type(change)
      try terminal.press("Enter")
      let screen = try run("preview", in: terminal, before: "memesh:edit cat.png>")
      #expect(screen.contains(note), "\(screen.joined(separator: "\n"))")
    }
  }

  @Test func ctrlDUnderAnOpenQuoteSaysWhyNothingRanAndTheSessionGoesOn() throws {
    defer { try? FileManager.default.removeItem(at: home) }
    let terminal = try start(width: 80, height: 24)
    try terminal.type("top 'unfinished")
    try terminal.press("Enter")
    try terminal.waitFor("...'>")
    try terminal.press("C-d")
    try terminal.waitFor("error: unterminated single quote (close it with ')")
    try terminal.waitForPrompt("memesh:edit>")
    try terminal.type("top")
    try terminal.press("Enter")
    try terminal.waitFor("top: TOP (placeholder")
  }
}
