import Foundation
import MemeCore
import Testing

@testable import MemeMedia

@Suite struct FontCatalogTests {
  let catalog = FontCatalog.standard()

  @Test func findsTheBundledFontsFolder() throws {
    let directory = try #require(FontCatalog.bundledDirectory(environment: [:]))
    #expect(
      FileManager.default.fileExists(
        atPath: directory.appendingPathComponent(
          "Anton-Regular.ttf"
        ).path))
  }

  @Test func findsTheFontsAfterMakeInstallFromAnyDirectory() throws {
    let prefix = FileManager.default.temporaryDirectory
      .appendingPathComponent("memesh-prefix-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: prefix) }
    let fonts = prefix.appendingPathComponent("share/memesh/fonts")
    try FileManager.default.createDirectory(at: fonts, withIntermediateDirectories: true)
    try Data().write(to: fonts.appendingPathComponent("Anton-Regular.ttf"))
    let found = FontCatalog.bundledDirectory(
      environment: [:], executable: prefix.appendingPathComponent("bin/memesh"),
      currentDirectory: URL(fileURLWithPath: "/"))
    #expect(found?.standardizedFileURL.path == fonts.standardizedFileURL.path)
  }

  @Test func findsTheRepositoryFontsWalkingUpFromTheWorkingDirectory() throws {
    let repository = try #require(FontCatalog.bundledDirectory(environment: [:]))
      .deletingLastPathComponent()
    let found = FontCatalog.bundledDirectory(
      environment: [:], executable: nil,
      currentDirectory: repository.appendingPathComponent("Sources/MemeMedia"))
    #expect(found?.lastPathComponent == "Fonts")
    #expect(
      FontCatalog.bundledDirectory(
        environment: [:], executable: nil, currentDirectory: URL(fileURLWithPath: "/")) == nil)
  }

  @Test func environmentVariableWins() {
    let directory = FontCatalog.bundledDirectory(environment: ["MEMESH_FONTS": "/opt/fonts"])
    #expect(directory?.path == "/opt/fonts")
  }

  @Test func listsTheBundledFontsByTheNamesUsersType() {
    let fonts = catalog.fonts()
    #expect(fonts.map(\.name) == ["Anton", "BebasNeue", "DejaVuSans-Bold", "Oswald"])
    #expect(fonts.allSatisfy { $0.origin == .bundled })
    #expect(fonts.first?.family == "Anton")
  }

  @Test(arguments: [
    ("Anton", "Anton"), ("anton", "Anton"), ("OSWALD", "Oswald"), ("bebas neue", "BebasNeue"),
    ("dejavu sans bold", "DejaVuSans-Bold"), ("DejaVuSans-Bold", "DejaVuSans-Bold"),
    ("Anton-Regular", "Anton"), ("", "Anton"),
  ])
  func resolvesNamesCaseInsensitively(typed: String, expected: String) throws {
    #expect(try catalog.resolve(typed).name == expected)
  }

  @Test func userFontsAreListedAfterTheBundledOnes() throws {
    let user = FileManager.default.temporaryDirectory
      .appendingPathComponent("memesh-fonts-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: user, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: user) }
    let bundled = try #require(catalog.bundledDirectory)
    try FileManager.default.copyItem(
      at: bundled.appendingPathComponent("BebasNeue-Regular.ttf"),
      to: user.appendingPathComponent("Shouty-Regular.ttf"))
    try Data("not a font".utf8).write(to: user.appendingPathComponent("Broken.ttf"))
    let withUser = FontCatalog(bundledDirectory: bundled, userDirectory: user)
    #expect(withUser.fonts().last?.name == "Shouty")
    #expect(withUser.fonts().last?.origin == .user)
    #expect(withUser.fonts().first { $0.name == "Broken" }?.problem == FontError.notAFont)
    #expect(try withUser.resolve("shouty").origin == .user)
  }

  @Test func aPathToAFontFileWorks() throws {
    let bundled = try #require(catalog.bundledDirectory)
    let path = bundled.appendingPathComponent("Oswald-Variable.ttf").path
    let font = try catalog.resolve(path)
    #expect(font.origin == .path)
    #expect(font.family == "Oswald")
  }

  @Test(arguments: [
    ("/nope/Missing.ttf", "font: cannot find font file '/nope/Missing.ttf'"),
    ("Comic", "font: unknown font 'Comic' (available: Anton, BebasNeue, DejaVuSans-Bold, Oswald; 'fonts --installed' lists the system's)"),
  ])
  func badFontsAreOneLineErrors(typed: String, message: String) {
    let error = #expect(throws: FontError.self) { try catalog.resolve(typed) }
    #expect(error?.message == message)
  }

  @Test func aFileThatIsNotAFontIsRefused() throws {
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("memesh-not-a-font-\(UUID().uuidString).ttf")
    try Data("hello".utf8).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    #expect(throws: FontError.unreadable(name: file.path, reason: FontError.notAFont)) {
      try catalog.resolve(file.path)
    }
  }

  /// FreeType would wait forever for a writer on a FIFO; a user's fonts folder may hold one too.
  @Test func aFIFOOrAFolderIsRefusedWithoutWaiting() throws {
    let user = FileManager.default.temporaryDirectory
      .appendingPathComponent("memesh-fonts-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: user, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: user) }
    let fifo = user.appendingPathComponent("Pipe.ttf").path
    #expect(mkfifo(fifo, 0o600) == 0)
    #expect(throws: FontError.unreadable(name: fifo, reason: "not a regular file")) {
      try catalog.resolve(fifo)
    }
    #expect(throws: FontError.unreadable(name: user.path + "/", reason: "is a directory")) {
      try catalog.resolve(user.path + "/")
    }
    // Listed, with the reason, never drawn with: a font that is not there is no mystery.
    let withUser = FontCatalog(bundledDirectory: catalog.bundledDirectory, userDirectory: user)
    #expect(withUser.fonts().first { $0.name == "Pipe" }?.problem == "not a regular file")
    #expect(throws: FontError.unreadable(name: fifo, reason: "not a regular file")) {
      try withUser.resolve("Pipe")
    }
  }

  @Test func oswaldIsDrawnAtWeight700() throws {
    let path = try catalog.resolve("Oswald").path
    let weight = try FontEngine.shared.withLock { try $0.face(path: path).variableWeight }
    #expect(weight == 700)
    let anton = try catalog.resolve("Anton").path
    #expect(try FontEngine.shared.withLock { try $0.face(path: anton).variableWeight } == nil)
  }
}

