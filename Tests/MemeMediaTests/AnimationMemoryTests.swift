import Foundation
import MemeCore
import Testing

@testable import MemeMedia

/// An animation's file is in memory once: read in place, written without growing copies.
@Suite struct AnimationMemoryTests {
  @Test func aLargeFileIsReadInPlaceAndASmallOneCopied() throws {
    let data = try AnimationDecodeTests.data("pan.gif")
    let bytes = AnimationBytes(data, format: .gif)
    #expect(bytes.buffer.baseAddress == data.withUnsafeBytes { $0.baseAddress })
    #expect(bytes.count == data.count)
    let small = Data("GIF89a".utf8)
    let copied = AnimationBytes(small, format: .gif)
    #expect(Array(copied.buffer) == Array(small))
  }

  @Test func theGIFSinkJoinsItsBlocksExactly() throws {
    // Writes of odd sizes that cross block boundaries, as giflib's are.
    var expected: [UInt8] = []
    let sink = GIFWriter.Sink()
    var seed: UInt32 = 7
    for size in [1, 254, 255, 1 << 20, 3, (1 << 20) + 5, 77_777, 0, 1 << 19] {
      let part = (0..<size).map { _ -> UInt8 in
        seed = seed &* 1_103_515_245 &+ 12_345
        return UInt8(truncatingIfNeeded: seed >> 16)
      }
      part.withUnsafeBytes { sink.append($0) }
      expected += part
    }
    let joined = try #require(sink.data())
    #expect(joined.count == expected.count)
    #expect(joined == Data(expected))
    #expect(GIFWriter.Sink().data() == Data())
  }

  @Test func aFileIsReadWhole() throws {
    let path = AnimationDecodeTests.folder.appendingPathComponent("pan.gif").path
    let read = try ImageFile.read(path: path)
    #expect(read == (try Data(contentsOf: URL(fileURLWithPath: path))))
  }
}
