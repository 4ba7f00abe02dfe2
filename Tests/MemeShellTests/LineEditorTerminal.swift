import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// `line-editor-demo` running in a real pseudo-terminal: a detached tmux session of its own
/// (own server socket), typed into with `send-keys` and read back with `capture-pane`, the way
/// a person sees it.
final class LineEditorTerminal {
  let socket = "memesh-lineedit-\(UUID().uuidString.prefix(8))"
  let width: Int
  let height: Int
  private var configuration: URL?

  /// The built demo, next to the test bundle or in `.build/debug`.
  static let demo: URL? = {
    let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let folders = [
      URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
      Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent(),
      packageRoot.appendingPathComponent(".build/debug"),
    ]
    return folders.map { $0.appendingPathComponent("line-editor-demo") }
      .first { FileManager.default.isExecutableFile(atPath: $0.path) }
  }()

  /// tmux, which `make deps` installs.
  static let tmux: String? = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/bin/tmux"]
    .first { FileManager.default.isExecutableFile(atPath: $0) }

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// Starts the demo with `history` (nil: none) and `prompt` on a `width`×`height` terminal.
  /// `environment` adds variables (LANG is C, so UTF-8 must work without a UTF-8 locale).
  convenience init(history: URL?, prompt: String = "demo> ", width: Int = 60, height: Int = 20)
    throws
  {
    guard let demo = LineEditorTerminal.demo, LineEditorTerminal.tmux != nil else {
      throw Failure(description: "line-editor-demo or tmux not found")
    }
    let quoted = [demo.path, history?.path ?? "-", prompt].map(LineEditorTerminal.shellQuote)
    try self.init(
      command: "exec env LANG=C LC_ALL= TERM=screen \(quoted.joined(separator: " "))",
      width: width, height: height
    ) {
      $0.contains(prompt.trimmingCharacters(in: .whitespaces)) || $0.contains("terminal")
    }
  }

  /// Runs the shell command `command` (`/bin/sh -c`) on a `width`×`height` terminal and waits
  /// until the screen satisfies `ready`.
  init(command: String, width: Int, height: Int, ready: (String) -> Bool) throws {
    guard LineEditorTerminal.tmux != nil else { throw Failure(description: "tmux not found") }
    self.width = width
    self.height = height
    // The pane stays after the program ends, so its last words (and exit status) stay readable.
    let configuration = FileManager.default.temporaryDirectory
      .appendingPathComponent("\(socket).conf")
    try Data("set -g remain-on-exit on\n".utf8).write(to: configuration)
    self.configuration = configuration
    try startServer([
      "-f", configuration.path, "new-session", "-d", "-x", "\(width)", "-y", "\(height)", command,
    ])
    try waitFor(ready)
  }

  /// Makes the window `width`×`height` (the program gets SIGWINCH).
  func resize(width: Int, height: Int) throws {
    _ = try tmux(["resize-window", "-t", "0", "-x", "\(width)", "-y", "\(height)"])
    let deadline = Date().addingTimeInterval(10)
    while Date() < deadline {
      let size = try tmux(["display-message", "-p", "-t", "0", "#{pane_width} #{pane_height}"])
      if size.trimmingCharacters(in: .whitespacesAndNewlines) == "\(width) \(height)" {
        // tmux tells the pseudo-terminal (TIOCSWINSZ) a moment after its own pane has the size.
        usleep(500_000)
        return
      }
      usleep(30_000)
    }
    throw Failure(description: "the window did not become \(width)×\(height)")
  }

  deinit {
    _ = try? tmux(["kill-server"])
    if let configuration { try? FileManager.default.removeItem(at: configuration) }
  }

  // MARK: - Typing

  /// Types `text` literally.
  func type(_ text: String) throws {
    _ = try tmux(["send-keys", "-t", "0", "-l", text])
  }

  /// Presses keys by tmux name: `Enter`, `Tab`, `Up`, `C-c`, `C-r`, `BSpace`, `Left` …
  func press(_ keys: String...) throws {
    _ = try tmux(["send-keys", "-t", "0"] + keys)
  }

  // MARK: - Reading

