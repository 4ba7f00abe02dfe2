import Foundation

/// One libFuzzer target: a name (`memesh-fuzz` picks it from `MEMESH_FUZZ_TARGET`) and the code
/// that feeds one input to memesh. Any input may be refused with an error; none may crash.
public struct FuzzTarget: Sendable {
  /// The target's name, also its folder under `Tests/Fuzz/corpus` and `Tests/Fuzz/regressions`.
  public let name: String
  /// What the input is, in a few words.
  public let summary: String
  /// Feeds one input to memesh.
  public let run: @Sendable (Data) -> Void

  public init(name: String, summary: String, run: @escaping @Sendable (Data) -> Void) {
    self.name = name
    self.summary = summary
    self.run = run
  }

  /// Every target, in the order `make fuzz` runs them: each area lists its own targets in its
  /// own file (a new decoder's target goes into `imageTargets`, FuzzTarget+Images.swift).
  public static let all: [FuzzTarget] =
    imageTargets + storeTargets + templateTargets + shellTargets

  /// The target called `name`, or nil.
  public static func named(_ name: String) -> FuzzTarget? {
    all.first { $0.name == name }
  }
}
