import Foundation
import MemeCore
import MemeMedia
import MemeStore

extension Shell {
  // MARK: - Pictures

  /// `new`: a blank draft.
  func newDraft() {
    apply(.newDraft(font: editor.blank.recipe.font), label: "new")
    editor.markClean()
    console.line("new draft: top TOP, bottom BOTTOM (placeholders until you type captions)")
  }

  /// `load PATH`: decodes the picture and puts it in the editor. A file memesh wrote says so and,
  /// when its original is in the store, reopens that meme for editing.
  func load(path: String) throws {
    // A loaded picture gets captioned: the text libraries are opened beside the read, on the
    // core it leaves idle.
    CaptionRenderer.prepare()
    // A JPEG memesh can splice is indexed, not decoded (MemeRenderer+Splice); anything else is
    // decoded with its SHA-256 and preview proxy at once on two cores (MemeRenderer+Loading).
    let (picture, decoded) =
      path == StandardStreams.name
      ? try MemeRenderer.loadForEditing(
        bytes: readStandardInput(for: "load"), name: StandardStreams.inputName)
      : try MemeRenderer.loadForEditing(path: OutputFile.expanded(path), displayPath: path)
    // An animation over the limits is refused before the editor changes.
    let animation = try Animations.info(of: picture)
    try checkInterrupt("load", "the editor is unchanged")
    for warning in decoded.warnings { console.warning(warning) }
    switch decoded.recipe {
    case .recipe(let embedded)?:
      let recipe = embedded.recipe
      let captions =
        "top \"\(Display.cell(recipe.top, limit: 40))\", "
        + "bottom \"\(Display.cell(recipe.bottom, limit: 40))\""
      let made = (try? store.memes(withOriginalSHA256: embedded.originalSHA256)) ?? []
      let usable = made.filter { store.problem(of: $0, needing: [\.originalFile]) == nil }
      // The meme this picture is, as it is now, reopens for editing. A picture of an older
      // version or a 'preview --out' (same original, another recipe) starts a new draft on the
      // original: reopening a meme it is not would let 'share' overwrite that meme.
      let same = usable.last { $0.recipe == recipe }
      if let meme = same ?? usable.last {
        console.line("\(Display.quoted(path)) was made by memesh (\(captions))")
        try edit(id: meme.id, recipe: recipe, asNewDraft: same == nil)
        return
      }
      console.note(
        "\(Display.quoted(path)) was made by memesh (\(captions)) but its original is not in the "
          + "store; captioning the captioned picture")
    case .newer(let version)?:
      console.note(
        "\(Display.quoted(path)) was made by a newer memesh (recipe version \(version); this one "
          + "reads up to \(EmbeddedRecipe.currentVersion)); loading it as a plain picture")
    case nil:
      break
    }
    let wasEditing = state.editingID
    apply(.load(picture), label: "load \(picture.displayName)")
    let turned =
      decoded.orientation == 1 ? "" : " (turned upright: EXIF orientation \(decoded.orientation))"
    let size = try picture.size
    let moving = animation.map { ", " + Animations.summary($0) } ?? ""
    console.line(
      "\(picture.displayName): \(size.width)×\(size.height) \(picture.format.name)\(turned)\(moving)")
    // 'edit' promised that share updates the meme; another picture ends that, so say so.
    if let id = wasEditing, state.editingID == nil {
      console.line("no longer editing meme \(id): 'share' saves a new meme ('undo' goes back)")
    }
  }

  // MARK: - Captions and font

  /// `top TEXT` / `bottom TEXT`.
  func setCaption(top: Bool, _ arguments: Arguments) throws {
    let which = top ? "top" : "bottom"
    guard !arguments.isEmpty else {
      let current = top ? state.recipe.top : state.recipe.bottom
      console.line(
        current.isEmpty
          ? "\(which): \(top ? EditorState.topPlaceholder : EditorState.bottomPlaceholder) "
            + "(placeholder; '\(which) TEXT' sets it, '\(which) \"\"' clears it)"
          : "\(which): \(current)")
      return
    }
    let text = limitedCaption(arguments.text, which)
    if top {
      apply(.setTop(text), label: "top \"\(Display.cell(text, limit: 40))\"")
    } else {
      apply(.setBottom(text), label: "bottom \"\(Display.cell(text, limit: 40))\"")
    }
    warnAboutLength(text)
  }

