import Foundation
import MemeCore

/// One state of the editor as the draft keeps it: the recipe and which picture (by path and
/// SHA-256 of its bytes, saved under `draft/images/<sha>`).
public struct DraftStep: Equatable, Sendable {
  /// What the change was, for `history` listings (`caption top`, `crop 16:9`…).
  public var label: String
  /// The crop, font and text boxes.
  public var recipe: MemeRecipe
  /// The path the picture was loaded from (display only), nil before any `load`.
  public var sourcePath: String?
  /// Lowercase hex SHA-256 of the picture's bytes; the bytes are in the draft store.
  public var sourceSHA256: String?
  /// The sent meme this draft edits, when opened with `edit ID`.
  public var editingID: Int?

  public init(
    label: String, recipe: MemeRecipe = .blank, sourcePath: String? = nil,
    sourceSHA256: String? = nil, editingID: Int? = nil
  ) {
    self.label = label
    self.recipe = recipe
    self.sourcePath = sourcePath
    self.sourceSHA256 = sourceSHA256
    self.editingID = editingID
  }
}

extension DraftStep: Codable {
  /// The step's own keys; the recipe's (`MemeRecipe.CodingKeys`) sit beside them, version 1's
  /// `top` and `bottom` included.
  enum CodingKeys: String, CodingKey {
    case label, sourcePath, sourceSHA256, editingID
    /// Boxes 1 and 2's text, written (never read) so that a memesh that reads only version 1
    /// decodes the file far enough to see its version and refuse it, rather than take it for
    /// damage and move it aside.
    case top, bottom
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    label = try container.decode(String.self, forKey: .label)
    recipe = try MemeRecipe(from: decoder)
    sourcePath = try container.decodeIfPresent(String.self, forKey: .sourcePath)
    sourceSHA256 = try container.decodeIfPresent(String.self, forKey: .sourceSHA256)
    editingID = try container.decodeIfPresent(Int.self, forKey: .editingID)
  }

  public func encode(to encoder: any Encoder) throws {
    try recipe.encode(to: encoder)
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(label, forKey: .label)
    try container.encodeIfPresent(sourcePath, forKey: .sourcePath)
    try container.encodeIfPresent(sourceSHA256, forKey: .sourceSHA256)
    try container.encodeIfPresent(editingID, forKey: .editingID)
    try container.encode(recipe.top, forKey: .top)
    try container.encode(recipe.bottom, forKey: .bottom)
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
