import Foundation
import Testing

@testable import MemeShell

@Suite struct OutputFileTests {
  /// `share file ~/x.png` goes where the user's shell would put it: under `$HOME`.
  @Test func tildeMeansHomeFromTheEnvironment() {
    #expect(OutputFile.homeDirectory(environment: ["HOME": "/tmp/someone"]) == "/tmp/someone")
  }

  @Test func aMissingOrRelativeHomeFallsBackToTheAccountsHome() {
    #expect(OutputFile.homeDirectory(environment: [:]) == NSHomeDirectory())
    #expect(OutputFile.homeDirectory(environment: ["HOME": "relative"]) == NSHomeDirectory())
  }

  @Test func onlyALeadingTildeIsExpanded() {
    let home = OutputFile.homeDirectory()
    #expect(OutputFile.expanded("~/meme.png") == home + "/meme.png")
    #expect(OutputFile.expanded("~") == home)
    #expect(OutputFile.expanded("a~/meme.png") == "a~/meme.png")
    #expect(OutputFile.expanded("~other/meme.png") == "~other/meme.png")
  }
}
