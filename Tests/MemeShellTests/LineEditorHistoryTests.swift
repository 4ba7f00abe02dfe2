import Foundation
import Testing

@testable import MemeShell

/// The history file's encoding and its reading, appending, trimming and refusing.
@Suite struct LineEditorHistoryTests {
  let folder: URL

  init() throws {
    folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("memesh-history-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  // MARK: - Encoding

  @Test(arguments: [
    "plain", "two  spaces ", "tab\there", "new\nline", "back\\slash \\040", "\u{1B}[31mred",
    "c1 \u{85} del \u{7F} nul-free", "👩‍👩‍👧 family", "猫 é e\u{301}", "bidi \u{202E}x",
    "nbsp\u{A0}x", "line\u{2028}separator", "top \"I SEE\" what", "",
  ])
  func entriesRoundTripOnOneSafeLine(_ line: String) throws {
    let encoded = LineEditorHistoryEncoding.encode(line)
    #expect(LineEditorHistoryEncoding.decode(Array(encoded.utf8)) == line)
    // One line, no raw controls, spaces or invisible characters.
    #expect(
      !encoded.unicodeScalars.contains { $0.value <= 0x20 || (0x7F...0xA0).contains($0.value) })
    #expect(!encoded.unicodeScalars.contains { $0.properties.generalCategory == .format })
  }

  @Test func readsWhatLibeditWrites() {
    // Written by libedit 3.1's H_SAVE.
    let cases: [(String, String)] = [
      ("top\\040\"I\\040SEE\"\\040what", "top \"I SEE\" what"),
      ("tab\\011here\\134back\\040nl\\012x", "tab\there\\back nl\nx"),
      (
        "caf\u{E9}\\040\\^[[31m\\040del\\^?\\040bell\\^G",
        "caf\u{E9} \u{1B}[31m del\u{7F} bell\u{7}"
      ),
      ("hash#!^\\040~$\\040", "hash#!^ ~$ "),
    ]
    for (stored, line) in cases {
      #expect(LineEditorHistoryEncoding.decode(Array(stored.utf8)) == line)
    }
  }

  @Test(arguments: ["bad\\q", "cut\\", "cut\\04", "\\777", "\\377", "raw\u{0}nul", "\\^"])
  func refusesDamagedLines(_ stored: String) {
    #expect(LineEditorHistoryEncoding.decode(Array(stored.utf8)) == nil)
  }

  // MARK: - The file

  @Test func appendCreatesPrivateFolderAndFileAndLoadReadsThem() throws {
    let url = folder.appendingPathComponent("a/b/history")
    let file = LineEditorHistoryFile(url: url, limit: 1000)
    #expect(try file.load().get() == [])
    #expect(!FileManager.default.fileExists(atPath: url.deletingLastPathComponent().path))
    try file.append("load 'my photo.jpg'")
    try file.append("top I SEE\nwhat")
    #expect(try file.load().get() == ["load 'my photo.jpg'", "top I SEE\nwhat"])
    let modes = try [url.deletingLastPathComponent(), folder.appendingPathComponent("a"), url].map {
      try FileManager.default.attributesOfItem(atPath: $0.path)[.posixPermissions] as? Int
    }
    #expect(modes == [0o700, 0o700, 0o600])
  }

  @Test func trimKeepsTheNewestEntries() throws {
    let url = folder.appendingPathComponent("history")
    let file = LineEditorHistoryFile(url: url, limit: 5)
    for number in 1...8 { try file.append("line \(number)") }
    #expect(try file.load().get() == (4...8).map { "line \($0)" })
    try file.trim()
    let text = try String(contentsOf: url, encoding: .utf8)
    #expect(text == "_HiStOrY_V2_\n" + (4...8).map { "line\\040\($0)\n" }.joined())
    let mode = try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int
    #expect(mode == 0o600)
  }

  @Test func aDamagedFileIsRefusedAndNeverWritten() throws {
    let url = folder.appendingPathComponent("history")
    let damaged = Data("some notes\nnot history\n".utf8)
    try damaged.write(to: url)
    let file = LineEditorHistoryFile(url: url, limit: 5)
    guard case .failure(let failure) = file.load() else {
      Issue.record("a damaged file loaded")
      return
    }
    #expect(failure.message.contains("is not a memesh history file"))
    #expect(!failure.message.contains("\n"))
    #expect(throws: LineEditorHistoryFile.Failure.self) { try file.append("x") }
    #expect(throws: LineEditorHistoryFile.Failure.self) { try file.trim() }
    #expect(try Data(contentsOf: url) == damaged)

    let badLine = Data("_HiStOrY_V2_\nok\nbad\\q\n".utf8)
    try badLine.write(to: url)
    guard case .failure(let lineFailure) = file.load() else {
      Issue.record("a damaged line loaded")
      return
    }
    #expect(lineFailure.message.contains("has a damaged line 3"))
  }

  @Test func aFolderInItsPlaceIsRefused() throws {
    let url = folder.appendingPathComponent("history")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    let file = LineEditorHistoryFile(url: url, limit: 5)
    guard case .failure(let failure) = file.load() else {
      Issue.record("a folder loaded as history")
      return
    }
    #expect(failure.message.contains("not a regular file"))
  }

  @Test func sessionsAppendingTogetherKeepEveryLine() throws {
    let url = folder.appendingPathComponent("history")
    let writers = ["a", "b", "c"]
    DispatchQueue.concurrentPerform(iterations: writers.count) { index in
      // Each writer is its own file value with its own descriptors, as separate sessions are.
      let file = LineEditorHistoryFile(url: url, limit: 1000)
      for number in 0..<150 { try? file.append("\(writers[index]) \(number)") }
    }
    let entries = try LineEditorHistoryFile(url: url, limit: 1000).load().get()
    #expect(entries.count == 450)
    for writer in writers {
      #expect(entries.filter { $0.hasPrefix(writer + " ") } == (0..<150).map { "\(writer) \($0)" })
    }
  }

  @Test func trimmingWhileOthersAppendLosesNothingRecent() throws {
    let url = folder.appendingPathComponent("history")
    // Real threads, so the trimmer's renames land between the writers' opens and locks.
    let done = DispatchSemaphore(value: 0)
    for index in 0..<3 {
      Thread {
        let file = LineEditorHistoryFile(url: url, limit: 50)
        for number in 0..<400 {
          if index == 2 {
            try? file.trim()
          } else {
            try? file.append("\(index) \(number)")
          }
        }
        done.signal()
      }.start()
    }
    for _ in 0..<3 { done.wait() }
    let file = LineEditorHistoryFile(url: url, limit: 50)
    try file.trim()
    let entries = try file.load().get()
    #expect(entries.count == 50)
    // Trimming only drops the oldest lines: each writer's lines still in the file are its last
    // ones, in order, with none lost to a file that was replaced while it appended.
    #expect(entries.last?.hasSuffix(" 399") == true)
    for writer in ["0", "1"] {
      let numbers = entries.filter { $0.hasPrefix(writer + " ") }.compactMap {
        Int($0.dropFirst(2))
      }
      if let first = numbers.first { #expect(numbers == Array(first...399)) }
    }
  }
}
