import Foundation
import MemeCore
import MemeMedia
import MemeStore
import MemeSystem

extension Shell {
  /// Where `share` hands the meme after saving it.
  enum ShareTarget: Equatable {
    case storeOnly
    case file(String)
    /// `file -`: the picture's bytes on stdout, every message on stderr.
    case standardOutput
    case clipboard
    case open
  }

  /// `share [file PATH | clipboard | open] [--format png|jpeg|webp|gif] [--lossless] [--force]`:
  /// saves the meme to the store (updating it in place when editing a sent meme), then hands it
  /// to the target. A missing tool is an error after the save. The sent memes show afterwards.
  func share(_ arguments: Arguments) throws {
    let parsed = try arguments.options(
      switches: ["--lossless", "--force"], values: ["--format"])
    var requested: ImageFormat?
    if let name = parsed.values["--format"] {
      guard let format = ImageFormat(userInput: name) else {
        throw ShellError.notAFormat(command: "share", name: name, choices: "png, jpeg, webp or gif")
      }
      requested = format
    }
    let words = parsed.positional
    let target: ShareTarget
    switch words.first?.lowercased() {
    case nil: target = .storeOnly
    case "file":
      guard words.count == 2 else { throw arguments.usageError("'file' needs one PATH") }
      target = words[1] == StandardStreams.name ? .standardOutput : .file(words[1])
    case "clipboard" where words.count == 1: target = .clipboard
    case "open" where words.count == 1: target = .open
    default:
      let hint = Suggestions.nearest(to: words[0], among: ["file", "clipboard", "open"])
      throw ShellError.unknownChoice(
        command: "share", kind: "target", word: words[0], suggestion: hint,
        choices: "file PATH, clipboard or open")
    }
    let picture = try requirePicture(for: "share")
    var destination: String?
    if case .file(let path) = target {
      destination = OutputFile.destination(
        path,
        defaultName:
          "meme.\((requested ?? defaultFormat ?? Animations.shareFormat(of: picture)).fileExtension)")
    }
    let format =
      requested ?? destination.flatMap { OutputFile.format(ofPath: $0) } ?? defaultFormat
      ?? Animations.shareFormat(of: picture)
    // `set format png` (or jpeg) chose a still format the user did not name here: an animation
    // would lose its frames without a word.
    var typedPath: String?
    if case .file(let path) = target { typedPath = path }
    if requested == nil, typedPath.flatMap({ OutputFile.format(ofPath: $0) }) == nil,
      let chosen = defaultFormat, chosen == format, chosen != .gif, chosen != .webp,
      let animation = try Animations.info(of: picture)
    {
      console.note(
        "'set format \(chosen.name.lowercased())' shares the first of the animation's "
          + "\(animation.frameCount) frames, still; --format gif or webp keeps it moving")
    }
    let lossless = parsed.switches.contains("--lossless")
    if lossless, format != .webp {
      throw ShellError.losslessNeedsWebP(format: format)
    }
    if let destination {
      if requested == nil {
        try OutputFile.refuseUnwritableFormat(
          destination, command: "share", fix: "name it .png or .jpg, or add --format png")
      }
      try checkWritable(destination)
      try checkOverwrite(destination, command: "share", force: parsed.switches.contains("--force"))
    }
    if target == .standardOutput { try claimStandardOutput(for: "share") }

    // A new meme is added while it is rendered (`MemeStore.add(_:arriving:)`): the store takes
    // its lock, tidies and readies the meme's folder and original now, and writes the meme's
    // bytes, like the output file, as soon as they exist (before the thumbnail is made). A
    // render that fails or is interrupted abandons the add, which leaves the store as it was.
    let parts = ArrivingMeme()
    let adding = state.editingID == nil ? startAdding(picture, format: format, parts) : nil
    let output = OutputFileStart(destination)
    let rendered: RenderedMeme
    do {
      rendered = try MemeRendering.render(
        state, picture: picture, format: format, lossless: lossless, catalog: catalog,
        whenEncoded: { data, size in
          parts.deliver(encoded: data, width: size.width, height: size.height)
          output.start(data)
        })
      try checkInterrupt("share", "nothing was saved")
    } catch {
      parts.abandon()
      _ = try? adding?.result()
      output.discard()
      throw error
    }
    parts.deliver(
      encoded: rendered.data, width: rendered.size.width, height: rendered.size.height)
    parts.deliver(thumbnail: rendered.thumbnail)
    // The file is written while the store saves, and renamed into place only after the save.
    let pending = output.start(rendered.data)
    let saved: (meme: Meme, summary: String)
    do {
      if let adding {
        let meme = try adding.result()
        saved = (meme, "saved meme \(meme.id)")
      } else {
        saved = try saveToStore(
          NewMeme(
            recipe: state.recipe, format: format,
            width: rendered.size.width, height: rendered.size.height,
            sourceName: picture.displayName, originalSHA256: picture.sha256,
            original: try picture.originalBytes, rendered: rendered.data,
            thumbnail: rendered.thumbnail,
            originalFile: editor.drafts.savedImagePath(sha256: picture.sha256)))
      }
    } catch {
      // The output file goes before anything is said: a failed write to stderr ends memesh at
      // once (Console.writeAll), and must not leave the file's temporary behind.
      pending?.discard()
      for warning in rendered.report.warnings { console.warning(warning) }
      editor.finishDraftSave()
      // The meme can still leave memesh, unsaved, until the store is repaired.
      if case StoreError.readOnly = error, case .file = target {
        throw ShellError.shareNotSaved(reason: describe(error))
      }
      throw error
    }
    let meme = saved.meme
    // The file goes into place (its folder flushed) on a thread while the draft is cleared
    // (its folder flushed too): the two flushes share a journal commit. The render's warnings
    // and the draft's are said once the file is settled, as the summary is.
    let moving = pending.map { pending in Concurrently { try pending.finish() } }
    editor.reset()
    view = .sent
    // Said once the output file is settled: a failed write to stdout or stderr ends memesh at
    // once (Console.writeAll), and must not leave the file's temporary behind.
    let finishing = moving.map { moving in Result { try moving.result() } }
    for warning in rendered.report.warnings { console.warning(warning) }
    editor.finishDraftSave()
    console.line(saved.summary)

    switch target {
    case .storeOnly:
      break
    case .standardOutput:
      console.pictureFile(rendered.data)
      console.line("wrote the meme to \(StandardStreams.outputName)")
    case .file:
      guard let pending, let finishing else { break }
      do {
        try finishing.get()
      } catch ShellError.cannotWrite(_, let path, let reason) {
        throw ShellError.sharedBut(id: meme.id, problem: .write(path: path, reason: reason))
      } catch {
        throw ShellError.sharedBut(
          id: meme.id, problem: .write(path: pending.path, reason: describe(error)))
      }
      console.line("wrote \(pending.path)")
    case .clipboard:
      try copyToClipboard(rendered.data, format: format, id: meme.id)
      console.line("copied meme \(meme.id) to the clipboard")
    case .open:
      try openInViewer(store.url(for: meme.memeFile).path, id: meme.id)
      console.line("opened meme \(meme.id)")
    }
    // MemeMe shows the sent memes after a share; scripts and transcripts ask with 'browse'.
    if settings.interactive { showSentMemes() }
  }

