import Foundation
import MemeFuzzTargets
import Testing

/// Every input a fuzzer ever crashed memesh with (`Tests/Fuzz/regressions/NAME/`) and every seed
/// (`Tests/Fuzz/corpus/NAME/`) goes through its target again: a crash here fails the run.
@Suite struct FuzzRegressionTests {
  static let fuzzFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent()

  /// The files in `Tests/Fuzz/KIND/NAME`, sorted; none when the folder is missing.
  static func inputs(_ kind: String, _ name: String) -> [URL] {
    let folder = fuzzFolder.appendingPathComponent(kind).appendingPathComponent(name)
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.filter { !$0.hasPrefix(".") }.sorted().map { folder.appendingPathComponent($0) }
  }

  @Test(arguments: FuzzTarget.all.map(\.name))
  func everyCrashFoundAndEverySeedStillRuns(target name: String) throws {
    let target = try #require(FuzzTarget.named(name))
    let seeds = Self.inputs("corpus", name)
    #expect(!seeds.isEmpty, "no seed corpus for '\(name)'")
    for file in Self.inputs("regressions", name) + seeds {
      target.run(try Data(contentsOf: file))
    }
  }

  @Test func everyRegressionFolderNamesATarget() throws {
    for kind in ["corpus", "regressions"] {
      let folder = Self.fuzzFolder.appendingPathComponent(kind)
      let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
      for name in names where !name.hasPrefix(".") {
        #expect(FuzzTarget.named(name) != nil, "Tests/Fuzz/\(kind)/\(name) matches no target")
      }
    }
  }
}
