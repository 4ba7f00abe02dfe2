import Foundation
import MemeCore
import Testing

@testable import MemeMedia

/// `place`'s frames: after any number of keys the screen shows exactly what a whole picture of
/// the last frame shows, while each frame sends only the cells that changed.
@Suite struct PlacePreviewTests {
  /// A 400×300 picture with detail everywhere (gradients and the landscape), as a photo has.
  static let photo: RGBAImage = {
    var image = RGBAImage(width: 400, height: 300)
    for y in 0..<300 {
      for x in 0..<400 {
        let scenery = PreviewFixture.landscape[x * 160 / 400, y * 80 / 300]
        image[x, y] = RGBA(
          UInt8((Int(scenery.r) + x / 3) / 2), UInt8((Int(scenery.g) + y / 2) / 2),
          UInt8((Int(scenery.b) + (x + y) % 256) / 2))
      }
    }
    return image
  }()

  static let boxes = [
    TextBox(text: "place me", placement: .top), TextBox(text: "and me", placement: .bottom),
  ]
  static let environment = ["TERM": "xterm-256color", "COLORTERM": "truecolor"]

  static func preview(
    _ mode: PreviewMode, depth: ColorDepth = .truecolor, columns: Int = 60, rows: Int = 20
  ) throws -> PlacePreview {
    try #require(
      try PlacePreview(
        picture: photo, boxes: boxes, font: "Anton", index: 0, catalog: .standard(),
        mode: mode, colorDepth: depth, maxColumns: columns, maxRows: rows,
        environment: environment, cellPixelSize: PixelSize(width: 10, height: 20)))
  }

  /// Box 1 moved by `steps` of 1 % right and down.
  static func moved(_ steps: Int) -> TextBox {
    var box = boxes[0]
    var frame = box.placement.frame(in: photo.size)
    frame.x += Double(steps) * 0.01
    frame.y += Double(steps) * 0.02
    box.placement = .rect(frame)
    return box
  }

  @Test(arguments: [ColorDepth.truecolor, .indexed256])
  func symbolFramesAfterKeysShowWhatTheWholeLastFrameShows(depth: ColorDepth) throws {
    let placing = try Self.preview(.symbols, depth: depth)
    var screen = ScreenGrid()
    let first = placing.frame(Self.boxes[0])
    screen.write(first)
    var sent: [Int] = []
    for step in 1...6 {
      let text = placing.frame(Self.moved(step))
      sent.append(text.utf8.count)
      screen.write(text)
    }
    screen.write(placing.finish(Self.moved(6)))
    var whole = ScreenGrid()
    whole.write(try Self.preview(.symbols, depth: depth).frame(Self.moved(6), framed: false))
    let differing = screen.differences(from: whole)
    #expect(differing.isEmpty, "\(differing.count) cells differ, first \(differing.prefix(3))")
    #expect(
      screen.cursor.row == whole.cursor.row && screen.cursor.column == whole.cursor.column,
      "each frame ends under the picture")
    // A step of the top box redraws the rows it covers, not the picture.
    #expect(sent.allSatisfy { $0 < first.utf8.count * 2 / 3 }, "\(sent) vs \(first.utf8.count)")
    // Nothing changed: nothing sent.
    #expect(placing.frame(Self.moved(6), framed: false) == "")
  }

  @Test func sixelFramesDrawOnlyTheChangedCellsWhereTheyAre() throws {
    let placing = try Self.preview(.sixel)
    let first = placing.frame(Self.boxes[0])
    let sixels = first.contains("\u{1B}P")
    #expect(sixels)
    let next = placing.frame(Self.moved(1))
    // From the line under the picture up to its top, down to the first changed row, then the
    // sixels between a saved and restored cursor, then back under the picture.
    let back = next.hasPrefix("\r\u{1B}[\(placing.cells.rows)A")
    #expect(back)
    let raster = try #require(next.firstMatch(of: /"1;1;(\d+);(\d+)/))
    let (width, height) = (Int(raster.1) ?? 0, Int(raster.2) ?? 0)
    #expect(width > 0 && width <= placing.cells.columns * 10)
    #expect(height > 0 && height < placing.cells.rows * 20 / 2, "only the top box's rows")
    let saved = next.contains("\u{1B}7\u{1B}P") && next.contains("\u{1B}\\\u{1B}8")
    #expect(saved)
  }

  @Test func kittyFramesReplaceOneImageAndTheLastIsAPictureOfItsOwn() throws {
    let placing = try Self.preview(.kitty)
    let first = placing.frame(Self.boxes[0])
    let firstHasID = first.contains("a=T,i=\(PlacePreview.kittyImage),")
    #expect(firstHasID)
    // A step: the changed cells laid over the picture, replacing the last such patch.
    let next = placing.frame(Self.moved(1))
    let back = "\r\u{1B}[\(placing.cells.rows)A"
    let replacesPatch = next.hasPrefix(back + "\u{1B}_Ga=d,d=I,i=\(PlacePreview.kittyPatch),q=2")
    #expect(replacesPatch)
    let patch = "a=T,i=\(PlacePreview.kittyPatch),z=1,f=100,q=2,c=\(placing.cells.columns - 1),"
    let patchDrawn = next.contains(patch) || next.contains("a=T,i=\(PlacePreview.kittyPatch),z=1,")
    #expect(patchDrawn)
    #expect(next.utf8.count < first.utf8.count / 2)
    // Far enough, the whole picture is sent again.
    let far = placing.frame(Self.moved(30))
    let wholeAgain = far.contains("a=T,i=\(PlacePreview.kittyImage),f=100")
    #expect(wholeAgain)
    // Esc: the frames' images are deleted and the meme as it was is drawn without an id, so the
    // next place (which deletes its frames by those ids) leaves it on screen.
    let last = placing.finish(Self.boxes[0])
    let deletes = last.contains(PlacePreview.deleteKittyFrames)
    let anonymous = last.contains("a=T,f=100") && !last.contains("a=T,i=")
    #expect(deletes && anonymous)
  }
}

