import Foundation
@testable import MemeShell
import Testing

/// `man memesh` comes from the registry that feeds `help` and the flags that feed `--help`.
@Suite struct ManualPageTests {
  /// The page the built binary writes for `make install`.
  func page() throws -> String {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent(
      "memesh-manual-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: home) }
    let result = try EndToEndTests().run(["--generate-manual"], input: "", home: home)
    #expect(result.status == 0, "\(result.errors)")
    return result.output
  }

  @Test func everyCommandAndFlagIsOnThePage() throws {
    let page = try page()
    let entries = page.split(separator: "\n").map(String.init)
    for command in CommandRegistry.commands {
      let usage = "\\fB" + ManualPage.escaped(command.usage) + "\\fR"
      #expect(entries.contains(usage), "\(command.name) is missing from the page")
    }
    for flag in ["\\fB\\-c\\fR, \\fB\\-\\-command\\fR", "\\fB\\-\\-home\\fR", "\\fB\\-\\-check\\fR",
      "\\fB\\-\\-replay\\fR", "\\fB\\-\\-mode\\fR", "\\fB\\-\\-keep\\-going\\fR"]
    {
      #expect(entries.contains { $0.hasPrefix(flag) }, "\(flag) is missing from the page")
    }
    #expect(!page.contains("generate\\-manual"), "a hidden flag is on the page")
  }

  @Test func textCannotStartARoffRequest() {
    #expect(ManualPage.text(".hidden") == "\\&.hidden")
    #expect(ManualPage.text("'quoted") == "\\&'quoted")
    #expect(ManualPage.escaped("a\\b-c") == "a\\eb\\-c")
  }

  /// groff reads the page without a warning (groff-base comes with `make deps`).
  @Test func groffFormatsThePageWithoutWarnings() throws {
    let page = try page()
    let groff = Process()
    groff.executableURL = URL(fileURLWithPath: "/usr/bin/groff")
    groff.arguments = ["-ww", "-man", "-Tascii", "-P-cbou"]
    let input = Pipe()
    let output = Pipe()
    let errors = Pipe()
    groff.standardInput = input
    groff.standardOutput = output
    groff.standardError = errors
    try groff.run()
    try input.fileHandleForWriting.write(contentsOf: Data(page.utf8))
    try input.fileHandleForWriting.close()
    let text = String(decoding: try output.fileHandleForReading.readToEnd() ?? Data(), as: UTF8.self)
    let warnings = String(
      decoding: try errors.fileHandleForReading.readToEnd() ?? Data(), as: UTF8.self)
    groff.waitUntilExit()
    #expect(warnings.isEmpty, "\(warnings)")
    #expect(text.contains("EXIT STATUS"))
    #expect(text.contains("caption TOP | BOTTOM"))
  }
}
