import Foundation

/// The picture the editor works on, decoded once at load.
///
/// Held by reference (`final class`, immutable), so every undo snapshot shares it.
public final class SourcePicture: Sendable, Equatable {
  /// The path the user loaded, as they typed it (for display).
  public let path: String
  /// The file's bytes exactly as read: kept for the store so the meme can be edited again.
  public let originalBytes: Data
  /// Lowercase hex SHA-256 of `originalBytes`.
  public let sha256: String
  public let format: ImageFormat
  /// Full resolution, upright (EXIF orientation applied).
  public let image: RGBAImage
  /// A small upright copy for previews (longest side about 1024 px), made at load.
  public let proxy: RGBAImage

  public init(
    path: String, originalBytes: Data, sha256: String, format: ImageFormat, image: RGBAImage,
    proxy: RGBAImage
  ) {
    self.path = path
    self.originalBytes = originalBytes
    self.sha256 = sha256
    self.format = format
    self.image = image
    self.proxy = proxy
  }

  /// Displayed size (after orientation).
  public var size: PixelSize { image.size }

  /// The last path component, for prompts and tables.
  public var displayName: String {
    path.split(separator: "/").last.map(String.init) ?? path
  }

  public static func == (lhs: SourcePicture, rhs: SourcePicture) -> Bool {
    lhs === rhs || (lhs.sha256 == rhs.sha256 && lhs.path == rhs.path)
  }
}

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
  /// Open a sent meme for editing: its picture and recipe.
  case edit(id: Int, picture: SourcePicture, top: String, bottom: String, font: String, crop: Crop)

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
