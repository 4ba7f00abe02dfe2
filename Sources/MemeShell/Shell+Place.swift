import Foundation
import Glibc
import MemeCore
import MemeMedia

/// `place N`: box N moved, resized and turned with keys while the preview follows.
///
/// The frames come from `PlacePreview`: the picture's proxy reduced once to the terminal's
/// cells, and after each key only what changed is drawn again, with a status line under it.
/// Enter or Esc leaves the meme as kept or as it was, without the frame around the box.
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
      state: state, picture: picture, number: number, window: window,
      mode: settings.previewMode, environment: environment, catalog: catalog)
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
  private let preview: PlacePreview
  private let columns: Int

  init(
    state: EditorState, picture: SourcePicture, number: Int, window: TerminalWindow,
    mode: PreviewMode, environment: [String: String], catalog: FontCatalog
  ) throws {
    pictureSize = try state.recipe.crop.resolved(in: try picture.size).size
    guard
      let preview = try PlacePreview(
        picture: try MemeRendering.croppedProxy(state, picture: picture),
        boxes: state.recipe.boxes, font: state.recipe.font, index: number - 1, catalog: catalog,
        mode: mode, colorDepth: TerminalCapabilities.detect(environment: environment).colorDepth,
        maxColumns: window.cells.columns, maxRows: max(4, window.cells.rows - 3),
        environment: environment, cellPixelSize: window.cellPixelSize)
    else { throw ShellError.placeNeedsATerminal(number: number) }
    self.preview = preview
    columns = window.cells.columns
  }

  /// Shows `edit`'s box and applies keys until Enter (the box as placed) or Esc, Ctrl-C or the
  /// end of input (nil). The meme is left on screen as it then is, without the frame.
  func run(_ edit: inout PlaceEdit, number: Int) -> TextBox? {
    var saved = termios()
    guard tcgetattr(0, &saved) == 0 else { return nil }
    var raw = saved
    raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG)
    guard tcsetattr(0, TCSANOW, &raw) == 0 else { return nil }
    Console.writeAll(1, "\u{1B}[?25l")
    var kept: TextBox?
    defer {
      Console.writeAll(1, preview.finish(kept ?? edit.original) + "\u{1B}[K")
      tcsetattr(0, TCSANOW, &saved)
      Console.writeAll(1, "\r\u{1B}[K\u{1B}[?25h")
    }
    while true {
      draw(edit, number: number)
      guard let key = PlaceKey.read(Self.nextByte) else { return nil }
      switch key {
      case .keep:
        kept = edit.box
        return kept
      case .cancel: return nil
      default: edit.apply(key)
      }
      // Keys typed (or repeated) while a frame was drawn are taken before the next frame.
      while Self.inputWaiting(milliseconds: 0), let more = PlaceKey.read(Self.nextByte) {
        switch more {
        case .keep:
          kept = edit.box
          return kept
        case .cancel: return nil
        default: edit.apply(more)
        }
      }
    }
  }

  /// Draws the frame for `edit` over the last one, and the status line under it.
  private func draw(_ edit: PlaceEdit, number: Int) {
    let started = DispatchTime.now().uptimeNanoseconds
    let text = preview.frame(edit.box)
    let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
    // One line, never wrapped: the next frame goes back up a known number of rows.
    let status =
      "place \(number) \(edit.status) · \(Int(milliseconds.rounded())) ms · \(PlaceEdit.keys)"
    Console.writeAll(1, text + "\r\u{1B}[K" + String(status.prefix(max(1, columns - 1))))
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
