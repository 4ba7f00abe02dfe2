import Foundation

/// Everything the editor shows: one value, so undo is a snapshot.
public struct EditorState: Sendable, Equatable {
  public var picture: SourcePicture?
  /// The captions as typed; empty means "not set" (the placeholder TOP/BOTTOM shows instead).
  public var top: String
  public var bottom: String
  /// A font name from the font catalog.
  public var font: String
  public var crop: Crop
  /// The sent meme this draft edits, when opened with `edit ID`.
  public var editingID: Int?

  /// The font captions use when the user picks none.
  public static let defaultFont = "Anton"
  /// What MemeMe's empty fields show; never rendered unless typed.
  public static let topPlaceholder = "TOP"
  public static let bottomPlaceholder = "BOTTOM"

  public init(
    picture: SourcePicture? = nil, top: String = "", bottom: String = "",
    font: String = EditorState.defaultFont, crop: Crop = .off, editingID: Int? = nil
  ) {
    self.picture = picture
    self.top = top
    self.bottom = bottom
    self.font = font
    self.crop = crop
    self.editingID = editingID
  }

  /// A blank draft.
  public static let blank = EditorState()
}

/// A change to the editor. I/O (decoding a file) happens before; its result rides in the action.
public enum EditorAction: Sendable, Equatable {
  case load(SourcePicture)
  case setTop(String)
  case setBottom(String)
  case setCaptions(top: String, bottom: String)
  case setFont(String)
  case setCrop(Crop)
  case newDraft
  /// Open a sent meme for editing: its picture and recipe (no id: a new draft on them).
  case edit(id: Int?, picture: SourcePicture, top: String, bottom: String, font: String, crop: Crop)

  /// Applies the action; the only place editor state changes.
  public func apply(to state: inout EditorState) {
    switch self {
    case .load(let picture):
      // A new picture keeps the captions and font (MemeMe keeps the text fields) but not a crop
      // measured on the old picture.
      state.picture = picture
      state.crop = .off
      state.editingID = nil
    case .setTop(let text): state.top = text
    case .setBottom(let text): state.bottom = text
    case .setCaptions(let top, let bottom):
      state.top = top
      state.bottom = bottom
    case .setFont(let font): state.font = font
    case .setCrop(let crop): state.crop = crop
    case .newDraft: state = .blank
    case .edit(let id, let picture, let top, let bottom, let font, let crop):
      state = EditorState(
        picture: picture, top: top, bottom: bottom, font: font, crop: crop, editingID: id)
    }
  }
}
