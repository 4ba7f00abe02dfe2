import Foundation
import MemeCore
import MemeMedia
import Testing

/// Pictures memesh 0.1 wrote (recipe version 1, `Fixtures/images/recipe-v1.*`) still carry a
/// recipe this memesh reads, in each format it writes.
@Suite struct RecipeVersionTests {
  @Test(arguments: [
    (
      "recipe-v1.jpg",
      MemeRecipe(top: "one does not simply", bottom: "share a meme", font: "Oswald"),
      "1cda9d7530eb3e079c45f6e9f460361b2d829db9a21666baa0f881d1bb46cbc3"
    ),
    (
      "recipe-v1.png",
      MemeRecipe(top: "don't do it", bottom: "", crop: .aspect(width: 1, height: 1)),
      "246371c111dbae7f066a7046a00224a67e79f293dadf01b64bc12319ad558f52"
    ),
    (
      "recipe-v1.webp", MemeRecipe(top: "", bottom: "webp one"),
      "8f8ea935ecc6ef04f4d477a56f4f4a4779fc87838d58811f09554629e6fdfe3e"
    ),
  ])
  func versionOneRecipesStillRead(_ name: String, _ recipe: MemeRecipe, _ sha: String) throws {
    let decoded = try ImageFixtures.decode(name)
    #expect(decoded.recipe == .recipe(EmbeddedRecipe(recipe: recipe, originalSHA256: sha)))
    if name.hasSuffix(".jpg") {
      // A JPEG load reads the recipe from the splice index, without decoding.
      let plan = try JPEGSplice.plan(try ImageFixtures.data(name), crop: .off).get()
      #expect(plan.recipe == decoded.recipe)
    }
  }

  @Test(arguments: ImageFormat.writable)
  func aRecipeOfManyBoxesRoundTrips(_ format: ImageFormat) throws {
    let recipe = EmbeddedRecipe(
      recipe: MemeRecipe(
        boxes: [
          TextBox(text: "one", placement: .left), TextBox(text: "two", placement: .right),
          TextBox(text: "three", placement: .middle, fill: .black, angle: 15),
        ]),
      originalSHA256: String(repeating: "0", count: 64))
    let image = RGBAImage(
      width: 4, height: 4, pixels: [UInt8](repeating: 200, count: 64))
    let data = try ImageCodec.encode(image, as: format, settings: EncodeSettings(recipe: recipe))
    #expect(try ImageCodec.decode(data, name: "boxes").recipe == .recipe(recipe))
  }
}
