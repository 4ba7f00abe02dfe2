import Foundation
import MemeCore

/// One state of the editor as the draft keeps it: the captions, the font, the crop and which
/// picture (by path and SHA-256 of its bytes, saved under `draft/images/<sha>`).
public struct DraftStep: Codable, Equatable, Sendable {
  /// What the change was, for `history` listings (`caption top`, `crop 16:9`…).
  public var label: String
  /// The top caption as typed (empty: not set).
  public var top: String
  /// The bottom caption as typed (empty: not set).
  public var bottom: String
  /// A font name from the font catalog.
  public var font: String
  /// The crop, in the picture's displayed pixels.
  public var crop: Crop
  /// The path the picture was loaded from (display only), nil before any `load`.
  public var sourcePath: String?
  /// Lowercase hex SHA-256 of the picture's bytes; the bytes are in the draft store.
  public var sourceSHA256: String?
  /// The sent meme this draft edits, when opened with `edit ID`.
  public var editingID: Int?

  public init(
    label: String, top: String = "", bottom: String = "", font: String = "Anton",
    crop: Crop = .off, sourcePath: String? = nil, sourceSHA256: String? = nil,
    editingID: Int? = nil
  ) {
    self.label = label
    self.top = top
    self.bottom = bottom
    self.font = font
    self.crop = crop
    self.sourcePath = sourcePath
    self.sourceSHA256 = sourceSHA256
    self.editingID = editingID
  }
}

/// The editor's undo history as saved after every change: `steps[current]` is what is shown,
/// earlier steps are undo, later ones redo.
public struct DraftDocument: Codable, Equatable, Sendable {
  /// Longer histories lose their oldest steps when saved.
  public static let maximumSteps = 300

  /// Oldest first.
  public var steps: [DraftStep]
  /// The index in `steps` of the step shown.
  public var current: Int

  public init(steps: [DraftStep], current: Int) {
    self.steps = steps
    self.current = current
  }

  /// The step shown, nil for an empty document.
  public var currentStep: DraftStep? {
    steps.indices.contains(current) ? steps[current] : nil
  }

  /// At most `limit` steps, dropping the oldest; `current` keeps pointing at the same step
  /// (or the oldest kept one).
  public func bounded(to limit: Int = DraftDocument.maximumSteps) -> DraftDocument {
    guard steps.count > limit, limit > 0 else { return self }
    let dropped = steps.count - limit
    return DraftDocument(steps: Array(steps.suffix(limit)), current: max(0, current - dropped))
  }
}
