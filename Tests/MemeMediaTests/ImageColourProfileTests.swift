import Foundation
import MemeCore
import Testing

@testable import MemeMedia

/// A phone photo's colour profile (Display P3 on most phones) goes into the meme, so viewers
/// show the photo's colours instead of duller ones; profiles that do not describe an RGB meme
/// are left out. Fixtures from scripts/make-image-fixtures.py (littlecms's sRGB profile).
@Suite struct ImageColourProfileTests {
  let renderer = MemeRenderer(catalog: .standard())

  /// The profile as written into the fixtures, read from the PNG's iCCP chunk by hand (zlib),
  /// not through memesh's reader.
  static func profileInPNG(_ name: String) throws -> Data? {
    let data = try ImageFixtures.data(name)
    var offset = 8
    while offset + 8 <= data.count {
      let length = data[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
      let kind = String(decoding: data[offset + 4..<offset + 8], as: UTF8.self)
      if kind == "iCCP" {
        let body = data[offset + 8..<offset + 8 + length]
        guard let nul = body.firstIndex(of: 0) else { return nil }
        return try inflate(Data(body[(nul + 2)...]))
      }
      offset += 12 + length
    }
    return nil
  }

  /// zlib's inflate through python3, an independent implementation.
  static func inflate(_ compressed: Data) throws -> Data {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
      "python3", "-c",
      "import sys, zlib; sys.stdout.buffer.write(zlib.decompress(sys.stdin.buffer.read()))",
    ]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    input.fileHandleForWriting.write(compressed)
    try input.fileHandleForWriting.close()
    let result = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return result
  }

  func meme(from name: String, as format: ImageFormat) throws -> MemeRenderer.Output {
    let path = ImageFixtures.images.appendingPathComponent(name).path
    let (picture, _) = try MemeRenderer.loadPicture(path: path)
    let state = EditorState(picture: picture, top: "Top", bottom: "")
    return try renderer.render(state, format: format)
  }

  @Test func theProfileIsReadFromJPEGAndPNG() throws {
    let written = try #require(try Self.profileInPNG("icc-rgb.png"))
    #expect(written.count > 128)
    #expect(ImageCodec.iccProfile(of: try ImageFixtures.data("icc-rgb.png")) == written)
    // The JPEG holds the same profile in one APP2 marker, the large one over two.
    #expect(ImageCodec.iccProfile(of: try ImageFixtures.data("icc-rgb.jpg")) == written)
    let large = try #require(ImageCodec.iccProfile(of: try ImageFixtures.data("icc-large.jpg")))
    #expect(large.count == written.count + 100_000)
    #expect(large.dropFirst(4).prefix(written.count - 4) == written.dropFirst(4))
  }

  @Test(arguments: [
    ("icc-rgb.jpg", ImageFormat.jpeg), ("icc-rgb.jpg", .png), ("icc-rgb.png", .jpeg),
    ("icc-rgb.png", .png), ("icc-large.jpg", .jpeg), ("icc-large.jpg", .png),
  ])
  func theMemeKeepsThePhotosProfile(source: String, format: ImageFormat) throws {
    let original = try #require(ImageCodec.iccProfile(of: try ImageFixtures.data(source)))
    let output = try meme(from: source, as: format)
    #expect(ImageCodec.iccProfile(of: output.data) == original)
    // Still the same picture, and still memesh's recipe.
    let decoded = try ImageCodec.decode(output.data, name: "meme")
    #expect(decoded.warnings.isEmpty)
    #expect(decoded.recipe?.embedded?.recipe.top == "Top")
    // The bottom half has no caption: blue on the left, yellow on the right.
    #expect(decoded.image[8, 18].distance(to: Quadrants.blue) < 40)
    #expect(decoded.image[24, 18].distance(to: Quadrants.yellow) < 40)
  }

  @Test(arguments: ["icc-cmyk.jpg", "icc-bad-size.jpg", "icc-bomb.png", "baseline.jpg"])
  func profilesThatDoNotDescribeTheMemeAreLeftOut(name: String) throws {
    let data = try ImageFixtures.data(name)
    #expect(ImageCodec.iccProfile(of: data) == nil)
    // The picture itself loads as before, without a word about the profile.
    let decoded = try ImageFixtures.decode(name)
    #expect(decoded.warnings.isEmpty)
    for format in [ImageFormat.jpeg, .png] {
      #expect(ImageCodec.iccProfile(of: try meme(from: name, as: format).data) == nil)
    }
  }

  @Test func onlyTheFirstPNGProfileIsEverInflated() throws {
    // Two hundred iCCP chunks that each inflate to 64 MB load like one: the first is tried
    // (and refused at 4 MB), the others are skipped, so this does not inflate 12.8 GB.
    let bomb = try ImageFixtures.data("icc-bomb.png")
    let ihdrEnd = 8 + 25
    let chunkStart = ihdrEnd
    var chunkLength = 0
    for byte in bomb[chunkStart..<chunkStart + 4] { chunkLength = chunkLength << 8 | Int(byte) }
    let chunk = bomb[chunkStart..<chunkStart + 12 + chunkLength]
    #expect(chunk.dropFirst(4).prefix(4) == Data("iCCP".utf8))
    var many = Data(bomb[..<chunkStart])
    for _ in 0..<200 { many.append(chunk) }
    many.append(bomb[(chunkStart + chunk.count)...])
    let decoded = try ImageCodec.decode(many, name: "many-bombs.png")
    #expect(decoded.image.size == PixelSize(width: 8, height: 8))
    #expect(ImageCodec.iccProfile(of: many) == nil)
  }
}
