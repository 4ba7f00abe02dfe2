import Foundation
import MemeCore
import MemeMedia
import MemeStore

extension Shell {
  // MARK: - Saving the draft after every change

  /// Saves the editor's history as the draft (MemeStore's DraftStore), in the background: the
  /// picture's bytes and the document are written and synced while the next command runs. A
  /// failure is reported once as a warning (at the next change, share or exit) and never stops
  /// the edit.
  func saveDraft() {
    reportDraftSave(drafts.takeBackgroundOutcome(waiting: false))
    let steps = history.steps
    if steps.all.count == 1, steps.all[0].state == .blank {
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
        label: step.label, top: state.top, bottom: state.bottom, font: state.font,
        crop: state.crop, sourcePath: state.picture?.path, sourceSHA256: state.picture?.sha256,
        editingID: state.editingID)
    }
    drafts.saveInBackground(
      DraftDocument(steps: draftSteps, current: steps.current), images: images
    ) { error in
      let reason = (error as? any UserFacingError)?.message ?? "\(error)"
      let line = Display.cell("the draft is not saved: \(reason)", limit: Console.messageLimit)
      Console.writeAll(2, "warning: \(line)\n")
    }
  }

  /// Says once that the draft could not be saved, and again after a save went well.
  func reportDraftSave(_ outcome: Result<Void, any Error>?) {
    switch outcome {
    case nil: break
    case .success: draftSaveFailed = false
    case .failure(let error):
      if !draftSaveFailed { console.warning("the draft is not saved: \(describe(error))") }
      draftSaveFailed = true
    }
  }

  // MARK: - Restoring it at start

  /// Restores a saved draft with a one-line notice; false when there was none (or it could not
  /// be used, which is reported too).
  func restoreDraft(attempt: Int = 1) -> Bool {
    let document: DraftDocument?
    do {
      document = try drafts.load()
    } catch {
      startWarning(describe(error))
      return false
    }
    guard let document, !document.steps.isEmpty, let current = document.currentStep else {
      return false
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
              return restoreDraft(attempt: attempt + 1)
            }
            startWarning("cannot restore the draft: \(describe(error)); starting blank")
            try? drafts.clear(ifStill: document)
            return false
          }
        }
      }
      let state = EditorState(
        picture: picture, top: step.top, bottom: step.bottom, font: step.font, crop: step.crop,
        editingID: step.editingID)
      states.append(History.Step(label: step.label, state: state))
    }
    let index = min(max(0, document.current), states.count - 1)
    history = History(
      past: Array(states[..<index]), present: states[index],
      future: Array(states[(index + 1)...].reversed()))
    cleanState = .blank
    var what: [String] = []
    if let path = current.sourcePath { what.append(Display.quoted(path)) }
    if !current.top.isEmpty { what.append("top \"\(Display.cell(current.top, limit: 30))\"") }
    if !current.bottom.isEmpty {
      what.append("bottom \"\(Display.cell(current.bottom, limit: 30))\"")
    }
    if let id = current.editingID { what.append("editing meme \(id)") }
    let summary = what.isEmpty ? "" : " (" + what.joined(separator: ", ") + ")"
    // Scripts and pipes see only what their commands print; a person at a terminal is told,
    // under the banner.
    if settings.interactive {
      let note =
        "restored the draft\(summary) with \(states.count) undo steps; 'new' starts a blank one"
      startMessages.append((isWarning: false, text: note))
    }
    return true
  }

  /// A draft's picture, opened now, read and decoded when first needed: starting with a draft of
  /// a 12-MP photo then costs an open and a 16-byte read, not a 4 MB read and a decode. What can
  /// be checked that cheaply is checked here, so such a draft is reported at start as before: a
  /// missing or unreadable file, and bytes that do not start as a PNG or JPEG (those are read
  /// and decoded now, for the decoder's own message). Damage deeper in the file, or bytes that no
  /// longer match the SHA-256 they are saved under, surface when the pixels are needed
  /// (`discardUnusableDraft`).
  func restoredPicture(sha256: String, path: String) throws -> SourcePicture {
    let file = try drafts.openImage(sha256: sha256)
    guard let format = ImageCodec.sniff(file.head) else {
      let bytes = try file.readAll()
      let decoded = try ImageCodec.decode(bytes, name: path)
      return MemeRenderer.sourcePicture(path: path, bytes: bytes, decoded: decoded)
    }
    return SourcePicture(
      path: path, sha256: sha256, format: format, read: { try file.readAll() },
      decode: { bytes in
        // The same pipeline as an eager restore (proxy and SHA-256 on two cores), so the
        // pixels are the same.
        let decoded = try ImageCodec.decode(bytes, name: path)
        let made = MemeRenderer.sourcePicture(path: path, bytes: bytes, decoded: decoded)
        guard made.sha256 == sha256 else {
          throw ShellError(
            "the draft's picture \(sha256.prefix(12))… does not match its contents")
        }
        return SourcePicture.Pixels(image: try made.image, proxy: try made.proxy)
      })
  }

  /// A restored picture turned out not to decode: reported as a draft that cannot be restored
  /// is at start, and the editor starts blank (the draft is removed, as it is then).
  func discardUnusableDraft(_ failure: SourcePicture.DecodeFailure) {
    console.warning("cannot restore the draft: \(failure.message); starting blank")
    history = History(initial: .blank)
    cleanState = .blank
    try? drafts.clear()
  }
}
