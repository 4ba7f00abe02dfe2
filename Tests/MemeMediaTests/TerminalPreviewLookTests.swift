import Foundation
import MemeCore
import Testing

@testable import MemeMedia

/// Not a check: writes previews of a real photo for a person to look at (see
/// scripts/ansi-to-png.py). Runs only when MEMESH_LOOK_RGBA names raw RGBA pixels and
/// MEMESH_LOOK_SIZE their size (`640x400`); writes preview.ansi and grid.ansi into
/// MEMESH_LOOK_OUT, for a window of MEMESH_LOOK_COLUMNS×MEMESH_LOOK_ROWS (default 100×40).
@Suite struct TerminalPreviewLook {
  static let environment = ProcessInfo.processInfo.environment

  @Test(.enabled(if: environment["MEMESH_LOOK_RGBA"] != nil))
  func writePreviewsToLookAt() throws {
    let env = Self.environment
    let input = try #require(env["MEMESH_LOOK_RGBA"])
    let size = try #require(env["MEMESH_LOOK_SIZE"]).split(separator: "x").compactMap { Int($0) }
    try #require(size.count == 2)
    let output = URL(fileURLWithPath: env["MEMESH_LOOK_OUT"] ?? "/tmp")
    let columns = Int(env["MEMESH_LOOK_COLUMNS"] ?? "") ?? 100
    let rows = Int(env["MEMESH_LOOK_ROWS"] ?? "") ?? 40
    let pixels = try [UInt8](Data(contentsOf: URL(fileURLWithPath: input)))
    let image = RGBAImage(width: size[0], height: size[1], pixels: pixels)
    let terminal = ["TERM": "xterm-256color", "COLORTERM": "truecolor"]

    let preview = TerminalPreview.render(
      image, mode: .symbols, columns: columns, rows: rows - 4, environment: terminal)
    try Data(preview.utf8).write(to: output.appendingPathComponent("preview.ansi"))
    let items = (1...5).map {
      (label: "m\($0)0a", image: $0 == 3 ? PreviewFixture.portrait : image)
    }
    let grid = TerminalPreview.grid(items, mode: .symbols, columns: columns, environment: terminal)
    try Data(grid.utf8).write(to: output.appendingPathComponent("grid.ansi"))
    // Run inside a terminal, this shows what TIOCGWINSZ reports there.
    let window = [0, 1, 2].lazy.compactMap { TerminalWindow.current(fileDescriptor: $0) }.first.map
    { "\($0.cells) \($0.cellPixelSize.map { "\($0)" } ?? "no pixel size")" }
    try Data((window ?? "not a terminal").utf8).write(
      to: output.appendingPathComponent("window.txt"))
    for (mode, environment) in [
      (PreviewMode.sixel, ["TERM": "foot"]), (.kitty, ["TERM": "xterm-kitty"]),
    ] {
      let picture = TerminalPreview.draw(
        image, mode: mode, maxColumns: columns / 2, maxRows: rows / 2, environment: environment,
        cellPixelSize: PixelSize(width: 8, height: 16))
      try Data(picture.text.utf8).write(
        to: output.appendingPathComponent("preview-\(mode.rawValue).txt"))
    }
    for depth in [ColorDepth.indexed256, .indexed16] {
      let picture = TerminalPreview.draw(
        image, mode: .symbols, colorDepth: depth, maxColumns: columns / 2, maxRows: rows / 2,
        environment: terminal)
      try Data(picture.text.utf8).write(
        to: output.appendingPathComponent("preview-\(depth.rawValue).ansi"))
    }
  }
}
