import Foundation
import MemeCore
import MemeMedia
import MemeSystem

extension Shell {
  /// `set`, `set font NAME|default`, `set format png|jpeg|webp|gif|auto`: the session's defaults —
  /// the font new drafts start in and the format `share` writes when nothing else says. They
  /// change no draft (no undo step); the start-up file is where they are kept.
  func set(_ arguments: Arguments) throws {
    guard let key = arguments.words.first else {
      let font = editor.blank.recipe.font
      console.line(
        "font: \(font)\(font == MemeRecipe.defaultFont ? " (default)" : "") — new drafts")
      console.line(
        "format: \(defaultFormat?.name ?? "auto (the picture's own)") — share without --format")
      return
    }
    let value = arguments.words.dropFirst().joined(separator: " ")
    switch key.lowercased() {
    case "font":
      guard !value.isEmpty else { throw arguments.usageError("'font' needs a NAME or 'default'") }
      let font = value.lowercased() == "default" ? MemeRecipe.defaultFont : value
      // Checked now, so a mistyped name in the start-up file is said at start.
      let resolved = try catalog.resolve(font)
      editor.setDefaultFont(resolved.origin == .path ? font : resolved.name)
      let current =
        state.recipe.font == editor.blank.recipe.font ? "" : "; 'font \(resolved.name)' changes this draft's"
      if !runningStartupFile { console.line("new drafts use \(resolved.name)\(current)") }
    case "format":
      switch value.lowercased() {
      case "auto", "default":
        defaultFormat = nil
        if !runningStartupFile {
          console.line("share writes the picture's own format unless --format or a name says")
        }
      default:
        guard let format = ImageFormat(userInput: value), format.isWritable else {
          throw ShellError.notAFormat(
            command: "set format", name: value, choices: "png, jpeg, webp, gif or auto")
        }
        defaultFormat = format
        if !runningStartupFile { console.line("share writes \(format.name) unless --format or a name says") }
      }
    default:
      let hint = Suggestions.nearest(to: key, among: ["font", "format"])
      throw ShellError.unknownChoice(
        command: "set", kind: "setting", word: key, suggestion: hint, choices: "font or format")
    }
  }

  /// Runs the start-up file at `path` when there is one: each line as typed, an error reported
  /// with the file's name and line, the rest still run.
  public func runStartupFile(_ path: String) {
    let data: Data
    do {
      // A start-up file is a few lines: one over 1 MB is refused whole, never cut mid-line.
      data = try WholeFile.read(path: path, maxBytes: 1 << 20)
    } catch {
      if !error.isMissing {
        console.warning(
          "cannot run the start-up file '\(ImageCodec.displayName(path))': \(error.reason)")
      }
      return
    }
    let text = String(decoding: data, as: UTF8.self)
    // `set` says nothing there: a start that prints the same lines every time is noise.
    runningStartupFile = true
    defer { runningStartupFile = false }
    for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
    where !run(line: String(line)) {
      console.note("that was line \(number + 1) of '\(path)' ('memesh --no-rc' skips the file)")
    }
  }
}