/// Fonts installed on the system are found by family name through fontconfig.
@Suite struct InstalledFontTests {
  @Test func anInstalledFamilyIsFoundByItsName() throws {
    // fonts-dejavu-core comes with `make deps`.
    let catalog = FontCatalog.standard(userDirectory: nil)
    let serif = try catalog.resolve("DejaVu Serif")
    #expect(serif.origin == .installed)
    #expect(serif.family == "DejaVu Serif")
    // The face captions are drawn with: the bold upright one of normal width.
    #expect(serif.style == "Bold")
    #expect(try catalog.resolve("dejavu-serif").path == serif.path)
  }

  @Test func bundledFontsWinOverInstalledOnes() throws {
    let catalog = FontCatalog.standard(userDirectory: nil)
    #expect(try catalog.resolve("DejaVuSans-Bold").origin == .bundled)
  }

  @Test func anUnknownNameSaysInstalledFontsExist() {
    let catalog = FontCatalog.standard(userDirectory: nil)
    #expect {
      try catalog.resolve("No Such Family")
    } throws: { error in
      ((error as? FontError)?.message ?? "").contains("'fonts --installed' lists")
    }
  }

  @Test func everyInstalledFontIsOneOutlineFacePerFamily() {
    let fonts = FontCatalog.installedFonts()
    #expect(!fonts.isEmpty)
    #expect(Set(fonts.map { $0.name.lowercased() }).count == fonts.count)
    #expect(fonts.allSatisfy { $0.origin == .installed && !$0.path.isEmpty })
  }
}
