import Foundation
import MemeCore
import MemeMedia
import MemeStore

/// The editor: its undo history, the state it counts as saved (for "unsaved changes") and the
/// draft that keeps both across sessions. Every change to the editor goes through this type,
/// which saves the draft after it; the shell's commands say what to change and print what
/// happened.
///
/// Not `Sendable`: one session belongs to one shell, on the thread that reads its lines.
final class EditorSession {
  /// Where the draft is kept (`<home>/draft`).
  let drafts: DraftStore
  /// Where draft-save warnings go.
  private let console: Console
  /// What a new draft starts as: blank, in the default font or the one `set font` chose.
  private(set) var blank = EditorState.blank
  /// Every state the editor went through, for undo and redo.
  private(set) var history = History(initial: EditorState.blank)
  /// The state at the last share, `new` or `edit`.
  private var cleanState: EditorState = .blank
  /// Whether a failed draft save was reported already (reported once, not after every change).
  private var draftSaveFailed = false

  init(drafts: DraftStore, console: Console) {
    self.drafts = drafts
    self.console = console
  }

  /// The editor's current state.
  var state: EditorState { history.state }

  /// True when the editor differs from its last shared, new or opened state.
  var hasUnsavedChanges: Bool { state != cleanState }

  /// True when nothing was done: one blank step and nothing to undo or redo.
  var isUntouched: Bool { history == History(initial: blank) }

  /// New drafts use `font` from now on; an untouched editor starts over in it (nothing to undo).
  func setDefaultFont(_ font: String) {
    let untouched = isUntouched
    blank = .blank(font: font)
    if untouched {
      history = History(initial: blank)
      cleanState = blank
    }
  }

  // MARK: - Changes

  /// Applies `action`, records it for undo under `label` and saves the draft.
  func apply(_ action: EditorAction, label: String) {
    var next = history.state
    action.apply(to: &next)
    history.record(next, label: label)
    saveDraft()
  }

  /// Takes the current state as saved: what `edit ID` opened, or a new blank draft.
  func markClean() {
    cleanState = state
  }

  /// Steps back; the label of the step undone, or nil when there is nothing to undo.
  func undo() -> String? {
    guard let label = history.undo() else { return nil }
    saveDraft()
    return label
  }

  /// Steps forward again; the label of the step redone, or nil.
  func redo() -> String? {
    guard let label = history.redo() else { return nil }
    saveDraft()
    return label
  }

  /// Starts over with a blank editor and no draft (after share or cancel).
  func reset() {
    history = History(initial: blank)
    cleanState = blank
    do {
      try drafts.clear()
    } catch {
      console.warning("cannot remove the draft: \(error.userMessage)")
    }
  }

  // MARK: - The draft on disk

  /// Saves the history as the draft, in the background: the picture's bytes and the document
  /// are written and synced while the next command runs. A failure is reported once as a
  /// warning (at the next change, share or exit) and never stops the edit.
  func saveDraft() {
    reportDraftSave(drafts.takeBackgroundOutcome(waiting: false))
    let steps = history.steps
    if steps.all.count == 1, steps.all[0].state == blank {
      try? drafts.clear()
      return
    }
    var images: [String: Data] = [:]
    let draftSteps = steps.all.map { step -> DraftStep in
      let state = step.state
      if let picture = state.picture, images[picture.sha256] == nil {
        // A picture restored from the draft and not read yet is in the draft already, unless
        // another memesh removed it meanwhile: then it is read (from the file kept open) and
        // saved again.
        if picture.hasBytes || !drafts.hasImage(sha256: picture.sha256) {
          images[picture.sha256] = try? picture.originalBytes
        }
      }
      return DraftStep(
        label: step.label, recipe: state.recipe, sourcePath: state.picture?.path,
        sourceSHA256: state.picture?.sha256, editingID: state.editingID, date: step.date)
    }
    drafts.saveInBackground(
      DraftDocument(steps: draftSteps, current: steps.current), images: images
    ) { error in
      let line = Display.cell(
        "the draft is not saved: \(error.userMessage)", limit: Console.messageLimit)
      Console.writeAll(2, "warning: \(line)\n")
    }
  }

  /// Waits for the draft saves running in the background and reports how they went (a share,
  /// before it says what it saved).
  func finishDraftSave() {
    reportDraftSave(drafts.takeBackgroundOutcome(waiting: true))
  }

