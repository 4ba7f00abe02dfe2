import Foundation
import MemeCore
import MemeStore
import Testing

@testable import MemeShell

/// A draft restored at start: its pictures are decoded only when needed, and everything a user
/// sees (undo, preview, share, a damaged draft) is what a session that never quit would show.
@Suite struct DraftRestoreTests {
  static let images = ShellViewTests.images

  func makeShell(home: URL) -> (Shell, Console.Capture) {
    let capture = Console.Capture()
    let shell = Shell(
      home: home, console: Console(capture: capture), settings: Shell.Settings(),
      environment: ["MEMESH_CAMERA": "/nonexistent"])
    return (shell, capture)
  }

  func scratch() -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent(
      "memesh-draft-\(UUID().uuidString)")
  }

  /// Two pictures in the history: cat.png under the first captions, rotated.jpg on top.
  static let session = [
    "load '\(images.path)/cat.png'", "top first", "load '\(images.path)/rotated.jpg'",
    "bottom second",
  ]

  /// The one draft image file of the draft in `home` whose bytes are `original`.
  func draftImage(home: URL, matching original: Data) throws -> URL {
    // Drafts are saved in the background: wait for them.
    _ = DraftStore(home: home).takeBackgroundOutcome(waiting: true)
    let folder = home.appendingPathComponent("draft/images")
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    let urls = names.map { folder.appendingPathComponent($0) }
    return try #require(urls.first { (try? Data(contentsOf: $0)) == original })
  }

  @Test func undoAndShareAfterARestoreGiveTheSamePicturesAsTheFirstSession() throws {
    let home = scratch()
    defer { try? FileManager.default.removeItem(at: home) }
    let outputs = home.appendingPathComponent("out")
    try FileManager.default.createDirectory(at: outputs, withIntermediateDirectories: true)
    // The reference: the same steps and undos without quitting.
    let (first, _) = makeShell(home: home)
    for line in Self.session { #expect(first.run(line: line)) }
    #expect(first.run(line: "preview --out '\(outputs.path)/ref-current.png'"))
    #expect(first.run(line: "undo"))
    #expect(first.run(line: "undo"))
    #expect(first.run(line: "preview --out '\(outputs.path)/ref-undone.png'"))
    #expect(first.run(line: "redo"))
    #expect(first.run(line: "redo"))

    let (restored, _) = makeShell(home: home)
    #expect(restored.state.recipe.top == "first")
    #expect(restored.state.recipe.bottom == "second")
    #expect(restored.prompt == "memesh:edit rotated.jpg> ")
    // Nothing is read or decoded until a command needs the bytes or the pixels.
    #expect(restored.editor.history.steps.all.allSatisfy { $0.state.picture?.hasBytes != true })
    #expect(restored.editor.history.steps.all.allSatisfy { $0.state.picture?.isDecoded != true })
    #expect(restored.run(line: "info"))
    #expect(restored.run(line: "preview --out '\(outputs.path)/current.png'"))
    #expect(restored.run(line: "undo"))
    #expect(restored.run(line: "undo"))
    #expect(restored.prompt == "memesh:edit cat.png> ")
    #expect(restored.run(line: "preview --out '\(outputs.path)/undone.png'"))
    #expect(restored.run(line: "share file '\(outputs.path)/shared.png'"))
    #expect(first.run(line: "undo"))
    #expect(first.run(line: "undo"))
    #expect(first.run(line: "share file '\(outputs.path)/ref-shared.png'"))

    for name in ["current", "undone"] {
      let made = try Data(contentsOf: outputs.appendingPathComponent("\(name).png"))
      let reference = try Data(contentsOf: outputs.appendingPathComponent("ref-\(name).png"))
      #expect(made == reference, "\(name).png differs from the first session's")
    }
    let shared = try Data(contentsOf: outputs.appendingPathComponent("shared.png"))
    let referenceShare = try Data(contentsOf: outputs.appendingPathComponent("ref-shared.png"))
    #expect(shared == referenceShare)
  }

  @Test func restoredInfoMatchesTheFirstSession() throws {
    let home = scratch()
    defer { try? FileManager.default.removeItem(at: home) }
    let (first, firstCapture) = makeShell(home: home)
    for line in Self.session { #expect(first.run(line: line)) }
    _ = firstCapture.drain()
    #expect(first.run(line: "info"))
    let expected = firstCapture.drain().map(\.text)
    let (restored, capture) = makeShell(home: home)
    #expect(restored.run(line: "info"))
    #expect(capture.drain().map(\.text) == expected)
    // The size came from the file's header: nothing was decoded (a 12-MP draft answers at once).
    #expect(restored.state.picture?.isDecoded == false)
    // rotated.jpg is 16×24 stored, turned upright by its EXIF orientation.
    #expect(expected.contains("width: 24"))
  }

  @Test func aDraftWhosePictureWentMissingStartsBlankWithAWarning() throws {
    let home = scratch()
    defer { try? FileManager.default.removeItem(at: home) }
    let (first, _) = makeShell(home: home)
    for line in Self.session { #expect(first.run(line: line)) }
    let cat = try Data(contentsOf: Self.images.appendingPathComponent("cat.png"))
    try FileManager.default.removeItem(at: try draftImage(home: home, matching: cat))

    let (restored, capture) = makeShell(home: home)
    let warnings = capture.drain().map(\.text)
    #expect(warnings.count == 1)
    #expect(
      warnings.first?.hasPrefix("warning: cannot restore the draft: the draft's picture ") == true)
    #expect(warnings.first?.hasSuffix("is missing from the draft store; starting blank") == true)
    #expect(restored.state == .blank)
    #expect(!restored.editor.history.canUndo)
    // The draft is gone: the next start is blank and silent.
    let (again, againCapture) = makeShell(home: home)
    #expect(again.state == .blank)
    #expect(againCapture.drain().isEmpty)
  }

  @Test func aDraftPictureThatIsNotAnImageIsReportedAtStart() throws {
    let home = scratch()
    defer { try? FileManager.default.removeItem(at: home) }
    let (first, _) = makeShell(home: home)
    for line in Self.session { #expect(first.run(line: line)) }
    let photo = try Data(contentsOf: Self.images.appendingPathComponent("rotated.jpg"))
    try Data("<!DOCTYPE html>".utf8).write(to: try draftImage(home: home, matching: photo))

    let (restored, capture) = makeShell(home: home)
    #expect(
      capture.drain().map(\.text) == [
        "warning: cannot restore the draft: cannot load '\(Self.images.path)/rotated.jpg': not a "
          + "PNG, JPEG, WebP, GIF, HEIC or AVIF file (starts with \"<!DO\"); starting blank"
      ])
    #expect(restored.state == .blank)
  }

  @Test func aDraftPictureDamagedInsideIsReportedWhenItsPixelsAreNeeded() throws {
    let home = scratch()
    defer { try? FileManager.default.removeItem(at: home) }
    let (first, _) = makeShell(home: home)
    for line in Self.session { #expect(first.run(line: line)) }
    let photo = try Data(contentsOf: Self.images.appendingPathComponent("rotated.jpg"))
    // The JPEG header survives; the picture data does not.
    try photo.prefix(40).write(to: try draftImage(home: home, matching: photo))

    let (restored, capture) = makeShell(home: home)
    #expect(capture.drain().isEmpty)
    #expect(restored.state.recipe.bottom == "second")
    // The first command that needs the pixels finds the damage: the draft is dropped as it would
    // have been at start, and the command runs on the blank editor.
    #expect(!restored.run(line: "preview"))
    let lines = capture.drain().map(\.text)
    #expect(lines.count == 2)
    #expect(lines.first?.hasPrefix("warning: cannot restore the draft: ") == true)
    #expect(lines.first?.hasSuffix("; starting blank") == true)
    #expect(lines.last == "error: preview: no picture yet; 'load PATH' one first")
    #expect(restored.state == .blank)
    #expect(!restored.editor.history.canUndo)
    let (again, againCapture) = makeShell(home: home)
    #expect(again.state == .blank)
    #expect(againCapture.drain().isEmpty)
  }

  @Test func aRestoredDraftSurvivesAnotherSessionClearingIt() throws {
    let home = scratch()
    defer { try? FileManager.default.removeItem(at: home) }
    let outputs = home.appendingPathComponent("out")
    try FileManager.default.createDirectory(at: outputs, withIntermediateDirectories: true)
    let (first, _) = makeShell(home: home)
    for line in Self.session { #expect(first.run(line: line)) }
    #expect(first.run(line: "share file '\(outputs.path)/reference.png'"))
    for line in Self.session { #expect(first.run(line: line)) }

    // Two sessions restore the draft; the second discards it, which removes the draft's
    // pictures from disk.
    let (kept, keptCapture) = makeShell(home: home)
    let (other, _) = makeShell(home: home)
    #expect(other.run(line: "cancel"))
    let folder = home.appendingPathComponent("draft/images").path
    #expect(((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).isEmpty)
    // The first session still has its pictures: the next change saves them again, and a share
    // makes the same file as before.
    #expect(kept.run(line: "top again"))
    #expect(kept.run(line: "undo"))
    let (third, thirdCapture) = makeShell(home: home)
    #expect(third.state.recipe.bottom == "second")
    #expect(thirdCapture.drain().isEmpty)
    #expect(kept.run(line: "share file '\(outputs.path)/kept.png'"))
    #expect(keptCapture.drain().allSatisfy { $0.stream != .error })
    let made = try Data(contentsOf: outputs.appendingPathComponent("kept.png"))
    #expect(made == (try Data(contentsOf: outputs.appendingPathComponent("reference.png"))))
  }
}
