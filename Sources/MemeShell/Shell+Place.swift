import Foundation
import Glibc
import MemeCore
import MemeMedia

/// `place N`: box N moved, resized and turned with keys while the preview follows.
///
/// The preview is made from the picture's proxy, reduced once to the pixels the terminal shows,
/// so each key costs one caption layout and one terminal picture. Each frame is drawn over the
/// last one (the cursor goes back up the picture's rows; a kitty picture replaces the last by
/// its id), with a status line under it.
extension Shell {
  /// `place N`.
  func place(_ arguments: Arguments) throws {
    let picture = try requirePicture(for: "place")
    let boxes = state.recipe.boxes
    guard let number = Int(arguments[0]), boxes.indices.contains(number - 1) else {
      throw ShellError.noSuchBox(command: "place", word: arguments[0], count: boxes.count)
    }
    guard settings.interactive, settings.previewMode != .none,
      TerminalWindow.isTerminal(fileDescriptor: 0), TerminalWindow.isTerminal(fileDescriptor: 1),
      let window = drawingWindow
    else {
      throw ShellError.placeNeedsATerminal(number: number)
    }
    let screen = try PlaceScreen(
      state: state, picture: picture, window: window, mode: settings.previewMode,
      environment: environment, catalog: catalog)
    var edit = PlaceEdit(boxes[number - 1], pictureSize: screen.pictureSize)
    guard let kept = screen.run(&edit, number: number) else {
      console.line("place: box \(number) put back")
      return
    }
    guard kept != edit.original else {
      console.line("place: box \(number) unchanged")
      return
    }
    apply(.setBox(index: number - 1, kept), label: "place \(number)")
    let angle = kept.angle == 0 ? "" : ", turned \(PlaceEdit.degrees(kept.angle))°"
    console.line(
      "place: box \(number) at \(kept.placement.frame(in: screen.pictureSize).percentages)\(angle)")
  }
}

/// The terminal side of `place`: raw keys in, frames out.
struct PlaceScreen {
  /// The displayed (cropped) picture's size at full resolution: the box's fractions are of it.
  let pictureSize: PixelSize
  /// The cropped proxy reduced to what the terminal shows.
  private let base: RGBAImage
  private let state: EditorState
  private let mode: PreviewMode
  private let environment: [String: String]
  private let window: TerminalWindow
  private let catalog: FontCatalog
  private let colorDepth: ColorDepth
  /// The rows a frame's picture takes.
  private let maxRows: Int

  /// The kitty image id place mode draws under, so each frame replaces the last.
  static let kittyImage = 7_340_001

  init(
    state: EditorState, picture: SourcePicture, window: TerminalWindow, mode: PreviewMode,
    environment: [String: String], catalog: FontCatalog
  ) throws {
    pictureSize = try state.recipe.crop.resolved(in: try picture.size).size
    let cropped = try MemeRendering.croppedProxy(state, picture: picture)
    maxRows = max(4, window.cells.rows - 3)
    let cells = TerminalPreview.fittedCells(
      imageSize: cropped.size, maxColumns: window.cells.columns, maxRows: maxRows,
      cellPixelSize: window.cellPixelSize)
    let cell = window.cellPixelSize ?? TerminalPreview.defaultCellPixelSize
    base = ImageOps.scaled(
      cropped, toFit: max(1, cells.columns * max(1, cell.width)),
      max(1, cells.rows * max(1, cell.height)))
    self.state = state
    self.mode = mode
    self.environment = environment
    self.window = window
    self.catalog = catalog
    colorDepth = TerminalCapabilities.detect(environment: environment).colorDepth
  }

