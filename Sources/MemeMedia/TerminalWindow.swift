#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import MemeCore

/// The size of the terminal window memesh draws into, in cells and, where reported, pixels.
public struct TerminalWindow: Sendable, Equatable {
  /// Columns and rows of the window.
  public var cells: TerminalPreview.CellSize
  /// Pixels per cell, when the terminal reports its pixel size (many do; some report 0).
  public var cellPixelSize: PixelSize?

  /// A window of `cells`, with cells of `cellPixelSize` pixels when known.
  public init(cells: TerminalPreview.CellSize, cellPixelSize: PixelSize? = nil) {
    self.cells = cells
    self.cellPixelSize = cellPixelSize
  }

  /// True when `fileDescriptor` is a terminal (false for a pipe or a file: write plain text).
  public static func isTerminal(fileDescriptor: Int32 = 1) -> Bool {
    isatty(fileDescriptor) == 1
  }

  /// The window `fileDescriptor` is connected to (TIOCGWINSZ); else COLUMNS and LINES from
  /// `environment`; nil when neither says.
  public static func current(
    fileDescriptor: Int32 = 1, environment: [String: String] = [:]
  ) -> TerminalWindow? {
    var size = winsize()
    if ioctl(fileDescriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 {
      let columns = Int(size.ws_col)
      let rows = Int(size.ws_row)
      let pixels =
        size.ws_xpixel > 0 && size.ws_ypixel > 0
        ? PixelSize(width: Int(size.ws_xpixel) / columns, height: Int(size.ws_ypixel) / rows)
        : nil
      return TerminalWindow(
        cells: TerminalPreview.CellSize(columns: columns, rows: rows),
        cellPixelSize: pixels.flatMap { $0.width > 0 && $0.height > 0 ? $0 : nil })
    }
    guard let columns = environment["COLUMNS"].flatMap({ Int($0) }),
      let rows = environment["LINES"].flatMap({ Int($0) }), columns > 0, rows > 0
    else { return nil }
    return TerminalWindow(cells: TerminalPreview.CellSize(columns: columns, rows: rows))
  }
}
