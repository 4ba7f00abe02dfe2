/// How many colors a terminal shows, for pictures drawn with symbols.
public enum ColorDepth: String, Sendable, CaseIterable {
  /// 24-bit color (`ESC[38;2;r;g;bm`).
  case truecolor
  /// The xterm 256-color palette (`ESC[38;5;nm`).
  case indexed256 = "256"
  /// The 16 ANSI colors (`ESC[31m` … `ESC[97m`).
  case indexed16 = "16"
}

/// What a terminal can draw: the picture protocol and the color depth of symbol pictures.
public struct TerminalCapabilities: Sendable, Equatable, CustomStringConvertible {
  /// The protocol pictures are drawn with.
  public var mode: PreviewMode
  /// The colors of symbol pictures (also what `--mode symbols` uses on a graphics terminal).
  public var colorDepth: ColorDepth

  /// Capabilities as given.
  public init(mode: PreviewMode, colorDepth: ColorDepth) {
    self.mode = mode
    self.colorDepth = colorDepth
  }

  /// For example `kitty, truecolor`.
  public var description: String { "\(mode.rawValue), \(colorDepth.rawValue)" }

  /// What the terminal described by `environment` can draw.
  ///
  /// In order: `MEMESH_PREVIEW` names a mode → that mode; `NO_COLOR` set and not empty →
  /// `none`; TERM missing or `dumb` → `none`; inside tmux or screen → `symbols` (graphics would
  /// need passthrough); kitty (`KITTY_WINDOW_ID`, `TERM=xterm-kitty`, Ghostty) → `kitty`; iTerm2
  /// or WezTerm (`TERM_PROGRAM`, `LC_TERMINAL`) → `iterm`; a sixel terminal (chafa's terminal
  /// database, or TERM naming mlterm, foot, contour, yaft) → `sixel`; otherwise `symbols`.
  public static func detect(environment: [String: String]) -> TerminalCapabilities {
    let colorDepth = detectColorDepth(environment: environment)
    if let forced = environment["MEMESH_PREVIEW"].flatMap(PreviewMode.init(name:)) {
      return TerminalCapabilities(mode: forced, colorDepth: colorDepth)
    }
    return TerminalCapabilities(mode: detectMode(environment: environment), colorDepth: colorDepth)
  }

  // MARK: - Detection

  private static func detectMode(environment: [String: String]) -> PreviewMode {
    let term = (environment["TERM"] ?? "").lowercased()
    let program = environment["TERM_PROGRAM"] ?? ""
    if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return .none }
    if term.isEmpty || term == "dumb" { return .none }
    if isMultiplexer(environment: environment) { return .symbols }
    if isKitty(environment: environment) { return .kitty }
    if program == "iTerm.app" || program == "WezTerm" || environment["LC_TERMINAL"] == "iTerm2"
      || term == "wezterm"
    {
      return .iterm
    }
    if ["mlterm", "foot", "contour", "yaft"].contains(where: { term.contains($0) })
      || TerminalChafa.TermInfo(environment: environment).hasSixels
    {
      return .sixel
    }
    return .symbols
  }

  private static func detectColorDepth(environment: [String: String]) -> ColorDepth {
    let term = (environment["TERM"] ?? "").lowercased()
    let colorTerm = (environment["COLORTERM"] ?? "").lowercased()
    let program = environment["TERM_PROGRAM"] ?? ""
    if colorTerm == "truecolor" || colorTerm == "24bit" || term.hasSuffix("-direct") {
      return .truecolor
    }
    // Terminals known to show 24-bit color, unless a multiplexer in between may reduce it.
    if !isMultiplexer(environment: environment)
      && (isKitty(environment: environment) || program == "iTerm.app" || program == "WezTerm")
    {
      return .truecolor
    }
    return term.contains("256color") ? .indexed256 : .indexed16
  }

  /// kitty sets KITTY_WINDOW_ID and TERM=xterm-kitty; Ghostty speaks kitty's protocol too.
  private static func isKitty(environment: [String: String]) -> Bool {
    let term = (environment["TERM"] ?? "").lowercased()
    return term == "xterm-kitty" || term == "xterm-ghostty"
      || !(environment["KITTY_WINDOW_ID"] ?? "").isEmpty
  }

  /// tmux and screen swallow graphics sequences unless wrapped, and they pass KITTY_WINDOW_ID or
  /// TERM_PROGRAM of the outer terminal through to the shell inside.
  private static func isMultiplexer(environment: [String: String]) -> Bool {
    let term = (environment["TERM"] ?? "").lowercased()
    return !(environment["TMUX"] ?? "").isEmpty || !(environment["STY"] ?? "").isEmpty
      || term.hasPrefix("screen") || term.hasPrefix("tmux")
  }
}