  /// `caption TOP | BOTTOM`.
  func setCaptions(_ arguments: Arguments) throws {
    let tokens = arguments.tokens
    var top: [String] = []
    var bottom: [String] = []
    var found = false
    for token in tokens {
      if !found, !token.isLiteral, token.text == "|" {
        found = true
      } else if !found, !token.isLiteral, let bar = token.text.firstIndex(of: "|") {
        found = true
        let before = String(token.text[..<bar])
        let after = String(token.text[token.text.index(after: bar)...])
        if !before.isEmpty { top.append(before) }
        if !after.isEmpty { bottom.append(after) }
      } else if found {
        bottom.append(token.text)
      } else {
        top.append(token.text)
      }
    }
    guard found else {
      throw arguments.usageError("separate the top and bottom captions with '|'")
    }
    let topText = limitedCaption(top.joined(separator: " "), "top")
    let bottomText = limitedCaption(bottom.joined(separator: " "), "bottom")
    apply(
      .setCaptions(top: topText, bottom: bottomText),
      label:
        "caption \"\(Display.cell(topText, limit: 30))\" | \"\(Display.cell(bottomText, limit: 30))\""
    )
    warnAboutLength(topText + bottomText)
  }

  /// Longer captions are cut here: at the minimum font size three lines hold far fewer
  /// characters, and the renderer stays fast.
  static let maximumCaptionCharacters = 10_000

  /// `text`, cut to `maximumCaptionCharacters` with a warning.
  func limitedCaption(_ text: String, _ which: String) -> String {
    guard text.count > Self.maximumCaptionCharacters else { return text }
    console.warning(
      "the \(which) caption has \(text.count) characters; kept the first "
        + "\(Self.maximumCaptionCharacters)")
    return String(text.prefix(Self.maximumCaptionCharacters))
  }

  func warnAboutLength(_ text: String) {
    if text.count > 500 {
      console.warning(
        "a \(text.count)-character caption is drawn small and may be cut with '…'")
    }
  }

  /// `font [NAME]`.
  func font(_ arguments: Arguments) throws {
    guard !arguments.isEmpty else {
      console.line("font: \(state.recipe.font)")
      return
    }
    let info = try catalog.resolve(arguments.text)
    apply(.setFont(info.name), label: "font \(info.name)")
    console.line("font: \(info.name)")
  }

  /// `fonts`: every font with a sample line (drawn in a terminal, named otherwise).
  func listFonts(_ arguments: Arguments) throws {
    let parsed = try arguments.options(switches: ["--installed"])
    guard parsed.positional.isEmpty else { throw arguments.usageError() }
    let installed = parsed.switches.contains("--installed")
    let fonts = installed ? FontCatalog.installedFonts() : catalog.fonts()
    guard !fonts.isEmpty else {
      throw installed ? ShellError.noInstalledFonts : ShellError.noFonts
    }
    let width = fonts.map { Display.escaped($0.name).count }.max() ?? 0
    let renderer = CaptionRenderer(catalog: catalog)
    // The current font however it was named (`anton`, a file name, a path): by its file.
    func file(_ path: String) -> String {
      URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }
    let current = (try? catalog.resolve(state.recipe.font)).map { file($0.path) }
    for font in fonts {
      try checkInterrupt("fonts")
      let marker = file(font.path) == current ? "*" : " "
      let name = Display.escaped(font.name)
      let padded = name + String(repeating: " ", count: max(0, width - name.count))
      if let problem = font.problem {
        // A file in the fonts folder that cannot be drawn with: listed, so it is not a mystery.
        console.line("  \(padded)  \(font.origin.rawValue), unreadable: \(problem)")
        continue
      }
      console.line("\(marker) \(padded)  \(font.origin.rawValue)")
      if settings.previewMode != .none, let sample = try? renderer.sample(font: font.name) {
        let columns = min(60, drawingWindow?.cells.columns ?? 80)
        console.picture(
          TerminalPreview.render(
            sample, mode: settings.previewMode, columns: columns, rows: 4,
            environment: environment))
      }
    }
    console.line("sample: \(FontInfo.sampleText); 'font NAME' picks one, * marks the current font")
  }

