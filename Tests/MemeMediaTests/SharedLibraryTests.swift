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

  @Test func loadingTwiceOpensOnceAndSucceeds() throws {
    try SharedLibrary.load(SharedLibrary.text)
    try SharedLibrary.load(SharedLibrary.text + SharedLibrary.terminalPictures)
  }

  @Test func theSearchStartsWithLibraryPath() {
    let folders = SharedLibrary.searchFolders(environment: ["LD_LIBRARY_PATH": "/opt/a:/opt/b"])
    #expect(Array(folders.prefix(2)) == ["/opt/a", "/opt/b"])
    #expect(folders.contains("/usr/lib"))
  }
}
