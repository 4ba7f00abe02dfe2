import MemeCore

/// Every command of the shell, in the order `help` lists them. Help, completion, dispatch and
/// "did you mean" all read this one list.
public enum CommandRegistry {
  /// The commands.
  public static let commands: [ShellCommand] = editorCommands + sentCommands + anywhereCommands

  /// The command called `name` (or with that alias), case-insensitive.
  public static func command(named name: String) -> ShellCommand? {
    let lowered = name.lowercased()
    return commands.first { $0.allNames.contains(lowered) }
  }

  /// True when `name` is a caption command, whose rest of the line is text.
  public static func isTextCommand(_ name: String) -> Bool {
    command(named: name)?.takesText == true
  }

  // MARK: - Editor

  /// How a caption command reads its text, for `help top`, `help bottom` and `help caption`.
  static let captionRule =
    "The rest of the line is the caption as typed, apostrophes and quotes included (top don't "
    + "do it). A caption that starts with a quote is read as quoted words instead (top \"\" "
    + "clears it). A backslash takes the next character as it is: \\| is a bar, \\\\ a "
    + "backslash, \\; a semicolon in -c."

  static let editorCommands: [ShellCommand] = [
    ShellCommand(
      "new", aliases: ["add"], views: [.editor], abstract: "start a blank draft",
      discussion: "The captions show the placeholders TOP and BOTTOM until you type them; "
        + "placeholders are never drawn into a shared meme.",
      arity: .none
    ) { shell, _ in shell.newDraft() },
    ShellCommand(
      "load", aliases: ["album"], usage: "load PATH", views: [.editor],
      abstract: "load a picture (PNG, JPEG, WebP, GIF, HEIC, AVIF) into the editor",
      discussion: "A picture memesh wrote carries its recipe; when its original is in the store, "
        + "load reopens that meme for editing instead of captioning the captioned picture. "
        + "Recipes of every earlier memesh reopen; one written by a newer memesh (a later "
        + "recipe version) is not read: the picture loads as a plain picture, with a note. "
        + "'load -' reads the picture from standard input (with -c only: cat x.jpg | memesh -c "
        + "'load -; top hi; share').",
      arity: .exactly(
        1, missing: "needs a PATH", extra: "takes one PATH (quote names with spaces)"),
      arguments: .positional([.imagePaths])
    ) { shell, arguments in try shell.load(path: arguments[0]) },
    ShellCommand(
      "camera", views: [.editor], abstract: "take a picture with the camera and load it",
      discussion: "Needs a video device (/dev/video*, or MEMESH_CAMERA=PATH) and ffmpeg or "
        + "fswebcam.",
      arity: .none,
      unavailableReason: { $0.cameraUnavailableReason() }
    ) { shell, _ in try shell.camera() },
    ShellCommand(
      "top", usage: "top TEXT", views: [.editor], abstract: "set the top caption",
      discussion: "Without TEXT, shows it. " + captionRule, takesText: true
    ) { shell, arguments in try shell.setCaption(top: true, arguments) },
    ShellCommand(
      "bottom", usage: "bottom TEXT", views: [.editor], abstract: "set the bottom caption",
      discussion: "Without TEXT, shows it. " + captionRule, takesText: true
    ) { shell, arguments in try shell.setCaption(top: false, arguments) },
    ShellCommand(
      "caption", usage: "caption TOP | BOTTOM", views: [.editor],
      abstract: "set both captions at once",
      discussion: "The first | separates them; \\| puts a bar in a caption. Each is read as 'help top' "
        + "says.",
      takesText: true
    ) { shell, arguments in try shell.setCaptions(arguments) },
    ShellCommand(
      "text",
      usage: "text [add TEXT | N TEXT | rm N]",
      views: [.editor], abstract: "list, add, change and remove the text boxes",
      discussion: "Boxes are numbered from 1 in drawing order; a new draft's boxes 1 and 2 are "
        + "the top and bottom captions. 'text' lists each box: its place (a rectangle in percent "
        + "of the picture as shown), its text and its style. 'text add TEXT' adds a box in the "
        + "middle; a final 'at X Y W H' (10% 5% 80% 20%, or pixels) or 'at top', 'at middle', "
        + "'at bottom', 'at left', 'at right' places it. 'text N TEXT' sets box N's text (the "
        + "rest of the line as typed, as 'top' reads it). A text that starts with a setting's "
        + "name is that setting when the rest reads as its value: one word (a place or number "
        + "after 'at', anything after 'font'); otherwise it is the text: text 2 at last, text 2 "
        + "color me surprised. Quote a text to be sure: text 2 'case closed'. Settings: 'text N at X Y W H|PLACE', 'text N align "
        + "left|center|right', 'text N color NAME|#RRGGBB', 'text N outline NAME|#RRGGBB|none|"
        + "auto' (auto: black around light text, white around dark), 'text N font NAME|default' "
        + "(default: the meme's font), 'text N angle DEG' (clockwise), 'text N case "
        + "upper|as-typed', 'text N during START-STOP|all' (the part of an animation it shows in, "
        + "as fractions: 0.5-1). 'text N' shows box N; 'text rm N' removes it. Every change is one "
        + "undo step.",
      arguments: .textBoxes, takesText: true
    ) { shell, arguments in try shell.text(arguments) },
    ShellCommand(
      "font", usage: "font [NAME]", views: [.editor], abstract: "choose the caption font",
      discussion: "NAME is a font from 'fonts' or a path to a .ttf/.otf file.",
      arguments: .positional([.fonts])
    ) { shell, arguments in try shell.font(arguments) },
    ShellCommand(
      "fonts", usage: "fonts [--installed]", views: [.editor],
      abstract: "list the fonts with a sample line",
      discussion: "Without --installed, memesh's own fonts and yours (the home's fonts folder); "
        + "with it, the fonts installed on the system, which 'font NAME' takes by family name.",
      arguments: .options(switches: ["--installed"])
    ) { shell, arguments in try shell.listFonts(arguments) },
    ShellCommand(
      "crop", usage: "crop X Y W H | crop W:H | crop off", views: [.editor],
      abstract: "crop the picture (a rectangle, an aspect ratio, or off)",
      arguments: .positional([.words(["off", "1:1", "4:3", "3:2", "16:9", "9:16"])])
    ) { shell, arguments in try shell.crop(arguments) },
    ShellCommand(
      "place", usage: "place N", views: [.editor],
      abstract: "move, resize and turn box N with the keys while the preview follows",
      discussion: "Arrows move the box by 1 % of the picture (with Ctrl 10 %), Shift+arrows move "
        + "its right or bottom edge, ] and [ make it larger or smaller, r and R turn it 5 "
        + "degrees; Enter keeps it (one undo step), Esc puts it back. Needs a terminal that "
        + "shows pictures; elsewhere 'text N at X Y W H' places a box.",
      arity: .exactly(1, missing: "needs a box number N", extra: "takes one box number")
    ) { shell, arguments in try shell.place(arguments) },
    ShellCommand(
      "preview", usage: "preview [--explain] [--out FILE] [--frame N] [--force]",
      views: [.editor],
      abstract: "show the meme (or describe it where pictures cannot be drawn)",
      discussion: "--explain says how each caption was laid out; --out FILE writes the picture "
        + "at full resolution (PNG, or JPEG for .jpg names, an animated GIF for .gif) without "
        + "sharing it; --out - writes it to standard output. An animated GIF or WebP plays at "
        + "its own timing, looping until a key; --frame N shows frame N alone. "
        + CommandRegistry.overwriteRule,
      arguments: .options(
        switches: ["--explain", "--force"], values: ["--out": .anyPath, "--frame": .words([])])
    ) { shell, arguments in try shell.preview(arguments) },
    ShellCommand(
      "share",
      usage: "share [file PATH | clipboard | open] [--format png|jpeg|webp|gif] [--lossless] [--force]",
      views: [.editor], abstract: "save the meme to the sent memes, then hand it on",
      discussion: "The meme is saved first (as MemeMe does), then written to PATH, copied to "
        + "the clipboard (wl-copy or xclip) or opened (xdg-open). When editing a sent meme, "
        + "share updates it in place. The format defaults to PATH's extension, else the "
        + "picture's own (JPEG for HEIC and AVIF photos, PNG for a still GIF; an animated GIF "
        + "or WebP stays animated, every frame captioned). --lossless writes a "
        + "lossless WebP. 'file -' writes the meme to standard output (with -c, every message "
        + "then goes to stderr). " + CommandRegistry.overwriteRule,
      arguments: .options(
        switches: ["--lossless", "--force"],
        values: ["--format": .words(["png", "jpeg", "webp", "gif"])],
        positional: ArgumentCompleter { shell, previous, partial in
          if previous.isEmpty {
            return ArgumentCompleter.words(["file", "clipboard", "open"]).complete(
              shell, previous, partial)
          }
          if previous == ["file"] { return ArgumentCompleter.anyPath.complete(shell, [], partial) }
          return []
        })
    ) { shell, arguments in try shell.share(arguments) },
    ShellCommand(
      "cancel", views: [.editor], abstract: "discard the draft and show the sent memes",
      arity: .none
    ) { shell, _ in shell.cancel() },
    ShellCommand(
      "undo", views: [.anywhere],
      abstract: "undo the last thing done: an editor change, new, cancel or a delete",
      discussion: "One history across views and runs: the last change to the draft or the last "
        + "delete, whichever came last ('history' lists them).",
      arity: .none
    ) { shell, _ in try shell.undo() },
    ShellCommand(
      "redo", views: [.anywhere], abstract: "redo the editor change undo undid", arity: .none
    ) { shell, _ in try shell.redo() },
    ShellCommand(
      "history", views: [.anywhere],
      abstract: "list the undo steps: the editor's, and deletes among them", arity: .none
    ) { shell, _ in try shell.listHistory() },
    ShellCommand(
      "template", usage: "template NAME [STYLE] | save NAME | import DIR [NAME] | rm NAME",
      views: [.editor], abstract: "start a meme from a template, or save, import or remove one",
      discussion: "template NAME starts a new draft on the template's picture (or its STYLE's) "
        + "with its boxes holding their example texts; undo goes back. template save NAME keeps "
        + "the editor's picture, crop, font and boxes, their texts as examples. template import "
        + "DIR reads a memegen template folder (config.yml and default.png or .jpg; its folder's "
        + "name is the template's unless NAME is given): bad YAML, an unknown key, a value out "
        + "of range or a missing picture is one error and nothing is imported. template rm NAME "
        + "removes one; undo brings it back.",
      arguments: .template
    ) { shell, arguments in try shell.template(arguments) },
    ShellCommand(
      "info", views: [.editor], abstract: "print the editor state as key: value lines",
      discussion: "Keys, in order: image, width, height, format, top, bottom, font, crop, "
        + "unsaved changes, editing. Scripts may rely on them.",
      arity: .none
    ) { shell, _ in try shell.info() },
  ]

