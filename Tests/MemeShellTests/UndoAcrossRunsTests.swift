import Foundation
import Testing

/// `undo` after a restart undoes what was done last in an earlier run, a delete or an editor
/// change, whichever came last (`memesh -c undo`).
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
}
