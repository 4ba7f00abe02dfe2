import Foundation
import MemeCore

#if canImport(Glibc)
  import Glibc
#endif

/// Output taller than the window, a screenful at a time, as git and psql do: text through
/// `$PAGER` (default `less -FRX`: quits at once when it fits, keeps colors, leaves the text on
/// screen), pictures with a `--More--` pause between screenfuls (a pager program would show
/// their escape sequences as text).
///
/// Only for a person: an interactive session whose standard output is a terminal. Scripts,
/// pipes, `-c` and transcripts get everything at once, never a pause.
struct Pager {
  /// The window's height in lines.
  let rows: Int
  /// The pager program as `sh -c` runs it; nil when `PAGER` is empty or `cat` (no paging).
  let command: String?

  /// The pager for `shell`, or nil when its output must not be paged.
  init?(shell: Shell) {
    guard shell.settings.interactive, shell.console.capture == nil,
      shell.console.outputIsTerminal, let window = shell.drawingWindow
    else { return nil }
    rows = window.cells.rows
    let program = shell.environment["PAGER"] ?? "less -FRX"
    let trimmed = program.trimmingCharacters(in: .whitespaces)
    command = trimmed.isEmpty || trimmed == "cat" ? nil : trimmed
  }

  // MARK: - Text

  /// Writes `lines` (already escaped) through the pager program when they are taller than the
  /// window, else straight to the terminal. A pager that cannot start is named in a warning,
  /// and the lines are written as they are.
  func show(_ lines: [String], console: Console) {
    let text = lines.map { $0 + "\n" }.joined()
    guard let command, lines.count >= rows else {
      Console.writeAll(1, text)
      return
    }
    // posix_spawn, not Foundation's Process: Process puts the child in a process group of its
    // own, where less cannot read keys from the terminal (it is not the foreground group).
    var pipeEnds: [Int32] = [0, 0]
    guard pipe(&pipeEnds) == 0 else {
      Console.writeAll(1, text)
      return
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, pipeEnds[0], 0)
    posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
    posix_spawn_file_actions_addclose(&actions, pipeEnds[1])
    var environment = ProcessInfo.processInfo.environment
    // git's default: less shows colors, quits when the text fits, leaves it on screen.
    if environment["LESS"] == nil { environment["LESS"] = "FRX" }
    let words: [String] = ["/bin/sh", "-c", command]
    let arguments: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
    let variables: [UnsafeMutablePointer<CChar>?] =
      environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      arguments.forEach { free($0) }
      variables.forEach { free($0) }
    }
    var child: pid_t = 0
    let spawned = posix_spawn(&child, "/bin/sh", &actions, nil, arguments, variables)
    close(pipeEnds[0])
    guard spawned == 0 else {
      close(pipeEnds[1])
      console.warning(
        "cannot start the pager '\(command)': \(String(cString: strerror(spawned)))")
      Console.writeAll(1, text)
      return
    }
    // The pager may quit before reading everything ('q'): the write then fails with EPIPE
    // (SIGPIPE is ignored) and stops.
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
      let written = bytes.withUnsafeBytes { write(pipeEnds[1], $0.baseAddress, $0.count) }
      if written < 0 && errno == EINTR { continue }
      guard written > 0 else { break }
      bytes = bytes.dropFirst(written)
    }
    close(pipeEnds[1])
    var status: Int32 = 0
    while waitpid(child, &status, 0) < 0 && errno == EINTR {}
    // sh exits 126 or 127 when it could not run the command (not found, not executable).
    let exited = status & 0x7F == 0
    let code = (status >> 8) & 0xFF
    if exited && (code == 126 || code == 127) {
      console.warning(
        "cannot start the pager '\(command)' (set PAGER to another program, or to '' for none)")
      Console.writeAll(1, text)
    }
  }

  // MARK: - Pictures

  /// Waits for a key after a screenful of pictures: Space or Enter goes on, `q`, Escape or
  /// Ctrl-C stops (false). The `--More--` prompt is erased either way.
  func more() -> Bool {
    Console.writeAll(1, "--More-- (Space: next, q: stop)")
    defer { Console.writeAll(1, "\r\u{1B}[K") }
    var saved = termios()
    guard tcgetattr(0, &saved) == 0 else { return true }
    var raw = saved
    raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG)
    guard tcsetattr(0, TCSANOW, &raw) == 0 else { return true }
    defer { tcsetattr(0, TCSANOW, &saved) }
    while true {
      var key: UInt8 = 0
      let count = read(0, &key, 1)
      if count < 0 && errno == EINTR { continue }
      guard count == 1 else { return false }
      switch key {
      case UInt8(ascii: " "), UInt8(ascii: "\r"), UInt8(ascii: "\n"): return true
      case UInt8(ascii: "q"), UInt8(ascii: "Q"), 0x1B, 0x03, 0x04: return false
      default: continue
      }
    }
  }
}

extension Console {
  /// Runs `body` holding its standard output lines, then shows them through `pager` (nil:
  /// writes them as they come, which is also what happens when output is captured).
  func paged(_ pager: Pager?, _ body: () throws -> Void) rethrows {
    guard let pager, capture == nil else { return try body() }
    heldLines = []
    defer {
      let lines = heldLines ?? []
      heldLines = nil
      pager.show(lines, console: self)
    }
    try body()
  }
}
