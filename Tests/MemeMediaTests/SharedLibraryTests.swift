import Foundation
import Testing

@testable import MemeMedia

/// The libraries memesh opens on first use, and how a missing one is reported.
@Suite struct SharedLibraryTests {
  @Test func everyLibraryIsFoundOnThisMachine() {
    #expect(SharedLibrary.missing(environment: [:]).map(\.soname) == [])
  }

  @Test func aLibraryNoSystemHasIsReportedWithWhatInstallsIt() throws {
    let missing = try #require(
      SharedLibrary.missing("libmemesh-nothing.so.0", package: "memesh-nothing", environment: [:]))
    #expect(missing.message.hasPrefix("libmemesh-nothing.so.0 cannot be loaded ("))
    #expect(missing.message.hasSuffix("); install memesh-nothing, or run 'make deps'"))
  }

  /// What opening a library gave is kept: a second load answers the same, success or failure.
  @Test func loadingTwiceAnswersTheSame() throws {
    try SharedLibrary.load(SharedLibrary.text)
    try SharedLibrary.load(SharedLibrary.text + SharedLibrary.terminalPictures)
    var failures: [SharedLibrary.Missing] = []
    for _ in 0..<2 {
      do {
        try SharedLibrary.open("libmemesh-nothing.so.0", package: "memesh-nothing")
      } catch {
        failures.append(error)
      }
    }
    #expect(failures.count == 2)
    #expect(failures.first == failures.last)
  }

  /// With `LD_BIND_NOW` memesh starts again without it, only when a library is not loaded
  /// (a debug build has them all); the restarted memesh hands the user's value back and never
  /// starts again. (The restart itself runs the release binary: `lazy-libraries --check`.)
  @Test(
    arguments: [
      (nil, nil, true, SharedLibrary.StartAction.run),
      ("", nil, true, .run),
      ("1", nil, false, .run),
      ("1", nil, true, .restart(bindNow: "1", unloaded: .chafa)),
      (nil, "1", true, .handBack("1")),
      (nil, "", true, .handBack("")),
      ("1", "1", true, .restart(bindNow: "1", unloaded: .chafa)),
    ] as [(String?, String?, Bool, SharedLibrary.StartAction)])
  func startAction(
    bindNow: String?, saved: String?, chafaUnloaded: Bool, action: SharedLibrary.StartAction
  ) {
    let decided = SharedLibrary.startAction(bindNow: bindNow, saved: saved) {
      chafaUnloaded ? .chafa : nil
    }
    #expect(decided == action)
  }

  @Test func theSearchStartsWithLibraryPath() {
    let folders = SharedLibrary.searchFolders(environment: ["LD_LIBRARY_PATH": "/opt/a:/opt/b"])
    #expect(Array(folders.prefix(2)) == ["/opt/a", "/opt/b"])
    #expect(folders.contains("/usr/lib"))
  }
}
