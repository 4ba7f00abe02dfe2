import MemeCore

/// How a picture is drawn in the terminal.
public enum PreviewMode: String, Sendable, CaseIterable {
  case kitty, iterm, sixel, symbols, none
}

/// Terminal graphics through libchafa.
public enum TerminalPreview {
  /// The best mode for the terminal described by `environment` (TERM, TERM_PROGRAM, COLORTERM,
  /// KITTY_WINDOW_ID, NO_COLOR, MEMESH_PREVIEW).
  public static func detectMode(environment: [String: String]) -> PreviewMode { .none }

  /// Escape sequences that draw `image` in at most `columns`×`rows` cells; empty for `.none`.
  public static func render(
    _ image: RGBAImage, mode: PreviewMode, columns: Int, rows: Int,
    environment: [String: String]
  ) -> String { "" }
}
