import Foundation
import MemeCore
import Testing

@testable import MemeMedia

/// kitty pictures travel as PNG (f=100) in 4096-byte base64 chunks, not as raw RGBA.
@Suite struct TerminalPreviewKittyTests {
  static let kitty = ["TERM": "xterm-kitty"]

  /// The PNG a kitty picture carries, from its chunks joined.
  func payload(_ text: String) throws -> Data {
    let chunks = text.matches(of: #/\x1B_G[^;]*;([A-Za-z0-9+\/=]*)\x1B\\/#).map { String($0.1) }
    return try #require(Data(base64Encoded: chunks.joined()))
  }

  @Test func aKittyPictureIsAPNGScaledToItsCells() throws {
    let picture = TerminalPreview.draw(
      PreviewFixture.landscape, mode: .kitty, maxColumns: 10, maxRows: 10,
      environment: Self.kitty, cellPixelSize: PixelSize(width: 8, height: 16))
    #expect(picture.mode == .kitty)
    #expect(picture.text.contains("\u{1B}_Ga=T,f=100,q=2,c=10,r=3,"))
    let png = try payload(picture.text)
    #expect(png.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
    let decoded = try ImageCodec.decode(png, name: "kitty").image
    // 10×3 cells of 8×16 pixels hold 80×40 of the 160×80 picture: sent at that size.
    #expect(decoded.size == PixelSize(width: 80, height: 40))
  }

  @Test func aLargePictureIsSentInChunksOfTheProtocolsSize() throws {
    var noisy = RGBAImage(width: 300, height: 200)
    var seed: UInt32 = 1
    for y in 0..<200 {
      for x in 0..<300 {
        seed = seed &* 1_664_525 &+ 1_013_904_223
        noisy[x, y] = RGBA(UInt8(seed >> 24), UInt8((seed >> 16) & 0xFF), UInt8(x & 0xFF))
      }
    }
    let text = TerminalPreview.render(
      noisy, mode: .kitty, columns: 80, rows: 40, environment: Self.kitty)
    let chunks = text.matches(of: #/\x1B_G([^;]*);([A-Za-z0-9+\/=]*)\x1B\\/#)
    #expect(chunks.count > 1)
    #expect(chunks.dropLast().allSatisfy { $0.2.count == 4096 && $0.1.hasSuffix("m=1") })
    #expect(chunks.last.map { $0.1 == "m=0" } == true)
    #expect(try ImageCodec.decode(payload(text), name: "kitty").image.size.width <= 300)
  }

  @Test func aGridOfThumbnailsIsAFractionOfTheirRawPixels() {
    // 40 pictures of 160×80: raw RGBA in base64, as chafa sent them, would be 2.7 MB.
    let items = (1...40).map { (label: String($0), image: PreviewFixture.landscape) }
    let text = TerminalPreview.grid(
      items, mode: .kitty, columns: 120, environment: Self.kitty,
      cellPixelSize: PixelSize(width: 8, height: 16))
    let raw = 40 * 160 * 80 * 4 * 4 / 3
    #expect(text.utf8.count < raw / 10, "\(text.utf8.count) bytes")
  }
}
