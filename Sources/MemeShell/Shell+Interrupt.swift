import MemeCore

// MARK: - Ctrl-C while a command runs

extension Shell {
  /// Throws `COMMAND: interrupted; CONSEQUENCE` (or just `COMMAND: interrupted`) when the user
  /// pressed Ctrl-C since the command started (the line editor's flag; never in scripts, where
  /// Ctrl-C ends memesh).
  ///
  /// Long commands call it between their steps, before they change anything: a command stopped
  /// here has changed nothing (the editor, the view, the store and files are as they were), so
  /// the message says what stayed as it was. The step running when Ctrl-C came finishes first —
  /// decoding a 12-MP photo takes about 0.1 s.
  func checkInterrupt(_ command: String, _ consequence: String? = nil) throws {
    guard interruptRequested() else { return }
    // The terminal echoed ^C where the cursor was: the message starts on a line of its own.
    console.endEchoedInterrupt()
    throw ShellError.interrupted(command: command, consequence: consequence)
  }
}
