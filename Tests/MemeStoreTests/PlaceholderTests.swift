import Testing
@testable import MemeStore

@Suite struct MemeStoreLinkTests {
  @Test func moduleLinks() { #expect(Bool(true)) }
}
