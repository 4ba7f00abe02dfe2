import Foundation

/// `man memesh`: a roff page made from the same values that feed `memesh --help` (the flags,
/// from argument-parser) and `help` inside the shell (`CommandRegistry`), so they cannot drift.
/// `make install` writes it with `memesh --generate-manual`.
public enum ManualPage {
  /// One command-line flag, as argument-parser describes it.
  public struct Flag: Sendable, Equatable {
    /// `-c`, `--command`.
    public var names: [String]
    /// `commands` for `-c commands`; nil for a switch.
    public var valueName: String?
    public var abstract: String
    public var discussion: String

    public init(names: [String], valueName: String?, abstract: String, discussion: String = "") {
      self.names = names
      self.valueName = valueName
      self.abstract = abstract
      self.discussion = discussion
    }
  }

  /// The environment variables memesh reads, with what each does.
  public static let environment: [(name: String, effect: String)] = [
    ("MEMESH_HOME", "memesh's data folder (default $XDG_DATA_HOME/memesh, else ~/.local/share/memesh); --home wins."),
    ("XDG_DATA_HOME", "see MEMESH_HOME (used only when it is an absolute path)."),
    ("XDG_STATE_HOME", "the line-editing history goes to $XDG_STATE_HOME/memesh/history (default ~/.local/state/memesh/history); under MEMESH_HOME or --home it is HOME/history."),
    ("XDG_CONFIG_HOME", "the start-up file is $XDG_CONFIG_HOME/memesh/memeshrc (default ~/.config/memesh/memeshrc)."),
    ("MEMESH_FONTS", "the folder of bundled fonts (default: found next to the binary)."),
    ("MEMESH_PREVIEW", "terminal graphics mode, as --mode."),
    ("MEMESH_MAX_MEGAPIXELS", "the largest picture load accepts, in whole megapixels (default 100; 1 to 4000)."),
    ("MEMESH_MAX_DECODE_SECONDS", "how long load may spend decoding a picture, in seconds (default 20; 0.001 to 3600): checked as PNG, JPEG, GIF and WebP data is read, between a HEIC or AVIF grid's tiles and between an animation's frames."),
    ("MEMESH_CAMERA", "the video device for camera (default: the first /dev/video*)."),
    ("PAGER", "the program long output goes through in an interactive terminal session (default less -FRX; empty or cat: none)."),
    ("NO_COLOR", "set and not empty: no colors in text, and block-symbol pictures in the terminal's own colors (kitty, iTerm2 and sixel pictures keep theirs)."),
    ("TERM, TERM_PROGRAM, COLORTERM, KITTY_WINDOW_ID", "how memesh detects the terminal's graphics; when they leave it at block symbols, an interactive session asks the terminal (kitty graphics query, XTVERSION, DA1)."),
    ("COLUMNS, LINES", "the window size when it cannot be asked from the terminal."),
  ]

  /// The files memesh keeps under its home, with what each holds.
  public static let files: [(path: String, holds: String)] = [
    ("HOME/memes/index.plist", "the sent memes: an XML property list with a schema version."),
    ("HOME/memes/ID/", "one folder per meme: the original picture, the rendered meme, its thumbnail."),
    ("HOME/memes/trash/", "the last deleted memes, kept so undo can bring them back."),
    ("HOME/draft/", "the editor's draft and its undo history, saved after every change."),
    ("HOME/templates/NAME/", "one folder per template: its picture, template.plist (its boxes), its thumbnail."),
    ("HOME/templates/trash/", "removed templates, kept so undo can bring them back."),
    ("HOME/fonts/", "your own fonts (.ttf, .otf, .ttc)."),
    ("HOME/history", "line-editing history, when MEMESH_HOME or --home is set."),
    ("~/.config/memesh/memeshrc", "commands run at the start of a terminal session, such as 'set font Oswald' (not with --no-rc, -c, piped input or transcripts)."),
  ]

  /// The exit statuses.
  public static let exitStatuses: [(status: String, meaning: String)] = [
    ("0", "every command succeeded, or the session ended with quit."),
    ("1", "a command failed in a non-interactive run (-c, piped input, --check mismatch)."),
    ("2", "a usage error in the flags."),
  ]

  /// Examples, shown in `memesh --help` and the page.
  public static let examples: [(command: String, effect: String)] = [
    ("memesh", "start the interactive shell; type 'help' inside it for its commands"),
    ("memesh -c 'load cat.jpg; caption hi | there; share file out.jpg'",
     "make a meme from a script"),
    ("memesh -c 'template import drake/; template drake; share file drake.png'",
     "start a meme from a memegen template folder"),
    ("memesh < script.txt", "run one command per line"),
    ("memesh --check session.t", "run a transcript and compare it with its expected output"),
  ]

