import MemeCore
import MemeMedia
import MemeStore
import MemeSystem

/// What went wrong in a shell command, as data: each case carries the values the user needs
/// (which command, which word or path, why). `message` words every case, here and nowhere else;
/// callers build cases, never sentences, and never edit another error's text.
enum ShellError: UserFacingError, Equatable {
  // MARK: - What was typed

  /// The first word names no command.
  case unknownCommand(String, suggestion: String?)
  /// Wrong words for a command; `problem` nil means the first word was not expected (or none
  /// was given).
  case usage(command: String, problem: String?, firstWord: String?, usage: String)
  /// An option the command does not have.
  case unknownOption(command: String, option: String, suggestion: String?, usage: String)
  /// A word that is not one of a command's choices (`browse flat`, `share printer`).
  case unknownChoice(
    command: String, kind: String, word: String, suggestion: String?, choices: String)
  /// `help NAME` for a command that does not exist.
  case noSuchCommandToExplain(String, suggestion: String?)
  /// A meme id that is not a positive number.
  case notAMemeID(command: String, word: String)
  /// `share --lossless` for a format other than WebP.
  case losslessNeedsWebP(format: ImageFormat)
  /// A `--format` that memesh cannot write; `choices` are the ones it can.
  case notAFormat(command: String, name: String, choices: String)

  // MARK: - The editor

  /// A command that needs a picture, before one was loaded.
  case noPicture(command: String)
  /// `undo` with nothing to undo; `inSentMemes` when it would undo a delete.
  case nothingToUndo(inSentMemes: Bool)
  /// `redo` with nothing undone.
  case nothingToRedo
  /// `fonts` found no font at all.
  case noFonts
  /// `fonts --installed` found no installed outline font.
  case noInstalledFonts
  /// `camera` without a device or capture tool.
  case noCamera(reason: String)
  /// Ctrl-C between a command's steps; `consequence` says what stayed as it was.
  case interrupted(command: String, consequence: String?)
  /// A draft's picture whose bytes no longer hash to the name it is saved under.
  case draftPictureChanged(sha256: String)

  /// `text N …` or `place N` for a box that does not exist (`word` is what was typed; `count`
  /// boxes exist).
  case noSuchBox(command: String, word: String, count: Int)
  /// A value a box cannot take (`text 2 color chartreuse-ish`); `expected` says what it takes.
  case badBoxValue(command: String, word: String, expected: String)
  /// `text N font NAME` with a font that cannot be used.
  case boxFont(command: String, FontError)
  /// `text add` on a meme with as many boxes as a recipe keeps.
  case tooManyBoxes(limit: Int)
  /// `preview --frame N` past the animation's `count` frames.
  case noSuchFrame(Int, count: Int)
  /// `preview --frame N` of a still picture.
  case frameOfStill(name: String)

  // MARK: - Files and memes

  /// A path the command cannot write; `reason` is the system's or memesh's few words.
  case cannotWrite(command: String, path: String, reason: String)
  /// `-` (standard input or output) that cannot be used now; `output` tells which stream.
  case standardStream(command: String, output: Bool, reason: String)
  /// A file that is already there, not replaced: `asked` when the user said no.
  case fileExists(command: String, path: String, asked: Bool)
  /// A file `source` (or a transcript) cannot read.
  case cannotRead(command: String?, path: String, reason: String)

  /// A file `source` (or a transcript) cannot read, as the system call failed: its path escaped
  /// for the terminal, the reason in `SystemError`'s words.
  static func cannotRead(command: String?, _ error: SystemError) -> ShellError {
    .cannotRead(command: command, path: ImageCodec.displayName(error.path), reason: error.reason)
  }
  /// `export` to a name of another format than the stored meme's.
  case exportFormatMismatch(id: Int, path: String, format: ImageFormat, named: String)
  /// A sent meme whose files a command needs are damaged or gone.
  case memeDamaged(command: String, id: Int, problem: String)
  /// `source` files that source each other too deep.
  case sourceTooDeep(limit: Int)
  /// A line of a `source` file failed (its own error was printed).
  case sourceStopped(line: Int, path: String)

  /// An outside program (ffmpeg, xclip, xdg-open) that could not be started.
  case toolDidNotStart(command: String, tool: String, reason: String)
  /// An outside program that ended with a failure status; `firstLine` of what it printed.
  case toolFailed(command: String, tool: String, status: Int32, firstLine: String?)

