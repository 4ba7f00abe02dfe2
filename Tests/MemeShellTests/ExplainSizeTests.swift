import Foundation
import MemeCore
import MemeMedia
import Testing

@testable import MemeShell

/// `preview --explain` reports the font sizes and lines a share draws at the picture's real
/// size, not those of the small preview copy the terminal picture is made from.
@Suite struct ExplainSizeTests {
  @Test func explainMatchesWhatShareDraws() throws {
    let home = FileManager.default.temporaryDirectory
      .appendingPathComponent("memesh-explain-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: home) }
    // Larger than the 1024-pixel proxy, so the two sizes differ by more than twice.
    let picture = home.appendingPathComponent("big.png")
    try ImageCodec.encode(
      RGBAImage(width: 2400, height: 1600, fill: RGBA(90, 120, 160, 255)), as: .png
    ).write(to: picture)
    let capture = Console.Capture()
    let shell = Shell(
      home: home, console: Console(capture: capture), settings: Shell.Settings(),
      environment: ["MEMESH_CAMERA": "/nonexistent"])
    #expect(shell.run(line: "load '\(picture.path)'"))
    #expect(shell.run(line: "caption a long caption that has to wrap over lines | bottom"))
    _ = capture.drain()
    #expect(shell.run(line: "preview --explain"))
    let previewed = capture.drain().map(\.text).filter { $0.contains("font: Anton at") }
    #expect(shell.run(line: "preview --out '\(home.path)/out.png' --explain"))
    let shared = capture.drain().map(\.text).filter { $0.contains("font: Anton at") }
    #expect(previewed.count == 2)
    #expect(previewed == shared)
  }
}
