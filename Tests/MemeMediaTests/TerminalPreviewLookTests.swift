import Foundation
import MemeCore
import Testing

@testable import MemeMedia

/// The previews a person looks at (turn the .ansi files into PNGs with scripts/ansi-to-png.py),
/// written to files and read back to check what a user would notice: the symbols preview fills
/// the window with the picture the right way up, the grid shows every label, sixel and kitty
/// pictures are real graphics, and the 256- and 16-color previews use only those colors.
///
/// By default the picture is `PreviewFixture.landscape` and the files go to a scratch folder.
/// To look at a real photo: MEMESH_LOOK_RGBA names raw RGBA pixels, MEMESH_LOOK_SIZE their size
/// (`640x400`); the files then go to MEMESH_LOOK_OUT (default /tmp), for a window of
/// MEMESH_LOOK_COLUMNS×MEMESH_LOOK_ROWS (default 100×40).
@Suite struct TerminalPreviewLook {
  static let environment = ProcessInfo.processInfo.environment
  static let terminal = ["TERM": "xterm-256color", "COLORTERM": "truecolor"]

  /// The picture to draw: the photo named by MEMESH_LOOK_RGBA, or nil for the fixture.
  static func photo() throws -> RGBAImage? {
    guard let input = environment["MEMESH_LOOK_RGBA"] else { return nil }
    let size = try #require(environment["MEMESH_LOOK_SIZE"]).split(separator: "x").compactMap {
      Int($0)
    }
    try #require(size.count == 2)
    let pixels = try [UInt8](Data(contentsOf: URL(fileURLWithPath: input)))
    return RGBAImage(width: size[0], height: size[1], pixels: pixels)
  }

  /// Writes the previews of `image` for a window of `columns`×`rows` into `output`.
  static func writePreviews(of image: RGBAImage, columns: Int, rows: Int, to output: URL) throws {
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

  @Test func previewsWrittenToLookAtShowThePictureAsAUserWouldSeeIt() throws {
    let env = Self.environment
    let photo = try Self.photo()
    let columns = Int(env["MEMESH_LOOK_COLUMNS"] ?? "") ?? 100
    let rows = Int(env["MEMESH_LOOK_ROWS"] ?? "") ?? 40
    let scratch = FileManager.default.temporaryDirectory
      .appendingPathComponent("memesh-look-\(UUID().uuidString)")
    let output = photo == nil ? scratch : URL(fileURLWithPath: env["MEMESH_LOOK_OUT"] ?? "/tmp")
    try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
    defer { if photo == nil { try? FileManager.default.removeItem(at: scratch) } }
    try Self.writePreviews(
      of: photo ?? PreviewFixture.landscape, columns: columns, rows: rows, to: output)
    func read(_ name: String) throws -> String {
      try String(contentsOf: output.appendingPathComponent(name), encoding: .utf8)
    }

    // The symbols preview fits the window and fills it across or down.
    let preview = try read("preview.ansi")
    let lines = VisibleText.lines(preview)
    let widest = lines.map(\.unicodeScalars.count).max() ?? 0
    #expect(lines.count <= rows - 4 && widest <= columns, "\(widest)×\(lines.count)")
    #expect(lines.count == rows - 4 || widest == columns, "\(widest)×\(lines.count)")
    if photo == nil {
      // Sky on top, the white bar across the middle, grass below, where the picture has them.
      let colored = preview.split(separator: "\n")
      #expect(colored.first?.contains("70;140;230") == true)
      #expect(colored[colored.count / 2].contains("255;255;255"))
      #expect(colored.last?.contains("40;160;60") == true)
      #expect(colored.first?.contains("255;255;255") == false)
    }
    // Every label of the grid is shown.
    let grid = VisibleText.strip(try read("grid.ansi"))
    for label in ["m10a", "m20a", "m30a", "m40a", "m50a"] {
      #expect(grid.contains(label), "\(label)")
    }
    // Sixel and kitty are real graphics, not symbols.
    let sixel = try read("preview-sixel.txt")
    #expect(sixel.contains("\u{1B}P") && sixel.contains("\u{1B}\\"))
    #expect(try read("preview-kitty.txt").contains("\u{1B}_G"))
    // Fewer colors: only the palette's.
    let indexed256 = try read("preview-256.ansi")
    let truecolor = ["38;2;", "48;2;"]
    #expect(indexed256.contains("38;5;") && !truecolor.contains { indexed256.contains($0) })
    let indexed16 = try read("preview-16.ansi")
    #expect(!(truecolor + ["38;5;", "48;5;"]).contains { indexed16.contains($0) })
    #expect(VisibleText.lines(indexed16).count > 0)
  }
}