  // MARK: - Text boxes

  /// `place` where keys cannot be read or pictures drawn (a script, a pipe, no graphics).
  case placeNeedsATerminal(number: Int)

  // MARK: - Templates

  /// A name no template has; `suggestion` a near one.
  case noTemplate(command: String, name: String, suggestion: String?, hasTemplates: Bool)
  /// `template import DIR` for a folder whose name makes no template name.
  case templateNeedsName(folder: String)
  /// A template name already taken, for `template save` and `template import`.
  case templateExists(command: String, name: String)
  /// A name that cannot name a template (`TemplateName.problem` says why).
  case badTemplateName(command: String, problem: String)
  /// `template NAME STYLE` for a style the template does not have.
  case noTemplateStyle(name: String, style: String, styles: [String])
  /// The templates' store refused `command` (a template that cannot be read, a symlink at its
  /// name …): the store's words after the command's name, as every template error starts.
  case templateStore(command: String, StoreError)

  // MARK: - Share

  /// The store cannot take the meme (read-only): nothing was written anywhere.
  case shareNotSaved(reason: String)
  /// The meme was saved, but handing it on failed.
  case sharedBut(id: Int, problem: SharedButProblem)

  /// Why a saved meme did not reach its destination.
  enum SharedButProblem: Equatable {
    /// The output file could not be written (the system's message).
    case write(path: String, reason: String)
    case noClipboard
    case noClipboardTool
    case noDisplay
    case noOpener
  }

