import Foundation

/// Everything the editor shows: one value, so undo is a snapshot.
public struct EditorState: Sendable, Equatable {
  public var picture: SourcePicture?
  /// The crop, font and text boxes; a box's empty text means "not set" (boxes 1 and 2 then show
  /// the placeholders TOP and BOTTOM).
  public var recipe: MemeRecipe
  /// The sent meme this draft edits, when opened with `edit ID`.
  public var editingID: Int?

  /// What MemeMe's empty fields show; never rendered unless typed.
  public static let topPlaceholder = "TOP"
  public static let bottomPlaceholder = "BOTTOM"

  public init(picture: SourcePicture? = nil, recipe: MemeRecipe = .blank, editingID: Int? = nil) {
    self.picture = picture
    self.recipe = recipe
    self.editingID = editingID
  }

  /// A blank draft.
  public static let blank = EditorState()

  /// A blank draft whose captions use `font`.
  public static func blank(font: String) -> EditorState {
    var state = EditorState.blank
    state.recipe.font = font
    return state
  }
}

/// A change to the editor. I/O (decoding a file) happens before; its result rides in the action.
public enum EditorAction: Sendable, Equatable {
  case load(SourcePicture)
  /// Box 1's text (MemeMe's top caption).
  case setTop(String)
  /// Box 2's text (MemeMe's bottom caption).
  case setBottom(String)
  case setCaptions(top: String, bottom: String)
  case setFont(String)
  case setCrop(Crop)
  /// A blank draft whose captions use `font` (the default font, or the one `set font` chose).
  case newDraft(font: String = MemeRecipe.defaultFont)
  /// Open a sent meme for editing: its picture and recipe (no id: a new draft on them).
  case edit(id: Int?, picture: SourcePicture, recipe: MemeRecipe)
  /// Adds a box after the others (drawn over them).
  case addBox(TextBox)
  /// Replaces box `index` (from 0) by `box`: its text, place or style changed.
  case setBox(index: Int, TextBox)
  /// Removes box `index` (from 0); the boxes after it move up one.
  case removeBox(index: Int)

  /// Applies the action; the only place editor state changes. An index out of range changes
  /// nothing (the shell checks it first and says so).
  public func apply(to state: inout EditorState) {
    switch self {
    case .load(let picture):
      // A new picture keeps the captions and font (MemeMe keeps the text fields) but not a crop
      // measured on the old picture.
      state.picture = picture
      state.recipe.crop = .off
      state.editingID = nil
    case .setTop(let text): state.recipe.top = text
    case .setBottom(let text): state.recipe.bottom = text
    case .setCaptions(let top, let bottom):
      state.recipe.top = top
      state.recipe.bottom = bottom
    case .setFont(let font): state.recipe.font = font
    case .setCrop(let crop): state.recipe.crop = crop
    case .newDraft(let font): state = .blank(font: font)
    case .edit(let id, let picture, let recipe):
      state = EditorState(picture: picture, recipe: recipe, editingID: id)
    case .addBox(let box):
      guard state.recipe.boxes.count < MemeRecipe.maximumBoxes else { return }
      state.recipe.boxes.append(box)
    case .setBox(let index, let box):
      guard state.recipe.boxes.indices.contains(index) else { return }
      state.recipe.boxes[index] = box
    case .removeBox(let index):
      guard state.recipe.boxes.indices.contains(index) else { return }
      state.recipe.boxes.remove(at: index)
    }
  }
}
