import Foundation
import MemeCore
import MemeMedia
import MemeSystem

extension Shell {
  /// `help [COMMAND]`.
  func help(_ arguments: Arguments) throws {
    try console.paged(Pager(shell: self)) { try helpText(arguments) }
  }

  /// The text of `help [COMMAND]`.
  private func helpText(_ arguments: Arguments) throws {
    if let name = arguments.words.first {
      guard let command = CommandRegistry.command(named: name) else {
        let near = Suggestions.nearest(
          to: name, among: CommandRegistry.commands.flatMap(\.allNames))
        throw ShellError.noSuchCommandToExplain(name, suggestion: near)
      }
      console.line("usage: \(command.usage)")
      if !command.aliases.isEmpty {
        console.line("aliases: \(command.aliases.joined(separator: ", "))")
      }
      helpParagraph(command.abstract)
      if let reason = command.unavailableReason(self) { helpParagraph("unavailable: \(reason)") }
      if !command.discussion.isEmpty { helpParagraph(command.discussion) }
      return
    }
    // In a terminal the abstracts wrap at the window's width, in their own column (under the
    // name when the window is too narrow for two columns); elsewhere each stays on one line.
    let width = drawingWindow?.cells.columns
    let abstractColumn = (width ?? 80) >= 72 ? 36 : 6
    console.line("memesh \(MemeshVersion.current): a meme studio for the terminal")
    for kind in [ViewKind.editor, .sent, .detail, .anywhere] {
      console.line("")
      console.line("\(kind.title):")
      for command in CommandRegistry.commands where command.views.first == kind {
        var name = command.usage
        if !command.aliases.isEmpty { name += " (\(command.aliases.joined(separator: ", ")))" }
        var abstract = command.abstract
        if let reason = command.unavailableReason(self) { abstract += " [unavailable: \(reason)]" }
        let lines = Self.wrapped(abstract, width: width.map { $0 - abstractColumn })
        let indent = String(repeating: " ", count: abstractColumn)
        if name.count > abstractColumn - 4 {
          console.line("  \(name)")
          for line in lines { console.line(indent + line) }
        } else {
          console.line(
            "  \(name)" + String(repeating: " ", count: abstractColumn - 2 - name.count)
              + lines[0])
          for line in lines.dropFirst() { console.line(indent + line) }
        }
      }
    }
    console.line("")
    helpParagraph(
      "Commands work from any view when their intent is clear. Quote words with spaces: "
        + "load 'my photo.jpg'.")
    helpParagraph(
      "In scripts (-c, piped input) memesh stops at the first failed command with status 1; "
        + "--keep-going goes on (status 1 at the end if any failed, 0 after 'quit').")
  }

  /// Prints `text`, wrapped at the window's width in a terminal.
  private func helpParagraph(_ text: String) {
    for line in Self.wrapped(text, width: drawingWindow?.cells.columns) { console.line(line) }
  }

  /// `text` cut into lines of at most `width` columns at spaces (a word longer than that gets a
  /// line of its own); one line when `width` is nil.
  static func wrapped(_ text: String, width: Int?) -> [String] {
    guard let width, Display.columns(text) > width else { return [text] }
    var lines: [String] = []
    var current = ""
    for word in text.split(separator: " ") {
      let candidate = current.isEmpty ? String(word) : current + " " + word
      if Display.columns(candidate) > width, !current.isEmpty {
        lines.append(current)
        current = String(word)
      } else {
        current = candidate
      }
    }
    if !current.isEmpty { lines.append(current) }
    return lines.isEmpty ? [""] : lines
  }

  /// `source FILE`: runs each line (a transcript's `> ` lines only), stopping at the first
  /// failure unless the session keeps going.
  func source(path: String) throws {
    guard sourceDepth < 8 else {
      throw ShellError.sourceTooDeep(limit: 8)
    }
    let data: Data
    if path == StandardStreams.name {
      data = try readStandardInput(for: "source")
    } else {
      do {
        data = try WholeFile.read(path: OutputFile.expanded(path))
      } catch {
        throw ShellError.cannotRead(command: "source", error)
      }
    }
    let text = String(decoding: data, as: UTF8.self)
    var lines = text.split(
      omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }
    )
    .map(String.init)
    if let first = lines.first, first.hasPrefix("\u{FEFF}") { lines[0].removeFirst() }
    if lines.contains(where: { $0.hasPrefix("> ") || $0 == ">" }) {
      lines = lines.filter { $0.hasPrefix("> ") }.map { String($0.dropFirst(2)) }
    }
    sourceDepth += 1
    defer { sourceDepth -= 1 }
    // Relative paths in the script name files beside it, wherever it is sourced from.
    let folder = PathName(OutputFile.expanded(path)).folder
    let previous = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    defer {
      if previous >= 0 {
        _ = fchdir(previous)
        close(previous)
      }
    }
    if !folder.isEmpty, folder != "." {
      guard previous >= 0, chdir(FileSystemName.cString(folder)) == 0 else {
        throw ShellError.cannotRead(
          command: "source", path: path, reason: "cannot change into its folder '\(folder)'")
      }
    }
    for (number, line) in lines.enumerated() {
      if quitRequested { return }
      try checkInterrupt("source", "stopped before line \(number + 1)")
      if !run(line: line) {
        throw ShellError.sourceStopped(line: number + 1, path: path)
      }
    }
  }
}