  /// The one line the user reads after `error: `.
  var message: String {
    switch self {
    case .unknownCommand(let name, let suggestion):
      return "unknown command '\(Display.cell(name, limit: 40))'"
        + (suggestion.map { "; did you mean '\($0)'?" } ?? "; 'help' lists the commands")
    case .usage(let command, let problem, let firstWord, let usage):
      let problem = problem ?? (firstWord.map { "unexpected '\($0)'" } ?? "missing arguments")
      return "\(command): \(problem) (usage: \(usage))"
    case .unknownOption(let command, let option, let suggestion, let usage):
      return "\(command): unknown option '\(option)'"
        + (suggestion.map { "; did you mean '\($0)'?" } ?? " (usage: \(usage))")
    case .unknownChoice(let command, let kind, let word, let suggestion, let choices):
      return "\(command): unknown \(kind) '\(word)'"
        + (suggestion.map { "; did you mean '\($0)'?" } ?? " (\(choices))")
    case .noSuchCommandToExplain(let name, let suggestion):
      return "help: no command '\(name)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
    case .notAMemeID(let command, let word):
      return "\(command): '\(word)' is not a meme id (ids are 1, 2, 3…)"
    case .notAFormat(let command, let name, let choices):
      return "\(command): '\(name)' is not a format (\(choices))"
    case .losslessNeedsWebP(let format):
      return "share: --lossless is for WebP; a \(format.name) is written as it always is "
        + "(add --format webp)"
    case .noPicture(let command):
      return "\(command): no picture yet; 'load PATH' one first"
    case .nothingToUndo(let inSentMemes):
      return "undo: nothing to undo" + (inSentMemes ? " (no deleted memes)" : "")
    case .nothingToRedo:
      return "redo: nothing to redo"
    case .noFonts:
      return "fonts: no fonts found (set MEMESH_FONTS to memesh's Fonts folder)"
    case .noInstalledFonts:
      return "fonts: fontconfig lists no installed outline fonts"
    case .noCamera(let reason):
      return "camera: \(reason)"
    case .interrupted(let command, let consequence):
      return "\(command): interrupted" + (consequence.map { "; \($0)" } ?? "")
    case .draftPictureChanged(let sha256):
      return "the draft's picture \(sha256.prefix(12))… does not match its contents"
    case .noSuchBox(let command, let word, let count):
      let boxes =
        count == 0
        ? "there are no boxes; 'text add TEXT' adds one"
        : (count == 1 ? "the only box is 1" : count == 2 ? "boxes are 1 and 2" : "boxes are 1 to \(count)")
          + "; 'text' lists them"
      return Int(word) == nil && command == "text"
        ? "text: '\(Display.cell(word, limit: 40))' is not a box number or 'add' or 'rm' (\(boxes))"
        : "\(command): no box \(Display.cell(word, limit: 20)) (\(boxes))"
    case .badBoxValue(let command, let word, let expected):
      return "\(command): '\(Display.cell(word, limit: 40))' is not \(expected)"
    case .boxFont(let command, let error):
      return error.message(command: command)
    case .tooManyBoxes(let limit):
      return "text add: a meme keeps at most \(limit) boxes ('text rm N' removes one)"
    case .noSuchFrame(let frame, let count):
      return "preview: there is no frame \(frame) (the animation has \(count))"
    case .frameOfStill(let name):
      return "preview: --frame needs an animation; \(name) is still"
    case .cannotWrite(let command, let path, let reason):
      return "\(command): cannot write '\(path)': \(reason)"
    case .standardStream(let command, let output, let reason):
      return output
        ? "\(command): cannot write the picture to standard output: \(reason)"
        : "\(command): cannot read standard input: \(reason)"
    case .fileExists(let command, let path, let asked):
      return asked
        ? "\(command): kept '\(path)' as it was; nothing was written"
        : "\(command): '\(path)' already exists (add --force to replace it)"
    case .cannotRead(let command, let path, let reason):
      return (command.map { "\($0): " } ?? "") + "cannot read '\(path)': \(reason)"
    case .exportFormatMismatch(let id, let path, let format, let named):
      return "export: cannot write '\(path)': meme \(id) is a \(format.name), not \(named) "
        + "(name it .\(format.fileExtension))"
    case .memeDamaged(let command, let id, let problem):
      return command == "edit"
        ? "edit: meme \(id) cannot be edited: \(problem)" : "\(command): meme \(id): \(problem)"
    case .sourceTooDeep(let limit):
      return "source: files source each other more than \(limit) deep"
    case .sourceStopped(let line, let path):
      return "source: stopped at line \(line) of '\(path)'"
    case .toolDidNotStart(let command, let tool, let reason):
      return "\(command): cannot start '\(tool)': \(reason)"
    case .toolFailed(let command, let tool, let status, let firstLine):
      return "\(command): '\(tool)' failed (status \(status))" + (firstLine.map { ": \($0)" } ?? "")
    case .placeNeedsATerminal(let number):
      return "place: needs a terminal that shows pictures; 'text \(number) at X Y W H' places "
        + "box \(number) by numbers (percent or pixels)"
    case .noTemplate(let command, let name, let suggestion, let hasTemplates):
      let hint =
        suggestion.map { "; did you mean '\($0)'?" }
        ?? (hasTemplates
          ? "; 'templates' lists them"
          : " (there are none yet: 'template save NAME' or 'template import DIR' makes one)")
      return "\(command): no template named '\(Display.cell(name, limit: 40))'\(hint)"
    case .templateExists(let command, let name):
      if command == "undo" {
        return "undo: cannot bring back template '\(name)': one of that name was made since "
          + "('template rm \(name)' first)"
      }
      return "\(command): a template named '\(name)' exists already ('template rm \(name)' "
        + "removes it, or choose another name)"
    case .badTemplateName(let command, let problem):
      return "\(command): \(problem)"
    case .templateStore(let command, let error):
      return "\(command): \(error.message)"
    case .noTemplateStyle(let name, let style, let styles):
      return "template: '\(name)' has no style '\(Display.cell(style, limit: 40))'"
        + (styles.isEmpty ? " (it has none)" : " (its styles: \(styles.joined(separator: ", ")))")
    case .templateNeedsName(let folder):
      return "template import: '\(folder)' gives no name; name it: template import DIR NAME"
    case .shareNotSaved(let reason):
      return "share: \(reason); nothing was written ('preview --out FILE' writes the meme "
        + "without saving it)"
    case .sharedBut(let id, let problem):
      let saved = "share: saved meme \(id), but"
      switch problem {
      case .write(let path, let reason): return "\(saved) cannot write '\(path)': \(reason)"
      case .noClipboard:
        return "\(saved) there is no clipboard here (neither WAYLAND_DISPLAY nor DISPLAY is set)"
      case .noClipboardTool:
        return "\(saved) no clipboard tool is installed (install wl-clipboard or xclip)"
      case .noDisplay: return "\(saved) there is no display to open it on (DISPLAY is not set)"
      case .noOpener: return "\(saved) xdg-open is not installed (install xdg-utils)"
      }
    }
  }
}
