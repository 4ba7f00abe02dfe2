import CMemeshEdit

// MARK: - Ctrl-C while a command runs

extension LineEditor {
  /// Whether the user pressed Ctrl-C while a command was running.
  ///
  /// While a line is being typed Ctrl-C is an ordinary key: `read(prompt:)` drops the line and
  /// returns `.interrupt`. Between reads, while the shell runs a command, the terminal turns
  /// Ctrl-C into SIGINT. From `init` until `close()` a `LineEditor` catches that signal so
  /// memesh does not die; the handler only sets this flag (child processes such as ffmpeg or
  /// xdg-open still get the signal and stop). A long command polls it between steps and stops
  /// early, for example:
  ///
  ///     for meme in memes {
  ///       if LineEditor.interrupted { print("interrupted"); break }
  ///       render(meme)
  ///     }
  ///
  /// `read(prompt:)` clears it, so a Ctrl-C never leaks into the next command; set it to
  /// `false` to clear it yourself. Slow system calls are restarted (SA_RESTART), not failed.
  public static var interrupted: Bool {
    get { memesh_interrupt_pending() != 0 }
    set { memesh_interrupt_set(newValue ? 1 : 0) }
  }
}
