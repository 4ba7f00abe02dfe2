import Testing
@testable import MemeMedia

@Suite struct MemeMediaLinkTests {
  @Test func moduleLinks() { #expect(Bool(true)) }
}
