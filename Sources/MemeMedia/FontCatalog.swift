import Foundation
import MemeCore

/// The bundled fonts, the user's fonts and fonts named by path.
public struct FontCatalog: Sendable {
  public var bundledDirectory: URL?
  public var userDirectory: URL?

  public init(bundledDirectory: URL?, userDirectory: URL?) {
    self.bundledDirectory = bundledDirectory
    self.userDirectory = userDirectory
  }

  /// The catalog with the bundled fonts found by `bundledDirectory()` and no user fonts.
  public static func standard(userDirectory: URL? = nil) -> FontCatalog {
    FontCatalog(bundledDirectory: bundledDirectory(), userDirectory: userDirectory)
  }

  static let fontExtensions: Set<String> = ["ttf", "otf", "ttc"]
  static let marker = "Anton-Regular.ttf"

  /// Where the bundled fonts are: `$MEMESH_FONTS`, then `<executable>/../share/memesh/fonts`
  /// (after `make install`), then a `Fonts` folder holding Anton-Regular.ttf found walking up
  /// from the executable's directory and then from the current directory.
  public static func bundledDirectory(
    environment: [String: String] = ProcessInfo.processInfo.environment,
    executable: URL? = FontCatalog.currentExecutable(),
    currentDirectory: URL = URL(
      fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
  ) -> URL? {
    let files = FileManager.default
    if let value = environment["MEMESH_FONTS"], !value.isEmpty {
      return URL(fileURLWithPath: value, isDirectory: true)
    }
    var starts: [URL] = []
    if let executable = executable?.resolvingSymlinksInPath() {
      let directory = executable.deletingLastPathComponent()
      let installed = directory.deletingLastPathComponent()
        .appendingPathComponent("share/memesh/fonts", isDirectory: true)
      if files.fileExists(atPath: installed.appendingPathComponent(marker).path) {
        return installed
      }
      starts.append(directory)
    }
    starts.append(currentDirectory)
    for start in starts {
      var directory = start.standardizedFileURL
      while true {
        let candidate = directory.appendingPathComponent("Fonts", isDirectory: true)
        if files.fileExists(atPath: candidate.appendingPathComponent(marker).path) {
          return candidate
        }
        let parent = directory.deletingLastPathComponent()
        if parent.path == directory.path { break }
        directory = parent
      }
    }
    return nil
  }

  /// The running executable. On Linux read from `/proc/self/exe`: `Bundle.main` lists the
  /// executable's folder twice when first used (thousands of entries in /usr/bin).
  public static func currentExecutable() -> URL? {
    #if os(Linux)
      if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
        return URL(fileURLWithPath: path)
      }
    #endif
    return Bundle.main.executableURL
  }

  /// Every font found, bundled first, each folder sorted by name; one that cannot be drawn with
  /// is listed with its `problem`.
  public func fonts() -> [FontInfo] {
    listing(bundledDirectory, origin: .bundled) + listing(userDirectory, origin: .user)
  }

  private func listing(_ directory: URL?, origin: FontInfo.Origin) -> [FontInfo] {
    fontFiles(directory, origin: origin).map(FontCatalog.describe)
  }

  /// The font files in `directory` sorted by name, named by their files, not yet opened
  /// (`describe` fills in the rest).
  private func fontFiles(_ directory: URL?, origin: FontInfo.Origin) -> [FontInfo] {
    guard let directory,
      let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path)
    else { return [] }
    return names.sorted().compactMap { file in
      let url = directory.appendingPathComponent(file)
      guard FontCatalog.fontExtensions.contains(url.pathExtension.lowercased()) else {
        return nil
      }
      return FontInfo(name: FontInfo.name(forFile: url), path: url.path, origin: origin)
    }
  }

  /// Fills in family and style from the file, or why it cannot be drawn with (`problem`).
  static func describe(_ info: FontInfo) -> FontInfo {
    FontEngine.shared.withLock { engine in
      var info = info
      do throws(FontError) {
        let face = try engine.face(path: info.path)
        info.family = face.familyName
        info.style = face.styleName
      } catch {
        if case .unreadable(_, let reason) = error {
          info.problem = reason
        } else {
          info.problem = error.message
        }
      }
      return info
    }
  }

  /// A font by name (case-insensitive, dashes and spaces optional): a bundled or user font, else
  /// an installed family (`DejaVu Serif`); or by path to a font file.
  public func resolve(_ name: String) throws -> FontInfo {
    let trimmed = name.trimmingCharacters(in: .whitespaces)
    let wanted = trimmed.isEmpty ? FontInfo.defaultName : trimmed
    let url = URL(fileURLWithPath: (wanted as NSString).expandingTildeInPath)
    let looksLikePath =
      wanted.contains("/") || FontCatalog.fontExtensions.contains(url.pathExtension.lowercased())
    if looksLikePath {
      guard FileManager.default.fileExists(atPath: url.path) else {
        throw FontError.noSuchFile(name: name)
      }
      let described = FontCatalog.describe(FontInfo(name: wanted, path: url.path, origin: .path))
      if let problem = described.problem { throw FontError.unreadable(name: name, reason: problem) }
      return described
    }
    // Found by file name first, and only that file opened (`describe`): not every font of the
    // catalog for the one a caption uses.
    let files = fontFiles(bundledDirectory, origin: .bundled)
      + fontFiles(userDirectory, origin: .user)
    let key = FontInfo.normalized(wanted)
    if let file = files.first(where: { FontInfo.normalized($0.name) == key })
      ?? files.first(where: {
        FontInfo.normalized(
          URL(fileURLWithPath: $0.path).deletingPathExtension()
            .lastPathComponent) == key
      })
    {
      let found = FontCatalog.describe(file)
      if let problem = found.problem {
        throw FontError.unreadable(name: found.path, reason: problem)
      }
      return found
    }
    if let installed = FontCatalog.installedFonts().first(where: {
      FontInfo.normalized($0.name) == key
    }) {
      return installed
    }
    throw FontError.unknown(
      name: name, available: fonts().filter { $0.problem == nil }.map(\.name))
  }
}
