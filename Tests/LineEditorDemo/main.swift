// A LineEditor with a fixed completer, for LineEditorTests to drive through a pseudo-terminal
// (and for trying the keys by hand): `line-editor-demo HISTORY-FILE|- [PROMPT]`.
// Prints each event as `line: TEXT` (TEXT with Swift escapes), `interrupt` or `end`; the line
// `work` runs a 5-second "command" that reports whether Ctrl-C interrupted it.
import CMemeshEdit
import Foundation
import MemeShell

let words: [CompletionCandidate] =
  ["browse", "bottom", "caption", "cancel", "camera", "grid", "猫.jpg", "猫咪.png", "my\\ photo.jpg"]
  .map { CompletionCandidate(insertion: $0) }
  + [CompletionCandidate(insertion: "folder/", appendSpace: false)]
  + [
    CompletionCandidate(insertion: "3", display: "3  I SEE | WHAT YOU DID"),
    CompletionCandidate(insertion: "30", display: "30  猫 | \u{1B}[31mCAT"),
  ]
  + (1...12).map { CompletionCandidate(insertion: "font-\($0 < 10 ? "0" : "")\($0)") }
  // More than the 100 Tab lists without asking, and taller than the screen.
  + (0..<250).map { CompletionCandidate(insertion: "many-" + String(1000 + $0).dropFirst()) }

let completer: Completer = { before in
  let partial = before.split(separator: " ", omittingEmptySubsequences: false).last ?? ""
  let matches = words.filter { $0.insertion.hasPrefix(partial) }
  return CompletionResult(replacedScalars: partial.unicodeScalars.count, candidates: matches)
}

// A test runner may start this with signals blocked; a shell would not.
var noSignals = sigset_t()
sigemptyset(&noSignals)
sigprocmask(SIG_SETMASK, &noSignals, nil)
// As memesh does: window size changes reach libedit only while it waits for a key.
memesh_edit_hold_resizes()

let arguments = CommandLine.arguments
let historyFile =
  arguments.count > 1 && arguments[1] != "-" ? URL(fileURLWithPath: arguments[1]) : nil
let prompt = arguments.count > 2 ? arguments[2] : "demo> "
guard let editor = LineEditor(historyFile: historyFile, completer: completer) else {
  print("not a terminal")
  exit(2)
}
func show(_ text: String) -> String {
  text.unicodeScalars.map { $0.escaped(asASCII: false) }.joined()
}
loop: while true {
  switch editor.read(prompt: prompt) {
  case .line(let line):
    print("line: \(show(line))")
    editor.remember(line)
    if line == "work" {
      var interrupted = false
      for _ in 0..<50 where !interrupted {
        usleep(100_000)
        interrupted = LineEditor.interrupted
      }
      print(interrupted ? "work: interrupted" : "work: done")
    }
  case .interrupt:
    print("interrupt")
  case .end:
    print("end")
    break loop
  }
}
editor.close()
editor.close()
