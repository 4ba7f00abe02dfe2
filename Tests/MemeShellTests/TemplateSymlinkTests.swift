import Foundation
import Testing

/// A symlink where a template's folder would be is refused, by `template rm` and by
/// `template NAME`, with the command's name first as in every template error, and what it
/// points at is left as it was; a template that cannot be read is named the same way.
@Suite struct TemplateSymlinkTests {
  let home = FileManager.default.temporaryDirectory
    .appendingPathComponent("memesh-template-link-\(UUID().uuidString)")

  func memesh(_ commands: String) throws -> EndToEndTests.Result {
    try EndToEndTests.run(["-c", commands], input: Data(), home: home)
  }

  @Test func aSymlinkedTemplateIsRefusedByNameOfTheCommand() throws {
    defer { try? FileManager.default.removeItem(at: home) }
    #expect(try memesh("load images/square.png; top base; template save base").status == 0)
    // The template moved out of the home, a symlink left at its name.
    let templates = home.appendingPathComponent("templates")
    let outside = home.appendingPathComponent("outside")
    try FileManager.default.moveItem(
      at: templates.appendingPathComponent("base"), to: outside)
    try FileManager.default.createSymbolicLink(
      at: templates.appendingPathComponent("link"), withDestinationURL: outside)
    let refused = " cannot read the template '\(templates.path)/link': it is a symlink, refused\n"

    let removed = try memesh("template rm link")
    #expect(removed.status == 1)
    #expect(removed.output.isEmpty)
    #expect(removed.errors == "error: template rm:" + refused)
    let started = try memesh("template link")
    #expect(started.status == 1)
    #expect(started.errors == "error: template:" + refused)

    let kept = try FileManager.default.contentsOfDirectory(atPath: outside.path).sorted()
    #expect(kept == ["picture.png", "template.plist", "thumb.png"])
    let link = try FileManager.default.destinationOfSymbolicLink(
      atPath: templates.appendingPathComponent("link").path)
    #expect(link == outside.path)
  }

  @Test func anUnreadableTemplateIsNamedByTheCommand() throws {
    defer { try? FileManager.default.removeItem(at: home) }
    #expect(try memesh("load images/square.png; top base; template save base").status == 0)
    let folder = home.appendingPathComponent("templates/base")
    try FileManager.default.removeItem(at: folder.appendingPathComponent("picture.png"))
    let missing = try memesh("template base")
    #expect(missing.status == 1)
    #expect(
      missing.errors
        == "error: template: cannot read the template '\(folder.path)': its picture "
        + "'picture.png' is missing\n")
    try Data("not a property list".utf8).write(to: folder.appendingPathComponent("template.plist"))
    let damaged = try memesh("template base")
    #expect(damaged.status == 1)
    #expect(
      damaged.errors.hasPrefix("error: template: cannot read the template '\(folder.path)/"),
      "\(damaged.errors)")
  }
}