  // MARK: - Crop

  /// `crop X Y W H`, `crop W:H`, `crop off`.
  func crop(_ arguments: Arguments) throws {
    guard !arguments.isEmpty else {
      console.line("crop: \(state.recipe.crop)")
      return
    }
    let crop = try Crop(words: arguments.words)
    if let picture = state.picture {
      let size = try picture.size
      let rect = try crop.resolved(in: size)
      apply(.setCrop(crop), label: "crop \(crop)")
      if crop == .off {
        console.line("crop: off (\(size.width)×\(size.height))")
      } else {
        console.line("crop: \(crop) (\(rect.width)×\(rect.height) at \(rect.x),\(rect.y))")
      }
    } else {
      apply(.setCrop(crop), label: "crop \(crop)")
      console.line("crop: \(crop)")
    }
  }

  // MARK: - Undo

  /// `undo`: the last thing done, whatever the view and whichever run did it — the editor's
  /// last change (`new` and `cancel` included), the last delete or the last `template rm`, by
  /// when each was made. An editor step saved before changes carried their time comes first in
  /// the editor and after a delete elsewhere, as before; a template removed by a memesh that
  /// kept no time comes last.
  func undo() throws {
    let step = editor.history.canUndo ? editor.history.present : nil
    let deletion = try store.lastDeletion()
    let removal = templateStore.removals().last
    // In order of precedence when two were made at the same moment.
    let candidates: [(kind: UndoKind, date: Date)] = [
      step.map { (.editorChange, $0.date ?? (view == .editor ? .distantFuture : .distantPast)) },
      deletion.map { (.delete, $0.deleted) },
      removal.map { (.templateRemoval, $0.date ?? .distantPast) },
    ].compactMap { $0 }
    guard let newest = candidates.max(by: { $0.date < $1.date })?.date,
      let kind = candidates.first(where: { $0.date == newest })?.kind
    else { throw ShellError.nothingToUndo(inSentMemes: view != .editor) }
    switch kind {
    case .templateRemoval:
      try undoTemplateRemoval()
    case .delete:
      guard let meme = try store.undoDelete() else {
        throw ShellError.nothingToUndo(inSentMemes: true)
      }
      if view == .editor { view = .sent }
      console.line("restored meme \(meme.id)")
      // Its files may have gone from the trash meanwhile: the record alone came back.
      if let problem = meme.problem { console.warning("meme \(meme.id): \(problem)") }
    case .editorChange:
      guard let label = editor.undo() else { throw ShellError.nothingToUndo(inSentMemes: false) }
      view = .editor
      console.line("undid \(label)")
    }
  }

  /// What `undo` can undo.
  private enum UndoKind { case editorChange, delete, templateRemoval }

  /// `redo`.
  func redo() throws {
    guard let label = editor.redo() else { throw ShellError.nothingToRedo }
    view = .editor
    console.line("redid \(label)")
  }

  /// `history`: the editor's steps, the current one marked, with the deletes and template
  /// removals `undo` can still bring back placed among them by time (`-`).
  func listHistory() throws {
    let (steps, current) = editor.history.steps
    var others: [(date: Date, label: String)] =
      try store.deletions().map { ($0.deleted, "delete meme \($0.meme.id) (in the sent memes)") }
      + templateStore.removals().map {
        ($0.date ?? .distantPast, "template rm \($0.name) (in the templates)")
      }
    others.sort { $0.date < $1.date }
    // Those older than the editor's first timed step came before this draft: the last only.
    if let first = steps.lazy.compactMap(\.date).first {
      let older = others.filter { $0.date < first }
      others = Array(older.suffix(1)) + others.filter { $0.date >= first }
    }
    func listOthers(before date: Date?) {
      while let next = others.first, date.map({ next.date < $0 }) ?? true {
        others.removeFirst()
        console.line("  -  \(next.label)")
      }
    }
    for (index, step) in steps.enumerated() {
      if let date = step.date { listOthers(before: date) }
      let marker = index == current ? "*" : " "
      let undone = index > current ? " (undone)" : ""
      console.line("\(marker) \(index + 1)  \(step.label)\(undone)")
    }
    listOthers(before: nil)
  }

  // MARK: - Info