  // MARK: - Sent memes

  static let sentCommands: [ShellCommand] = [
    ShellCommand(
      "browse", aliases: ["list", "ls"], usage: "browse [table|grid] [--tsv]", views: [.sent],
      abstract: "show the sent memes as a table or a grid of thumbnails",
      discussion: "--tsv prints one tab-separated row per meme for scripts: id, top, bottom, "
        + "font, width, height, created (ISO 8601), path of the rendered image.",
      arguments: .options(
        switches: ["--tsv"], positional: .positional([.words(["table", "grid"])]))
    ) { shell, arguments in try shell.browse(arguments) },
    ShellCommand(
      "show", usage: "show ID", views: [.sent, .detail],
      abstract: "show one sent meme at its own aspect ratio", arity: .atMost(1),
      arguments: .positional([.memeIDs])
    ) { shell, arguments in try shell.show(arguments) },
    ShellCommand(
      "edit", usage: "edit ID", views: [.sent, .detail],
      abstract: "open a sent meme in the editor; share then updates it", arity: .atMost(1),
      arguments: .positional([.memeIDs])
    ) { shell, arguments in try shell.edit(arguments) },
    ShellCommand(
      "delete", aliases: ["rm"], usage: "delete ID", views: [.sent, .detail],
      abstract: "delete a sent meme ('undo' brings it back)", arity: .atMost(1),
      arguments: .positional([.memeIDs])
    ) { shell, arguments in try shell.delete(arguments) },
    ShellCommand(
      "export", usage: "export ID PATH [--force]", views: [.sent, .detail],
      abstract: "write a sent meme's picture to a file",
      discussion: "PATH - writes it to standard output. " + CommandRegistry.overwriteRule,
      arity: .exactly(2, missing: "needs an ID and a PATH"),
      arguments: .positional([.memeIDs, .anyPath])
    ) { shell, arguments in try shell.export(arguments) },
    ShellCommand(
      "templates", usage: "templates [table|grid]", views: [.sent],
      abstract: "list the templates (thumbnails in a graphics terminal)",
      discussion: "Each template's name, title, number of boxes, size and styles; in a terminal "
        + "that draws pictures, a grid of thumbnails unless 'table' is asked for.",
      arity: .atMost(1), arguments: .positional([.words(["table", "grid"])])
    ) { shell, arguments in try shell.listTemplates(arguments) },
    ShellCommand(
      "back", views: [.detail, .editor], abstract: "go back to the sent memes", arity: .none
    ) { shell, _ in shell.back() },
  ]

