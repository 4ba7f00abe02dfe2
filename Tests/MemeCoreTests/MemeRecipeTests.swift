import Foundation
import MemeCore
import Testing

@Suite struct MemeRecipeTests {
  static let sha = String(repeating: "ab", count: 32)

  @Test func aBlankRecipeIsMemeMesTwoEmptyFields() {
    let recipe = MemeRecipe.blank
    #expect(recipe.boxes == [TextBox(placement: .top), TextBox(placement: .bottom)])
    #expect(recipe.font == "Anton" && recipe.crop == .off)
    #expect(recipe.top.isEmpty && recipe.bottom.isEmpty)
  }

  @Test func topAndBottomAreBoxesOneAndTwo() {
    var recipe = MemeRecipe.blank
    recipe.top = "one does not simply"
    recipe.bottom = "share a meme"
    #expect(recipe == MemeRecipe(top: "one does not simply", bottom: "share a meme"))
    #expect(recipe.boxes[1] == TextBox(text: "share a meme", placement: .bottom))
    // With fewer boxes, setting one adds MemeMe's fields it needs.
    var none = MemeRecipe(boxes: [])
    none.bottom = "only"
    #expect(none.boxes == [TextBox(placement: .top), TextBox(text: "only", placement: .bottom)])
  }

  /// memesh 0.1 embedded this (its exact text, from a PNG it wrote).
  @Test func aVersionOneRecipeReadsAsTwoBoxes() throws {
    let text =
      #"{"bottom":"","crop":"1:1","font":"Anton","originalSHA256":"\#(Self.sha)","top":"don't do it"}"#
    let reading = try #require(EmbeddedRecipe.read(text))
    #expect(
      reading
        == .recipe(
          EmbeddedRecipe(
            recipe: MemeRecipe(top: "don't do it", bottom: "", crop: .aspect(width: 1, height: 1)),
            originalSHA256: Self.sha)))
  }

  @Test func everyBoxSurvivesTheEmbeddedForm() throws {
    let recipe = MemeRecipe(
      font: "Oswald", crop: .rect(PixelRect(x: 1, y: 2, width: 30, height: 40)),
      boxes: [
        TextBox(text: "a", placement: .top),
        TextBox(
          text: "Ça \"va\"", placement: .rect(TextFrame(x: 0.5, y: 0.1, width: 0.4, height: 0.2)),
          alignment: .right, textCase: .asTyped, fill: .black, outline: .none, font: "BebasNeue",
          angle: -10),
      ])
    let embedded = EmbeddedRecipe(recipe: recipe, originalSHA256: Self.sha)
    let text = embedded.encoded()
    #expect(text.hasPrefix(#"{"boxes":[{"at":"top","text":"a"},"#))
    #expect(text.hasSuffix(#""version":2}"#))
    #expect(EmbeddedRecipe.read(text) == .recipe(embedded))
  }

  @Test func aNewerRecipeIsRecognisedNotRead() {
    let text = #"{"layers":[],"originalSHA256":"\#(Self.sha)","version":3}"#
    #expect(EmbeddedRecipe.read(text) == .newer(version: 3))
  }

  @Test(arguments: [
    "not json", "{}", #"{"version":0,"font":"A","crop":"off","boxes":[],"originalSHA256":"x"}"#,
    #"{"version":2,"font":"A","crop":"0:1","boxes":[],"originalSHA256":"x"}"#,
    #"{"version":2,"font":"A","crop":"off","boxes":[{"at":"nowhere"}],"originalSHA256":"x"}"#,
    #"{"top":"a","crop":"off","font":"A","originalSHA256":"x"}"#,
  ])
  func whatIsNotARecipeIsIgnored(_ text: String) {
    #expect(EmbeddedRecipe.read(text) == nil)
  }

  @Test func tooManyBoxesAreRefused() {
    let boxes = Array(repeating: TextBox(placement: .middle), count: MemeRecipe.maximumBoxes + 1)
    let text = EmbeddedRecipe(recipe: MemeRecipe(boxes: boxes), originalSHA256: "x").encoded()
    #expect(EmbeddedRecipe.read(text) == nil)
  }

  @Test func boxActionsChangeOnlyTheirBox() {
    var state = EditorState(recipe: MemeRecipe(top: "top", bottom: "bottom"))
    let label = TextBox(text: "label", placement: .middle)
    EditorAction.addBox(label).apply(to: &state)
    #expect(state.recipe.boxes.map(\.text) == ["top", "bottom", "label"])
    var moved = label
    moved.placement = .rect(TextFrame(x: 0.1, y: 0.1, width: 0.5, height: 0.2))
    EditorAction.setBox(index: 2, moved).apply(to: &state)
    #expect(state.recipe.boxes[2] == moved)
    EditorAction.removeBox(index: 0).apply(to: &state)
    #expect(state.recipe.boxes.map(\.text) == ["bottom", "label"])
    let before = state
    EditorAction.removeBox(index: 5).apply(to: &state)
    EditorAction.setBox(index: 9, label).apply(to: &state)
    #expect(state == before)
    // 'top' sets box 1, whatever it is now.
    EditorAction.setTop("new").apply(to: &state)
    #expect(state.recipe.boxes.map(\.text) == ["new", "label"])
  }
}