  /// Starts adding the picture's meme to the store on a thread of its own, its rendered parts
  /// to come (`parts`). The draft saves the picture's bytes in the background on 'load'; the
  /// store links that file as the meme's original (it checks the bytes, and writes them when it
  /// cannot link). Only the picture is waited for (`savedImagePath`): the draft document the
  /// save writes after it is discarded by this share, so its writes overlap the store's.
  private func startAdding(
    _ picture: SourcePicture, format: ImageFormat, _ parts: ArrivingMeme
  ) -> Concurrently<Meme, any Error> {
    let (store, drafts, recipe) = (store, editor.drafts, state.recipe)
    let original = Result { try picture.originalBytes }
    let (name, sha256) = (picture.displayName, picture.sha256)
    return Concurrently {
      try store.add(
        UnrenderedMeme(
          recipe: recipe, format: format, sourceName: name, originalSHA256: sha256,
          original: try original.get(), originalFile: drafts.savedImagePath(sha256: sha256)),
        arriving: parts)
    }
  }

  /// Adds the meme to the store, or updates the sent meme being edited, and the line that
  /// says which.
  private func saveToStore(_ newMeme: NewMeme) throws -> (meme: Meme, summary: String) {
    guard let id = state.editingID else {
      let meme = try store.add(newMeme)
      return (meme, "saved meme \(meme.id)")
    }
    do {
      let meme = try store.update(id: id, with: newMeme)
      return (meme, "updated meme \(meme.id)")
    } catch StoreError.noMeme {
      let meme = try store.add(newMeme)
      return (meme, "saved meme \(meme.id) (meme \(id) was deleted meanwhile)")
    }
  }

  /// Refuses before rendering what the write would refuse after (no name, a device, a folder
  /// missing or not writable), so a share that cannot write its file saves nothing either.
  private func checkWritable(_ path: String) throws {
    if let refusal = OutputFile.refusal(of: path) {
      throw ShellError.cannotWrite(command: "share", path: path, reason: refusal)
    }
    let folder = PathName(path).folder
    var status = stat()
    if !folder.isEmpty, stat(FileSystemName.cString(folder), &status) != 0 {
      throw ShellError.cannotWrite(
        command: "share", path: path, reason: "no such folder '\(folder)'")
    }
    if !folder.isEmpty, status.st_mode & S_IFMT != S_IFDIR {
      throw ShellError.cannotWrite(
        command: "share", path: path, reason: "'\(folder)' is not a folder")
    }
    if access(FileSystemName.cString(folder.isEmpty ? "." : folder), W_OK) != 0 {
      throw ShellError.cannotWrite(
        command: "share", path: path, reason: SystemError.reason(errno, creating: true))
    }
  }

  /// wl-copy under Wayland, else xclip under X11.
  private func copyToClipboard(_ data: Data, format: ImageFormat, id: Int) throws {
    let mime = format.mimeType
    let wayland = !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty
    let x11 = !(environment["DISPLAY"] ?? "").isEmpty
    guard wayland || x11 else {
      throw ShellError.sharedBut(id: id, problem: .noClipboard)
    }
    if wayland, let tool = ExternalTool.find("wl-copy", environment: environment) {
      try ExternalTool.run(tool, arguments: ["--type", mime], input: data, what: "share clipboard")
      return
    }
    if x11, let tool = ExternalTool.find("xclip", environment: environment) {
      try ExternalTool.run(
        tool, arguments: ["-selection", "clipboard", "-t", mime], input: data,
        what: "share clipboard")
      return
    }
    throw ShellError.sharedBut(id: id, problem: .noClipboardTool)
  }

  /// xdg-open on the stored meme.
  private func openInViewer(_ path: String, id: Int) throws {
    guard !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty || !(environment["DISPLAY"] ?? "").isEmpty
    else {
      throw ShellError.sharedBut(id: id, problem: .noDisplay)
    }
    guard let tool = ExternalTool.find("xdg-open", environment: environment) else {
      throw ShellError.sharedBut(id: id, problem: .noOpener)
    }
    try ExternalTool.run(tool, arguments: [path], input: nil, what: "share open")
  }
}
