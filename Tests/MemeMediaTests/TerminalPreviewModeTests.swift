import MemeCore
import Testing

@testable import MemeMedia

@Suite struct TerminalPreviewModeTests {
  /// (what the terminal is, its environment, the mode, the color depth).
  static let terminals: [(String, [String: String], PreviewMode, ColorDepth)] = [
    ("no environment at all", [:], .none, .indexed16),
    ("a dumb terminal", ["TERM": "dumb"], .none, .indexed16),
    ("NO_COLOR", ["TERM": "xterm-256color", "NO_COLOR": "1"], .symbols, .monochrome),
    ("NO_COLOR in kitty", ["TERM": "xterm-kitty", "NO_COLOR": "1"], .kitty, .monochrome),
    (
      "empty NO_COLOR is not set", ["TERM": "xterm-256color", "NO_COLOR": ""], .symbols, .indexed256
    ),
    ("kitty by TERM", ["TERM": "xterm-kitty"], .kitty, .truecolor),
    ("kitty by window id", ["TERM": "xterm-256color", "KITTY_WINDOW_ID": "3"], .kitty, .truecolor),
    ("Ghostty", ["TERM": "xterm-ghostty", "COLORTERM": "truecolor"], .kitty, .truecolor),
    ("iTerm2", ["TERM": "xterm-256color", "TERM_PROGRAM": "iTerm.app"], .iterm, .truecolor),
    ("iTerm2 over ssh", ["TERM": "xterm-256color", "LC_TERMINAL": "iTerm2"], .iterm, .indexed256),
    ("WezTerm", ["TERM": "xterm-256color", "TERM_PROGRAM": "WezTerm"], .iterm, .truecolor),
    ("mlterm", ["TERM": "mlterm"], .sixel, .indexed16),
    ("foot", ["TERM": "foot", "COLORTERM": "truecolor"], .sixel, .truecolor),
    ("contour", ["TERM": "contour"], .sixel, .indexed16),
    (
      "Konsole, from chafa's terminal database",
      ["TERM": "xterm-256color", "KONSOLE_VERSION": "220401", "COLORTERM": "truecolor"],
      .sixel, .truecolor
    ),
    (
      "GNOME Terminal",
      ["TERM": "xterm-256color", "COLORTERM": "truecolor", "VTE_VERSION": "7200"],
      .symbols, .truecolor
    ),
    ("xterm, 256 colors", ["TERM": "xterm-256color"], .symbols, .indexed256),
    ("xterm, direct color", ["TERM": "xterm-direct"], .symbols, .truecolor),
    ("xterm, 24bit COLORTERM", ["TERM": "xterm", "COLORTERM": "24bit"], .symbols, .truecolor),
    ("plain xterm", ["TERM": "xterm"], .symbols, .indexed16),
    ("Linux console", ["TERM": "linux"], .symbols, .indexed16),
    (
      "tmux inside kitty",
      ["TERM": "tmux-256color", "TMUX": "/tmp/tmux-0/default,1,0", "KITTY_WINDOW_ID": "1"],
      .symbols, .indexed256
    ),
    ("screen", ["TERM": "screen"], .symbols, .indexed16),
    (
      "MEMESH_PREVIEW wins", ["TERM": "xterm-256color", "MEMESH_PREVIEW": "sixel"], .sixel,
      .indexed256
    ),
    (
      "MEMESH_PREVIEW=none in kitty", ["TERM": "xterm-kitty", "MEMESH_PREVIEW": "none"], .none,
      .truecolor
    ),
    (
      "MEMESH_PREVIEW over NO_COLOR",
      ["TERM": "xterm", "NO_COLOR": "1", "MEMESH_PREVIEW": "Symbols"],
      .symbols, .monochrome
    ),
    (
      "unknown MEMESH_PREVIEW is ignored", ["TERM": "xterm-kitty", "MEMESH_PREVIEW": "ascii"],
      .kitty, .truecolor
    ),
  ]

  @Test(arguments: terminals)
  func detectsModeAndColors(
    terminal: String, environment: [String: String], mode: PreviewMode, colorDepth: ColorDepth
  ) {
    let detected = TerminalCapabilities.detect(environment: environment)
    #expect(detected == TerminalCapabilities(mode: mode, colorDepth: colorDepth), "\(terminal)")
    #expect(TerminalPreview.detectMode(environment: environment) == mode, "\(terminal)")
  }

  @Test(arguments: [
    ("kitty", PreviewMode.kitty), ("ITERM", .iterm), ("iterm2", .iterm), (" sixel ", .sixel),
    ("symbols", .symbols), ("none", .none),
  ])
  func parsesModeNames(name: String, mode: PreviewMode) {
    #expect(PreviewMode(name: name) == mode)
  }

  @Test func unknownModeNamesNoMode() {
    #expect(PreviewMode(name: "ascii") == nil)
    #expect(PreviewMode(name: "") == nil)
  }
}
