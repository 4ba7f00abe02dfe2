import Foundation
import Testing

/// `fonts` marks the current font however it was chosen, and `fonts --installed` lists the
/// system's families.
@Suite struct FontListTests {
  func run(_ input: String) throws -> EndToEndTests.Result {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent(
      "memesh-fonts-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: home) }
    return try EndToEndTests().run([], input: input, home: home)
  }

  func marked(_ output: String) -> [String] {
    output.split(separator: "\n").filter { $0.hasPrefix("* ") }.map(String.init)
  }

  @Test func aFontChosenByPathIsMarked() throws {
    let path = EndToEndTests.packageRoot.appendingPathComponent("Fonts/Oswald-Variable.ttf").path
    let result = try run("font '\(path)'\nfonts\n")
    #expect(result.status == 0, "\(result.errors)")
    #expect(marked(result.output) == ["* Oswald           bundled"], "\(result.output)")
  }

  @Test func aFontChosenInAnotherCaseIsMarked() throws {
    let result = try run("font oswald\nfonts\n")
    #expect(marked(result.output) == ["* Oswald           bundled"], "\(result.output)")
  }

  @Test func installedFamiliesAreListedAndMarked() throws {
    let result = try run("font DejaVu Serif\nfonts --installed\n")
    #expect(result.status == 0, "\(result.errors)")
    let mark = marked(result.output)
    #expect(mark.count == 1)
    #expect(mark.first?.hasPrefix("* DejaVu Serif ") == true, "\(result.output)")
    #expect(result.output.contains("DejaVu Sans "))
  }

  @Test func aFontFileThatCannotBeReadIsListedWithTheReason() throws {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent(
      "memesh-fonts-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: home) }
    let fonts = home.appendingPathComponent("fonts")
    try FileManager.default.createDirectory(at: fonts, withIntermediateDirectories: true)
    try Data("not a font".utf8).write(to: fonts.appendingPathComponent("Broken.ttf"))
    let result = try EndToEndTests().run([], input: "fonts\nfont Broken\n", home: home)
    #expect(
      result.output.contains("  Broken           user, unreadable: not a TrueType or OpenType font\n"),
      "\(result.output)")
    #expect(
      result.errors == "error: font: cannot read '\(fonts.path)/Broken.ttf': not a TrueType or "
        + "OpenType font\n")
  }
}
