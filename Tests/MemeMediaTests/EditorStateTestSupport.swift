import MemeCore

extension EditorState {
  /// MemeMe's editor: a picture with a top and a bottom caption, a font and a crop.
  init(
    picture: SourcePicture, top: String, bottom: String = "",
    font: String = MemeRecipe.defaultFont, crop: Crop = .off
  ) {
    self.init(
      picture: picture, recipe: MemeRecipe(top: top, bottom: bottom, font: font, crop: crop))
  }

  /// MemeMe's editor with only a bottom caption.
  init(picture: SourcePicture, bottom: String, crop: Crop = .off) {
    self.init(picture: picture, top: "", bottom: bottom, crop: crop)
  }
}
