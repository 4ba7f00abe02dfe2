import Foundation
import MemeCore

/// How many colors a terminal shows, for pictures drawn with symbols.
public enum ColorDepth: String, Sendable, CaseIterable {
  /// 24-bit color (`ESC[38;2;r;g;bm`).
  case truecolor
  /// The xterm 256-color palette (`ESC[38;5;nm`).
  case indexed256 = "256"
  /// The 16 ANSI colors (`ESC[31m` … `ESC[97m`).
  case indexed16 = "16"
  /// No colors: the terminal's own foreground and background (NO_COLOR).
  case monochrome

  /// How many colors, to compare depths.
  var colorCount: Int {
    switch self {
    case .truecolor: 1 << 24
    case .indexed256: 256
    case .indexed16: 16
    case .monochrome: 2
    }
  }
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

  /// What the terminal described by `environment` can draw, with what the terminal on this
  /// process's standard output answered when asked (`recordedAnswers`, set at start).
  public static func detect(environment: [String: String]) -> TerminalCapabilities {
    detect(environment: environment, answers: recordedAnswers)
  }

  /// What the terminal described by `environment` and `answers` can draw.
  ///
  /// In order: `MEMESH_PREVIEW` names a mode → that mode; TERM missing or `dumb` → `none`; inside tmux or screen → `symbols` (graphics would
  /// need passthrough); kitty (`KITTY_WINDOW_ID`, `TERM=xterm-kitty`, Ghostty) → `kitty`; iTerm2
  /// or WezTerm (`TERM_PROGRAM`, `LC_TERMINAL`) → `iterm`; a sixel terminal (chafa's terminal
  /// database, or TERM naming mlterm, foot, contour, yaft) → `sixel`; then what the terminal
  /// answered: the kitty graphics query → `kitty`, sixels in DA1 → `sixel`; otherwise `symbols`.
  /// A terminal that named itself in XTVERSION sets the color depth when the environment
  /// under-states it (xterm says `TERM=xterm` yet shows 256 colors).
  ///
  /// `NO_COLOR` (set and not empty) makes symbol pictures `monochrome`, like text; kitty, iTerm2
  /// and sixel pictures keep their colors: NO_COLOR asks programs not to add ANSI colors to
  /// text, and such a picture is the picture itself, not colored text.
  public static func detect(
    environment: [String: String], answers: TerminalAnswers?
  ) -> TerminalCapabilities {
    var colorDepth = detectColorDepth(environment: environment)
    if let answered = answers?.version.flatMap(colorDepth(ofTerminalNamed:)),
      colorDepth != .monochrome, answered.colorCount > colorDepth.colorCount
    {
      colorDepth = answered
    }
    if let forced = environment["MEMESH_PREVIEW"].flatMap(PreviewMode.init(name:)) {
      return TerminalCapabilities(mode: forced, colorDepth: colorDepth)
    }
    var mode = detectMode(environment: environment)
    if mode == .symbols && !isMultiplexer(environment: environment), let answers {
      if answers.kittyGraphics {
        mode = .kitty
      } else if answers.sixels {
        mode = .sixel
      }
    }
    return TerminalCapabilities(mode: mode, colorDepth: colorDepth)
  }

  /// Whether asking the terminal could change what `detect` says: only when the environment
  /// leaves it at symbols outside a multiplexer (tmux answers for itself), with no mode forced.
  public static func worthAsking(environment: [String: String]) -> Bool {
    environment["MEMESH_PREVIEW"].flatMap(PreviewMode.init(name:)) == nil
      && detectMode(environment: environment) == .symbols
      && !isMultiplexer(environment: environment)
  }

  /// The answers of the terminal on standard output, recorded once at start by whoever asked
  /// (`TerminalQuery.ask`); nil when nobody did (scripts, pipes, tests).
  public static var recordedAnswers: TerminalAnswers? {
    get { answersLock.withLock { answers } }
    set { answersLock.withLock { answers = newValue } }
  }
  /// The largest sixel picture the terminal on standard output draws: what it answered
  /// (`recordedAnswers`), else `TerminalPreview.defaultSixelLimit`.
  public static var sixelLimit: PixelSize {
    recordedAnswers?.sixelGeometry ?? TerminalPreview.defaultSixelLimit
  }
  nonisolated(unsafe) private static var answers: TerminalAnswers?
  private static let answersLock = NSLock()

  /// The colors a terminal that names itself `version` (XTVERSION) shows in symbol pictures.
  static func colorDepth(ofTerminalNamed version: String) -> ColorDepth? {
    let name = version.prefix { $0 != "(" && $0 != " " }.lowercased()
    switch name {
    case "kitty", "wezterm", "foot", "contour", "iterm2", "ghostty", "konsole", "mlterm":
      return .truecolor
    case "xterm": return .indexed256
    default: return nil
    }
  }

  // MARK: - Detection

  private static func detectMode(environment: [String: String]) -> PreviewMode {
    let term = (environment["TERM"] ?? "").lowercased()
    let program = environment["TERM_PROGRAM"] ?? ""
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
    if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return .monochrome }
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