  /// The page, dated `date` (YYYY-MM-DD).
  public static func render(flags: [Flag], version: String, date: String) -> String {
    var page: [String] = []
    page.append(".TH MEMESH 1 \(quoted(date)) \(quoted("memesh " + version)) \"User Commands\"")
    page.append(".SH NAME")
    page.append("memesh \\- a meme studio for the terminal")
    page.append(".SH SYNOPSIS")
    page.append(".B memesh")
    page.append("[\\fB\\-c\\fR \\fIcommands\\fR] [\\fB\\-\\-replay\\fR \\fIfile\\fR | "
      + "\\fB\\-\\-check\\fR \\fIfile\\fR] [\\fB\\-\\-home\\fR \\fIdir\\fR] "
      + "[\\fB\\-\\-mode\\fR \\fImode\\fR] [\\fB\\-\\-keep\\-going\\fR]")
    page.append(".SH DESCRIPTION")
    page.append(text(
      "memesh loads a picture, captions it in bold white capitals with a black outline, "
        + "previews it in the terminal (kitty, iTerm2, sixel or block symbols), shares it and "
        + "keeps every sent meme to browse, show, edit, delete and undo. With a terminal on "
        + "stdin it starts an interactive shell with line editing, history and Tab completion; "
        + "otherwise it reads commands from stdin, one per line, and prints only what they "
        + "print."))
    page.append(".SH OPTIONS")
    for flag in flags {
      page.append(".TP")
      let names = flag.names.map { "\\fB" + escaped($0) + "\\fR" }.joined(separator: ", ")
      page.append(names + (flag.valueName.map { " \\fI" + escaped($0) + "\\fR" } ?? ""))
      page.append(text(flag.abstract))
      if !flag.discussion.isEmpty { page.append(".IP"); page.append(text(flag.discussion)) }
    }
    page.append(".SH COMMANDS")
    page.append(text(
      "Inside memesh, these commands work from any view when their intent is clear; "
        + "'help COMMAND' says the same as here."))
    for kind in [ViewKind.editor, .sent, .detail, .anywhere] {
      page.append(".SS \(escaped(kind.title))")
      for command in CommandRegistry.commands where command.views.first == kind {
        page.append(".TP")
        page.append("\\fB" + escaped(command.usage) + "\\fR")
        var paragraph = command.abstract.prefix(1).uppercased() + command.abstract.dropFirst() + "."
        if !command.aliases.isEmpty {
          paragraph += " Aliases: " + command.aliases.joined(separator: ", ") + "."
        }
        if !command.discussion.isEmpty { paragraph += " " + command.discussion }
        page.append(text(paragraph))
      }
    }
    /// A section of tagged paragraphs: each term in `font` (B bold, I italic), then its text.
    func section(_ title: String, _ entries: [(String, String)], font: Character = "B") {
      page.append(".SH \(title)")
      for (term, meaning) in entries {
        page.append(".TP")
        page.append("\\f\(font)" + escaped(term) + "\\fR")
        page.append(text(meaning))
      }
    }
    section("ENVIRONMENT", environment.map { ($0.name, $0.effect) })
    section("FILES", files.map { ($0.path, $0.holds) }, font: "I")
    section("EXIT STATUS", exitStatuses.map { ($0.status, $0.meaning) })
    section("EXAMPLES", examples.map { ($0.command, $0.effect) })
    page.append(".SH SEE ALSO")
    page.append(text("The README of memesh, and 'help' inside the shell."))
    return page.joined(separator: "\n") + "\n"
  }

  /// `value` escaped for roff: backslashes doubled, dashes as \-, and a line that would start
  /// with a control character ('.' or "'") protected by \&.
  static func escaped(_ value: String) -> String {
    var result = ""
    for character in value {
      switch character {
      case "\\": result += "\\e"
      case "-": result += "\\-"
      default: result.append(character)
      }
    }
    return result
  }

  /// A paragraph of running text: escaped, on one line that cannot start a roff request.
  static func text(_ value: String) -> String {
    let line = escaped(value.replacingOccurrences(of: "\n", with: " "))
    return line.hasPrefix(".") || line.hasPrefix("'") ? "\\&" + line : line
  }

  /// A roff macro argument in double quotes.
  static func quoted(_ value: String) -> String {
    "\"" + escaped(value).replacingOccurrences(of: "\"", with: "\\(dq") + "\""
  }
}
