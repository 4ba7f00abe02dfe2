import Testing
@testable import MemeShell

@Suite struct MemeShellLinkTests {
  @Test func moduleLinks() { #expect(Bool(true)) }
}