  /// Says once that the draft could not be saved, and again after a save went well.
  private func reportDraftSave(_ outcome: Result<Void, any Error>?) {
    switch outcome {
    case nil: break
    case .success: draftSaveFailed = false
    case .failure(let error):
      if !draftSaveFailed { console.warning("the draft is not saved: \(error.userMessage)") }
      draftSaveFailed = true
    }
  }

  // MARK: - Restoring the draft at start

  /// What restoring the draft at start found.
  enum Restore {
    /// No draft (or an empty one): the editor is blank.
    case none
    /// The draft is back: `current` is the step the editor is at, of `steps`.
    case restored(current: DraftStep, steps: Int)
    /// The draft could not be read (damaged, newer format): the store's error says why.
    case unreadable(any Error)
    /// A picture of the draft could not be opened; the draft was removed and the editor is blank.
    case pictureMissing(any Error)
  }

  /// Restores the saved draft into the editor (which must be untouched).
  func restore(attempt: Int = 1) -> Restore {
    let document: DraftDocument?
    do {
      document = try drafts.load()
    } catch {
      return .unreadable(error)
    }
    guard let document, !document.steps.isEmpty, let current = document.currentStep else {
      return .none
    }
    var pictures: [String: SourcePicture] = [:]
    var states: [History<EditorState>.Step] = []
    for step in document.steps {
      var picture: SourcePicture?
      if let sha = step.sourceSHA256?.lowercased() {
        if let known = pictures[sha] {
          picture = known
        } else {
          do {
            let made = try restoredPicture(sha256: sha, path: step.sourcePath ?? "draft")
            pictures[sha] = made
            picture = made
          } catch {
            // Another memesh may have saved or cleared the draft (and its pictures) since it
            // was read: start over from the draft there is now, and never clear that one.
            if attempt < 3, (try? drafts.load()) != document {
              return restore(attempt: attempt + 1)
            }
            try? drafts.clear(ifStill: document)
            return .pictureMissing(error)
          }
        }
      }
      let state = EditorState(picture: picture, recipe: step.recipe, editingID: step.editingID)
      states.append(History.Step(label: step.label, state: state, date: step.date))
    }
    let index = min(max(0, document.current), states.count - 1)
    history = History(
      past: Array(states[..<index]), present: states[index],
      future: Array(states[(index + 1)...].reversed()))
    return .restored(current: current, steps: states.count)
  }

  /// A restored picture turned out not to decode: the editor starts blank and the draft is
  /// removed, as a draft that cannot be restored is at start.
  func discardUnusableDraft() {
    history = History(initial: blank)
    markClean()
    try? drafts.clear()
  }

  /// A draft's picture, opened now, read and decoded when first needed: starting with a draft of
  /// a 12-MP photo then costs an open and a 16-byte read, not a 4 MB read and a decode. What can
  /// be checked that cheaply is checked here, so such a draft is reported at start: a missing or
  /// unreadable file, and bytes that do not start as a PNG or JPEG (those are read and decoded
  /// now, for the decoder's own message). Damage deeper in the file, or bytes that no longer
  /// match the SHA-256 they are saved under, surface when the pixels are needed, as a
  /// `SourcePicture.DecodeFailure` (the shell then calls `discardUnusableDraft`).
  private func restoredPicture(sha256: String, path: String) throws -> SourcePicture {
    let file = try drafts.openImage(sha256: sha256)
    guard let format = ImageCodec.sniff(file.head) else {
      let bytes = try file.readAll()
      let decoded = try ImageCodec.decode(bytes, name: path)
      return MemeRenderer.sourcePicture(path: path, bytes: bytes, decoded: decoded)
    }
    return SourcePicture(
      path: path, sha256: sha256, format: format, read: { try file.readAll() },
      measure: { ImageCodec.displayedSize(of: $0) },
      decode: { bytes in
        // The same pipeline as an eager restore (proxy and SHA-256 on two cores), so the
        // pixels are the same.
        let decoded = try ImageCodec.decode(bytes, name: path)
        let made = MemeRenderer.sourcePicture(path: path, bytes: bytes, decoded: decoded)
        guard made.sha256 == sha256 else {
          throw ShellError.draftPictureChanged(sha256: sha256)
        }
        return SourcePicture.Pixels(image: try made.image, proxy: try made.proxy)
      })
  }
}

extension Error {
  /// The one-line wording of an error: a `UserFacingError`'s message, else its description.
  var userMessage: String {
    (self as? any UserFacingError)?.message ?? "\(self)"
  }
}
