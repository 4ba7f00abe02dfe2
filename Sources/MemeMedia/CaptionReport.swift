/// What caption rendering decided, for `preview --explain` and warnings.
public struct CaptionReport: Sendable, Equatable {
  /// Warnings to show the user (a caption cut with an ellipsis, characters no font has).
  public var warnings: [String]
  /// Plain-text explanation, one caption after another.
  public var explanation: String

  public init(warnings: [String] = [], explanation: String = "") {
    self.warnings = warnings
    self.explanation = explanation
  }
}