  /// `info`: the editor state as stable `key: value` lines for scripts; `box N:` lines follow
  /// when the boxes are not MemeMe's two captions (`boxInfoLines`).
  func info() throws {
    let picture = state.picture
    let size = try picture?.size
    let lines: [(String, String)] = [
      ("image", picture?.path ?? ""),
      ("width", size.map { String($0.width) } ?? ""),
      ("height", size.map { String($0.height) } ?? ""),
      ("format", picture?.format.rawValue ?? ""),
      ("top", state.recipe.top),
      ("bottom", state.recipe.bottom),
      ("font", state.recipe.font),
      ("crop", state.recipe.crop.description),
      ("unsaved changes", editor.hasUnsavedChanges ? "yes" : "no"),
      ("editing", state.editingID.map(String.init) ?? ""),
    ] + (try Animations.infoLines(picture)) + boxInfoLines()
    for (key, value) in lines {
      console.line(value.isEmpty ? "\(key):" : "\(key): \(value)")
    }
  }

  // MARK: - Preview

  /// `preview [--explain] [--out FILE]`.
  func preview(_ arguments: Arguments) throws {
    let parsed = try arguments.options(
      switches: ["--explain", "--force"], values: ["--out", "--frame"])
    guard parsed.positional.isEmpty else {
      throw arguments.usageError("unexpected '\(parsed.positional[0])'")
    }
    let picture = try requirePicture(for: "preview")
    let frame = try parsed.values["--frame"].map { word -> Int in
      guard let number = Int(word), number >= 1 else {
        throw arguments.usageError("--frame takes a frame number from 1, not '\(word)'")
      }
      return number
    }
    if let out = parsed.values["--out"] {
      let toStandardOutput = out == StandardStreams.name
      let path =
        toStandardOutput ? out : OutputFile.destination(out, defaultName: "preview.png")
      try OutputFile.refuseUnwritableFormat(path, command: "preview", fix: "name it .png or .jpg")
      if toStandardOutput {
        try claimStandardOutput(for: "preview")
      } else {
        try checkOverwrite(
          path, command: "preview", force: parsed.switches.contains("--force"))
      }
      let format = OutputFile.format(ofPath: path) ?? .png
      let rendered = try MemeRendering.render(
        state, picture: picture, format: format, catalog: catalog)
      try checkInterrupt("preview", "nothing was written")
      view = .editor
      for warning in rendered.report.warnings { console.warning(warning) }
      let size = "\(rendered.size.width)×\(rendered.size.height)"
      if toStandardOutput {
        console.pictureFile(rendered.data)
        console.line("wrote the preview to \(StandardStreams.outputName) (\(size))")
      } else {
        try OutputFile.write(rendered.data, to: path, command: "preview")
        console.line("wrote \(path) (\(size))")
      }
      if parsed.switches.contains("--explain") { console.block(rendered.report.explanation) }
      return
    }
    // An animation plays (Shell+Animation.swift); outside a terminal the text below says so.
    let animation = try Animations.info(of: picture)
    if let frame {
      guard let count = animation?.frameCount else {
        throw ShellError.frameOfStill(name: picture.displayName)
      }
      guard frame <= count else {
        throw ShellError.noSuchFrame(frame, count: count)
      }
    }
    if animation != nil, !parsed.switches.contains("--explain"),
      try playAnimation(
        try picture.originalBytes, name: picture.path, recipe: state.recipe, frame: frame)
    {
      view = .editor
      return
    }
    let (image, report) = try MemeRendering.preview(
      state, picture: picture, catalog: catalog, fullSizeReport: true)
    try checkInterrupt("preview", "nothing was shown")
    if settings.previewMode != .none, let window = drawingWindow {
      let picture = TerminalPreview.draw(
        image, mode: settings.previewMode,
        colorDepth: TerminalCapabilities.detect(environment: environment).colorDepth,
        maxColumns: window.cells.columns, maxRows: max(4, window.cells.rows - 4),
        environment: environment, cellPixelSize: window.cellPixelSize)
      try checkInterrupt("preview", "nothing was shown")
      view = .editor
      for warning in report.warnings { console.warning(warning) }
      console.picture(picture.text)
      // Only the placeholders drawn as such are named, each line within 80 columns.
      switch (state.recipe.top.isEmpty, state.recipe.bottom.isEmpty) {
      case (true, true):
        console.line(
          "(placeholders TOP and BOTTOM are not drawn; 'top TEXT', 'bottom TEXT' set them)")
      case (true, false):
        console.line("(the placeholder TOP is not drawn; 'top TEXT' sets the top caption)")
      case (false, true):
        console.line("(the placeholder BOTTOM is not drawn; 'bottom TEXT' sets the bottom caption)")
      case (false, false):
        break
      }
    } else {
      view = .editor
      for warning in report.warnings { console.warning(warning) }
      let rect = try state.recipe.crop.resolved(in: try picture.size)
      console.line(
        "preview: \(picture.displayName) \(rect.width)×\(rect.height), font \(state.recipe.font)"
          + (state.recipe.crop == .off ? "" : ", crop \(state.recipe.crop)"))
      console.line("top: " + captionOrPlaceholder(state.recipe.top, EditorState.topPlaceholder))
      console.line(
        "bottom: " + captionOrPlaceholder(state.recipe.bottom, EditorState.bottomPlaceholder))
      if let animation { console.line("animation: " + Animations.summary(animation)) }
      if !parsed.switches.contains("--explain") {
        console.line("(\(noPicturesReason); 'preview --out FILE' writes the picture)")
      }
    }
    if parsed.switches.contains("--explain") { console.block(report.explanation) }
  }