  /// The visible screen, one string per row, trailing spaces removed.
  func screen() throws -> [String] {
    try tmux(["capture-pane", "-p", "-t", "0"]).split(
      separator: "\n", omittingEmptySubsequences: false
    )
    .map { String($0).replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) }
  }

  /// The screen's text.
  func text() throws -> String { try screen().joined(separator: "\n") }

  /// The cursor's column and row.
  func cursor() throws -> (column: Int, row: Int) {
    let parts = try tmux(["display-message", "-p", "-t", "0", "#{cursor_x} #{cursor_y}"])
      .split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    guard parts.count == 2 else { throw Failure(description: "no cursor position") }
    return (parts[0], parts[1])
  }

  /// Waits (at most 10 s) until the cursor is at `column`, `row`; false when it never gets there.
  func waitForCursor(_ column: Int, _ row: Int) throws -> Bool {
    let deadline = Date().addingTimeInterval(10)
    while Date() < deadline {
      if let position = try? cursor(), position == (column, row) { return true }
      usleep(30_000)
    }
    return false
  }

  /// Waits (at most 10 s, so a broken editor fails instead of hanging) until `condition` holds
  /// for the screen's text; throws with the screen when it never does.
  func waitFor(_ condition: (String) -> Bool) throws {
    let deadline = Date().addingTimeInterval(10)
    var last = ""
    while Date() < deadline {
      guard let screen = try? text() else {
        usleep(30_000)  // the session may not be up yet
        continue
      }
      last = screen
      if condition(last) { return }
      usleep(30_000)
    }
    throw Failure(description: "timed out; the screen shows:\n\(last)")
  }

  /// Waits until the last row with text is `prompt` alone: the editor is reading again (keys
  /// typed before that meet the terminal's own line editing, where Ctrl-R reprints the line).
  func waitForPrompt(_ prompt: String = "demo>") throws {
    try waitFor { $0.split(separator: "\n").last.map(String.init) == prompt }
  }

  /// Waits until the screen contains `text` `count` times.
  func waitFor(_ text: String, count: Int = 1) throws {
    try waitFor { $0.components(separatedBy: text).count - 1 >= count }
  }

  /// Waits (at most 10 s) for the demo to end; false when it is still running. (tmux does not
  /// always learn the exit status, so the events tell how it ended.)
  func waitForExit() throws -> Bool {
    let deadline = Date().addingTimeInterval(10)
    while Date() < deadline {
      if try tmux(["display-message", "-p", "-t", "0", "#{pane_dead}"]).hasPrefix("1") {
        return true
      }
      usleep(30_000)
    }
    return false
  }

  /// Output lines the demo printed for its events (`line: …`, `interrupt`, `end`, `work: …`).
  func events() throws -> [String] {
    try screen().filter {
      $0.hasPrefix("line: ") || $0 == "interrupt" || $0 == "end" || $0.hasPrefix("work: ")
    }
  }

  // MARK: - tmux

  @discardableResult
  private func tmux(_ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: LineEditorTerminal.tmux ?? "/usr/bin/tmux")
    process.arguments = ["-L", socket] + arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw Failure(description: "tmux \(arguments.first ?? "") failed")
    }
    return String(decoding: data, as: UTF8.self)
  }

  /// Runs the tmux command that starts the server with posix_spawn rather than Process: the
  /// server would inherit Process's descriptors (waiting for them never ends) and the test
  /// thread's blocked signals (the demo and tmux would then ignore SIGINT, SIGCHLD, SIGHUP).
  private func startServer(_ arguments: [String]) throws {
    let tool = LineEditorTerminal.tmux ?? "/usr/bin/tmux"
    let argv = ([tool, "-L", socket] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    var defaults = sigset_t()
    sigfillset(&defaults)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for descriptor in Int32(0)...2 {
      posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", O_RDWR, 0)
    }
    // Nor any other test's pipes, which would then never reach their end.
    let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    for descriptor in open.compactMap(Int32.init) where descriptor > 2 {
      if fcntl(descriptor, F_GETFD) >= 0 {
        posix_spawn_file_actions_addclose(&actions, descriptor)
      }
    }
    var pid: pid_t = 0
    let status = posix_spawn(&pid, tool, &actions, &attributes, argv, environ)
    guard status == 0 else { throw Failure(description: "cannot start tmux: error \(status)") }
    var exitStatus: Int32 = 0
    while waitpid(pid, &exitStatus, 0) < 0 && errno == EINTR {}
  }

  static func shellQuote(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }
}