  /// What `share file`, `export` and `preview --out` do with a file that is already there.
  static let overwriteRule =
    "A file already there is replaced only with --force; at a terminal memesh asks first, in "
    + "scripts it refuses."

  // MARK: - Anywhere

  static let anywhereCommands: [ShellCommand] = [
    ShellCommand(
      "help", usage: "help [COMMAND]", views: [.anywhere],
      abstract: "list the commands, or explain one", arity: .atMost(1),
      arguments: .commandNames
    ) { shell, arguments in try shell.help(arguments) },
    ShellCommand(
      "source", usage: "source FILE", views: [.anywhere],
      abstract: "run the commands in a file (or a transcript's inputs)",
      discussion: "Relative paths in the file name files beside it, wherever it is sourced from. "
        + "'source -' reads the commands from standard input (with -c only).",
      arity: .exactly(1),
      arguments: .positional([.anyPath])
    ) { shell, arguments in try shell.source(path: arguments[0]) },
    ShellCommand(
      "set", usage: "set [font NAME|default | format png|jpeg|webp|gif|auto]", views: [.anywhere],
      abstract: "show or change the defaults: new drafts' font, share's format",
      discussion: "Defaults change no draft and last for the session; put them in the start-up "
        + "file ($XDG_CONFIG_HOME/memesh/memeshrc, run in a terminal unless --no-rc) to keep them. "
        + "An animation shared under 'set format png' or 'jpeg' is its first frame, with a note "
        + "saying so; 'auto', gif, webp or share's --format gif|webp keep it moving.",
      arguments: .positional([.words(["font", "format"])])
    ) { shell, arguments in try shell.set(arguments) },
    ShellCommand(
      "clear", aliases: ["cls"], views: [.anywhere],
      abstract: "clear the screen (and the scrollback, as clear(1) does)",
      discussion: "Prints nothing when the output is not a terminal (a pipe, a file, a script's "
        + "log), so scripts and transcripts may use it.",
      arity: .none
    ) { shell, _ in shell.console.clearScreen() },
    ShellCommand(
      "quit", aliases: ["exit"], views: [.anywhere], abstract: "leave memesh (so does Ctrl-D)",
      arity: .none
    ) { shell, _ in shell.quitRequested = true },
  ]
}
