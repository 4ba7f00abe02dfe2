import Foundation
import MemeCore
import MemeMedia
import MemeSystem

#if canImport(Glibc)
  import Glibc
#endif

/// `-` as a file name: standard output for the pictures `share file`, `export` and
/// `preview --out` write, standard input for what `load` and `source` read.
///
/// Standard output can carry a picture only when it is not a terminal and has carried no text:
/// with `-c`, the launcher sees the `-` before running anything and sends every message to
/// stderr from the start (`memesh -c 'load cat.jpg; top hi; share file -' > meme.jpg`).
/// Standard input can be read only when it carries no commands (`-c`) and is not a terminal.
enum StandardStreams {
  /// The file name that means a standard stream.
  static let name = "-"

  /// How the picture written to `-` is called in messages.
  static let outputName = "standard output"
  /// How a picture read from `-` is called in messages and the editor.
  static let inputName = "standard input"

  /// Whether a command line writes a picture to standard output: `share`, `export` or `preview`
  /// with a `-` word (a path of `-`).
  static func sendsPicture(_ line: String) -> Bool {
    guard
      let tokens = try? CommandTokenizer.tokenize(
        line, isTextCommand: CommandRegistry.isTextCommand),
      let first = tokens.first, let command = CommandRegistry.command(named: first.text),
      ["share", "export", "preview"].contains(command.name)
    else { return false }
    return tokens.dropFirst().contains { $0.text == name }
  }

  /// Reads standard input to its end, refusing more than `limit` bytes.
  static func readInput(limit: Int, for command: String) throws(ShellError) -> Data {
    var data = Data()
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      guard count >= 0 else {
        throw ShellError.standardStream(
          command: command, output: false, reason: SystemError.reason(errno))
      }
      if count == 0 { break }
      data.append(contentsOf: chunk[..<count])
      guard data.count <= limit else {
        throw ShellError.standardStream(
          command: command, output: false, reason: "it holds more than \(limit >> 20) MB")
      }
    }
    return data
  }
}

extension Shell {
  /// Refuses a picture for standard output when it cannot carry one now: a terminal, a
  /// transcript, text already written, or a picture already there.
  func claimStandardOutput(for command: String) throws(ShellError) {
    let refusal =
      console.capture != nil
      ? "a transcript records it" : settings.standardOutputRefusal
    if let refusal {
      throw ShellError.standardStream(command: command, output: true, reason: refusal)
    }
    if console.wrotePicture {
      throw ShellError.standardStream(
        command: command, output: true, reason: "it already carries a picture")
    }
    if console.wroteText {
      throw ShellError.standardStream(
        command: command, output: true,
        reason: "it already carries text (run the commands with -c: memesh then sends its "
          + "messages to stderr)")
    }
  }

  /// Reads all of standard input for `load -` or `source -`, once per session.
  func readStandardInput(for command: String) throws(ShellError) -> Data {
    let refusal =
      console.capture != nil ? "a transcript cannot read it" : settings.standardInputRefusal
    if let refusal {
      throw ShellError.standardStream(command: command, output: false, reason: refusal)
    }
    guard !standardInputRead else {
      throw ShellError.standardStream(
        command: command, output: false, reason: "it was already read by an earlier command")
    }
    standardInputRead = true
    let data = try StandardStreams.readInput(limit: WholeFile.maxBytes, for: command)
    guard !data.isEmpty else {
      throw ShellError.standardStream(command: command, output: false, reason: "it is empty")
    }
    return data
  }

  /// The rule for a file that is already there, the same for `share file`, `export` and
  /// `preview --out`: `--force` replaces it; a person at a terminal is asked; a script is
  /// refused, before anything is rendered or saved.
  func checkOverwrite(_ path: String, command: String, force: Bool) throws(ShellError) {
    guard !force, path != StandardStreams.name else { return }
    var status = stat()
    // A symlink counts as a file there: the rename into place would replace the link itself.
    guard lstat(FileSystemName.cString(path), &status) == 0,
      [S_IFREG, S_IFLNK].contains(status.st_mode & S_IFMT)
    else { return }
    if let ask = askYesNo {
      guard !ask("\(command): replace '\(Display.cell(path, limit: 200))'? [y/N] ") else { return }
      throw ShellError.fileExists(command: command, path: path, asked: true)
    }
    throw ShellError.fileExists(command: command, path: path, asked: false)
  }
}
