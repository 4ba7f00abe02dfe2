import Foundation
import Testing

@testable import MemeShell

/// A variable memesh reads but cannot use is named at start with the values it accepts.
@Suite struct EnvironmentWarningTests {
  @Test(arguments: [
    ("MEMESH_PREVIEW", "bogus", "MEMESH_PREVIEW='bogus' is not a preview mode (kitty, iterm, sixel, symbols or none)"),
    ("MEMESH_MAX_MEGAPIXELS", "abc", "MEMESH_MAX_MEGAPIXELS='abc' is not a whole number of megapixels from 1 to 4000"),
    ("MEMESH_MAX_MEGAPIXELS", "0", "MEMESH_MAX_MEGAPIXELS='0' is not a whole number of megapixels from 1 to 4000"),
    ("MEMESH_MAX_DECODE_SECONDS", "soon", "MEMESH_MAX_DECODE_SECONDS='soon' is not a number of seconds from 0.001 to 3600; decoding stays limited to 20 seconds"),
    ("COLUMNS", "wide", "COLUMNS='wide' is not a positive whole number"),
    ("XDG_DATA_HOME", "relative/dir", "XDG_DATA_HOME='relative/dir' is not an absolute path"),
    ("MEMESH_FONTS", "/nonexistent/fonts", "MEMESH_FONTS='/nonexistent/fonts' is not a folder"),
    ("MEMESH_PREVIEW", "\u{1B}[31m", "MEMESH_PREVIEW='\\e[31m' is not a preview mode"),
  ])
  func aBadValueIsNamed(name: String, value: String, message: String) {
    let problems = Shell.environmentProblems([name: value])
    #expect(problems.count == 1)
    #expect(problems.first?.hasPrefix(message) == true, "\(problems)")
  }

  @Test func goodAndEmptyValuesAreQuiet() {
    let environment = [
      "MEMESH_PREVIEW": "Sixel", "MEMESH_MAX_MEGAPIXELS": "200", "COLUMNS": "120",
      "MEMESH_MAX_DECODE_SECONDS": "2.5",
      "LINES": "", "XDG_DATA_HOME": "/tmp", "XDG_STATE_HOME": "", "MEMESH_FONTS": "/tmp",
    ]
    #expect(Shell.environmentProblems(environment).isEmpty)
  }

  /// `--mode` and `MEMESH_PREVIEW` take the same names and refuse others in the same words,
  /// each naming itself.
  @Test func modeFlagAndVariableSayTheSame() throws {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent(
      "memesh-mode-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: home) }
    let flag = try EndToEndTests.run(["--mode", "bogus", "-c", "quit"], input: Data(), home: home)
    #expect(flag.status == 2)
    #expect(
      flag.errors.hasPrefix(
        "memesh: --mode='bogus' is not a preview mode (kitty, iterm, sixel, symbols or none)\n"),
      "\(flag.errors)")
    let variable = Shell.environmentProblems(["MEMESH_PREVIEW": "bogus"])
    #expect(
      variable == [
        "MEMESH_PREVIEW='bogus' is not a preview mode (kitty, iterm, sixel, symbols or none); "
          + "detecting the terminal instead"
      ])
    // Either way, a mode's name in any case (and `iterm2`) is taken.
    let upper = try EndToEndTests.run(
      ["--mode", "Symbols", "-c", "quit"], input: Data(), home: home)
    #expect(upper.status == 0, "\(upper.errors)")
    #expect(Shell.environmentProblems(["MEMESH_PREVIEW": "Symbols"]).isEmpty)
  }
}
