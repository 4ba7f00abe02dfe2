import Foundation
import Testing

/// `undo` after a restart undoes what was done last in an earlier run, a delete, a template
/// removed or an editor change, whichever came last (`memesh -c undo`).
@Suite struct UndoAcrossRunsTests {
  let home = FileManager.default.temporaryDirectory
    .appendingPathComponent("memesh-undo-\(UUID().uuidString)")

  func memesh(_ commands: String) throws -> EndToEndTests.Result {
    try EndToEndTests.run(["-c", commands], input: Data(), home: home)
  }

  @Test func eachRunUndoesTheLatestThingAnyEarlierRunDid() throws {
    defer { try? FileManager.default.removeItem(at: home) }
    #expect(try memesh("load images/cat.png; top one; share").status == 0)
    #expect(try memesh("load images/square.png; top two; share").status == 0)
    #expect(try memesh("delete 1").output == "deleted meme 1 ('undo' brings it back)\n")
    // The draft is started after the delete: its change is the latest.
    #expect(try memesh("load images/cat.png; top draft").status == 0)
    #expect(try memesh("undo").output == "undid top \"draft\"\n")
    #expect(try memesh("undo").output == "undid load cat.png\n")
    // Then the delete, in a run that starts in the sent memes.
    #expect(try memesh("undo").output == "restored meme 1\n")
    let nothing = try memesh("undo")
    #expect(nothing.status == 1)
    #expect(nothing.errors.hasPrefix("error: undo: nothing to undo"))
  }

  @Test func aDeleteAfterEditingIsUndoneFirst() throws {
    defer { try? FileManager.default.removeItem(at: home) }
    #expect(try memesh("load images/cat.png; top one; share").status == 0)
    #expect(try memesh("load images/square.png; top kept").status == 0)
    #expect(try memesh("delete 1").status == 0)
    // Run from the editor (the draft is restored), the delete is still the last thing done.
    #expect(try memesh("info; undo").output.hasSuffix("restored meme 1\n"))
    #expect(try memesh("undo").output == "undid top \"kept\"\n")
  }

  @Test func aTemplateRemovedInAnEarlierRunIsUndoneInItsTurn() throws {
    defer { try? FileManager.default.removeItem(at: home) }
    #expect(try memesh("load images/cat.png; top one; share").status == 0)
    #expect(try memesh("load images/square.png; top base; template save base").status == 0)
    let removed = try memesh("template rm base")
    #expect(removed.output == "removed template 'base' ('undo' brings it back)\n")
    #expect(try memesh("top after").status == 0)
    #expect(try memesh("delete 1").status == 0)
    let history = try memesh("history").output
    #expect(
      history.contains("-  template rm base (in the templates)\n* 4  top \"after\""), "\(history)")
    // Newest first, whichever run and view: the delete, the editor's change, the template.
    #expect(try memesh("undo").output == "restored meme 1\n")
    #expect(try memesh("undo").output == "undid top \"after\"\n")
    #expect(try memesh("undo").output == "restored template 'base'\n")
    #expect(try memesh("undo").output == "undid top \"base\"\n")
    #expect(try memesh("templates").output.contains("base"))
  }

  @Test func aDamagedTemplateIsMovedToTheTrashAsItIsAndComesBack() throws {
    defer { try? FileManager.default.removeItem(at: home) }
    let folder = home.appendingPathComponent("templates/broken")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let record = Data("not a property list".utf8)
    try record.write(to: folder.appendingPathComponent("template.plist"))
    let listed = try memesh("templates")
    #expect(listed.errors.contains("broken/template.plist"))
    let removed = try memesh("template rm broken")
    #expect(removed.status == 0)
    #expect(removed.errors.contains("warning: cannot read the template '"))
    #expect(removed.output == "removed template 'broken' ('undo' brings it back)\n")
    #expect(try memesh("templates").errors.isEmpty)
    // Kept byte for byte in the trash, and brought back so.
    let trash = home.appendingPathComponent("templates/trash")
    let entries = try FileManager.default.contentsOfDirectory(atPath: trash.path)
    #expect(entries.count == 1 && entries[0].hasPrefix("1-broken@"))
    let restored = try memesh("undo")
    #expect(restored.output == "restored template 'broken'\n")
    #expect(try Data(contentsOf: folder.appendingPathComponent("template.plist")) == record)
  }
}