  /// Shows `edit`'s box and applies keys until Enter (the box as placed) or Esc, Ctrl-C or the
  /// end of input (nil).
  func run(_ edit: inout PlaceEdit, number: Int) -> TextBox? {
    var saved = termios()
    guard tcgetattr(0, &saved) == 0 else { return nil }
    var raw = saved
    raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG)
    guard tcsetattr(0, TCSANOW, &raw) == 0 else { return nil }
    Console.writeAll(1, "\u{1B}[?25l")
    defer {
      tcsetattr(0, TCSANOW, &saved)
      Console.writeAll(1, "\r\u{1B}[K\u{1B}[?25h")
    }
    var rows = 0
    while true {
      rows = draw(edit, number: number, over: rows)
      guard let key = PlaceKey.read(Self.nextByte) else { return nil }
      switch key {
      case .keep: return edit.box
      case .cancel: return nil
      default: edit.apply(key)
      }
      // Keys typed (or repeated) while a frame was drawn are taken before the next frame.
      while Self.inputWaiting(milliseconds: 0), let more = PlaceKey.read(Self.nextByte) {
        switch more {
        case .keep: return edit.box
        case .cancel: return nil
        default: edit.apply(more)
        }
      }
    }
  }

  /// The meme as `edit` has it, with a frame around the box being placed.
  func frame(_ edit: PlaceEdit, number: Int) -> (image: RGBAImage, report: CaptionReport) {
    var boxes = state.recipe.boxes
    boxes[number - 1] = edit.box
    var image = base
    let report =
      (try? CaptionRenderer(catalog: catalog).draw(
        into: &image, boxes: boxes, font: state.recipe.font)) ?? CaptionReport()
    PlaceScreen.outline(edit.box, on: &image)
    return (image, report)
  }

  /// Draws a frame over the last one (`rows` tall, 0 for the first) and the status line under
  /// it; returns the rows this one took.
  private func draw(_ edit: PlaceEdit, number: Int, over rows: Int) -> Int {
    let started = DispatchTime.now().uptimeNanoseconds
    let (image, _) = frame(edit, number: number)
    var picture = TerminalPreview.draw(
      image, mode: mode, colorDepth: colorDepth, maxColumns: window.cells.columns,
      maxRows: maxRows, environment: environment, cellPixelSize: window.cellPixelSize)
    var text = "\r"
    if rows > 0 { text += "\u{1B}[\(rows)A" }
    if picture.mode == .kitty {
      // The same id: the new picture replaces the last instead of piling up in kitty's memory.
      text += "\u{1B}_Ga=d,d=I,i=\(Self.kittyImage),q=2\u{1B}\\"
      picture.text = picture.text.replacingOccurrences(
        of: "\u{1B}_Ga=T,", with: "\u{1B}_Ga=T,i=\(Self.kittyImage),")
    }
    let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
    text += picture.text + "\r\n\u{1B}[K"
    // One line, never wrapped: the next frame goes back up a known number of rows.
    let status =
      "place \(number) \(edit.status) · \(Int(milliseconds.rounded())) ms · \(PlaceEdit.keys)"
    text += String(status.prefix(max(1, window.cells.columns - 1)))
    Console.writeAll(1, text)
    return picture.cells.rows
  }

  /// A thin frame (yellow, with a dark edge to show on any picture) around `box`, turned as it
  /// is.
  static func outline(_ box: TextBox, on image: inout RGBAImage) {
    let rectangle = box.placement.box(in: image.size)
    let center = (x: rectangle.x + rectangle.width / 2, y: rectangle.y + rectangle.height / 2)
    let radians = box.angle * .pi / 180
    let (cosine, sine) = (cos(radians), sin(radians))
    func turned(_ x: Double, _ y: Double) -> (Double, Double) {
      let (dx, dy) = (x - center.x, y - center.y)
      return (center.x + dx * cosine - dy * sine, center.y + dx * sine + dy * cosine)
    }
    let corners = [
      turned(rectangle.x, rectangle.y), turned(rectangle.x + rectangle.width, rectangle.y),
      turned(rectangle.x + rectangle.width, rectangle.maxY), turned(rectangle.x, rectangle.maxY),
    ]
    for index in 0..<4 {
      let (from, to) = (corners[index], corners[(index + 1) % 4])
      let steps = Int(max(abs(to.0 - from.0), abs(to.1 - from.1)).rounded(.up)) + 1
      for step in 0...steps {
        let t = Double(step) / Double(steps)
        let x = Int((from.0 + (to.0 - from.0) * t).rounded(.down))
        let y = Int((from.1 + (to.1 - from.1) * t).rounded(.down))
        // Dashes: four pixels on, two off.
        guard step % 6 < 4, x >= 0, y >= 0, x < image.width, y < image.height else { continue }
        image[x, y] = RGBA(255, 214, 0)
      }
    }
  }

  // MARK: - Keys

  /// The next byte of input: waiting for it, or only if it comes within 30 ms (the rest of an
  /// escape sequence); nil at the end of input.
  static func nextByte(wait: Bool) -> UInt8? {
    if !wait && !inputWaiting(milliseconds: 30) { return nil }
    var byte: UInt8 = 0
    while true {
      let count = Glibc.read(0, &byte, 1)
      if count == 1 { return byte }
      if count < 0 && errno == EINTR { continue }
      return nil
    }
  }

  /// Whether input is there within `milliseconds`.
  static func inputWaiting(milliseconds: Int32) -> Bool {
    var descriptor = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
    return poll(&descriptor, 1, milliseconds) > 0
  }
}