  func captionOrPlaceholder(_ text: String, _ placeholder: String) -> String {
    text.isEmpty ? "\(placeholder) (placeholder, not drawn)" : text
  }

  // MARK: - Cancel

  /// `cancel`: drops the draft (one undo step: `undo` brings it back) and shows the sent memes.
  func cancel() {
    let had = state != editor.blank
    if had {
      apply(.newDraft(font: editor.blank.recipe.font), label: "cancel")
      editor.markClean()
    }
    view = .sent
    console.line(had ? "draft discarded ('undo' brings it back)" : "nothing to discard")
    if settings.interactive { showSentMemes() }
  }

  // MARK: - Camera

  /// Why `camera` cannot run, or nil when a device and a capture tool exist.
  func cameraUnavailableReason() -> String? {
    if case .failure(let reason) = cameraSetup() { return reason.text }
    return nil
  }

  /// Why there is no camera to use: what is missing, in words that say how to fix it.
  struct CameraProblem: Error {
    var text: String
  }

  /// The video device and capture tool, when both exist.
  func cameraSetup() -> Result<(device: String, tool: String), CameraProblem> {
    let device: String
    if let configured = environment["MEMESH_CAMERA"], !configured.isEmpty {
      guard FileManager.default.fileExists(atPath: configured) else {
        return .failure(
          CameraProblem(text: "no camera: MEMESH_CAMERA names '\(configured)', which does not exist"))
      }
      device = configured
    } else {
      let names = (try? FileManager.default.contentsOfDirectory(atPath: "/dev")) ?? []
      guard let found = names.filter({ $0.hasPrefix("video") }).sorted().first else {
        return .failure(
          CameraProblem(text: "no camera: no video device in /dev (set MEMESH_CAMERA to one)"))
      }
      device = "/dev/" + found
    }
    for tool in ["ffmpeg", "fswebcam"] {
      if let path = ExternalTool.find(tool, environment: environment) {
        return .success((device, path))
      }
    }
    return .failure(
      CameraProblem(text: "no camera tool: \(device) needs ffmpeg or fswebcam on the PATH"))
  }

  /// `camera`: captures one still with ffmpeg or fswebcam and loads it.
  func camera() throws {
    let (device, tool) = try cameraSetup().mapError { ShellError.noCamera(reason: $0.text) }.get()
    let folder = home.appendingPathComponent("captures")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let stamp = Int(Date().timeIntervalSince1970 * 1000)
    let path = folder.appendingPathComponent("camera-\(stamp).jpg").path
    let arguments =
      tool.hasSuffix("fswebcam")
      ? ["-q", "-d", device, "--no-banner", "-r", "1280x720", path]
      : ["-loglevel", "error", "-y", "-f", "video4linux2", "-i", device, "-frames:v", "1", path]
    try ExternalTool.run(tool, arguments: arguments, input: nil, what: "camera")
    try load(path: path)
  }
}