/// The cells a terminal shows after some text: enough of a terminal for chafa's block symbols
/// and place's cursor moves (CR, LF, CUU, CUD, CHA, SGR colours).
struct ScreenGrid {
  struct Cell: Equatable {
    var character: Character
    var foreground: String
    var background: String
  }
  var cells: [[Cell]] = []
  var cursor = (row: 0, column: 0)
  private var foreground = "default"
  private var background = "default"
  private var inverse = false

  /// The cells (row, column) that show something else in `other`.
  func differences(from other: ScreenGrid) -> [(Int, Int)] {
    var result: [(Int, Int)] = []
    for row in 0..<max(cells.count, other.cells.count) {
      let mine = row < cells.count ? cells[row] : []
      let theirs = row < other.cells.count ? other.cells[row] : []
      for column in 0..<max(mine.count, theirs.count) {
        let a = column < mine.count ? mine[column] : nil
        let b = column < theirs.count ? theirs[column] : nil
        if a != b { result.append((row, column)) }
      }
    }
    return result
  }

  mutating func write(_ text: String) {
    var scalars = Array(text.unicodeScalars)[...]
    while let scalar = scalars.popFirst() {
      switch scalar {
      case "\r": cursor.column = 0
      case "\n": cursor.row += 1
      case "\u{1B}":
        guard scalars.popFirst() == "[" else { continue }
        var parameters = ""
        while let next = scalars.popFirst() {
          guard (0x40...0x7E).contains(next.value) else {
            parameters.unicodeScalars.append(next)
            continue
          }
          control(next, parameters)
          break
        }
      default:
        put(Character(scalar))
      }
    }
  }

  private mutating func control(_ final: Unicode.Scalar, _ parameters: String) {
    let count = Int(parameters) ?? 1
    switch final {
    case "A": cursor.row = max(0, cursor.row - count)
    case "B": cursor.row += count
    case "G": cursor.column = count - 1
    case "m":
      color(parameters.split(separator: ";", omittingEmptySubsequences: false).map(String.init))
    default: break
    }
  }

  private mutating func color(_ parameters: [String]) {
    var index = 0
    while index < parameters.count {
      let number = Int(parameters[index]) ?? 0
      switch number {
      case 0: (foreground, background, inverse) = ("default", "default", false)
      case 7: inverse = true
      case 27: inverse = false
      case 39: foreground = "default"
      case 49: background = "default"
      case 38, 48:
        let width = parameters[safe: index + 1] == "2" ? 5 : 3
        let value = parameters[(index + 1)..<min(parameters.count, index + width)].joined(
          separator: ";")
        if number == 38 { foreground = value } else { background = value }
        index += width - 1
      default:
        if (30...37).contains(number) || (90...97).contains(number) {
          foreground = "5;\(number % 10 + (number >= 90 ? 8 : 0))"
        } else if (40...47).contains(number) || (100...107).contains(number) {
          background = "5;\(number % 10 + (number >= 100 ? 8 : 0))"
        }
      }
      index += 1
    }
  }

  private mutating func put(_ character: Character) {
    while cells.count <= cursor.row { cells.append([]) }
    let blank = Cell(character: " ", foreground: "default", background: "default")
    while cells[cursor.row].count <= cursor.column { cells[cursor.row].append(blank) }
    var (front, back) = inverse ? (background, foreground) : (foreground, background)
    // What a terminal shows: a space has no foreground, a full block no background.
    if character == " " { front = "" }
    if character == "█" { back = "" }
    cells[cursor.row][cursor.column] = Cell(
      character: character, foreground: front, background: back)
    cursor.column += 1
  }
}

extension Array {
  fileprivate subscript(safe index: Int) -> Element? {
    indices.contains(index) ? self[index] : nil
  }
}
