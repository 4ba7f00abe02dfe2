import Foundation
import MemeCore
import MemeSystem

#if canImport(Glibc)
  import Glibc
#endif

/// A memegen template folder read whole: its `config.yml`, its `default` picture and one picture
/// per style, before anything is written. The folder is the user's: it is only read, each file
/// opened without following a symlink (a symlinked picture is refused, not read through).
public struct MemegenFolder: Sendable {
  /// The folder as given.
  public var path: String
  public var config: MemegenConfig
  /// The path of `config.yml`, for messages.
  public var configPath: String
  public var picture: Picture
  /// The alternate pictures: the styles `config.yml` names, then any other picture in the
  /// folder (memegen counts every picture but `default` and names starting with `_` as a style).
  public var styles: [(name: String, picture: Picture)]

  /// A picture file's bytes, its name and the format its extension says.
  public struct Picture: Sendable {
    public var file: String
    public var path: String
    public var format: ImageFormat
    public var data: Data
  }

  /// The largest picture read: memegen's are well under a megabyte.
  public static let maximumPictureBytes = 64 << 20
  /// The extensions memegen's pictures have that memesh reads, in the order `default` is looked
  /// for.
  static let pictureExtensions: [(String, ImageFormat)] = [
    ("png", .png), ("jpg", .jpeg), ("jpeg", .jpeg), ("webp", .webp), ("gif", .gif),
  ]

  /// The name memesh gives a template read from `path`: the folder's name, as memegen's id.
  public static func templateName(forFolder path: String) -> String? {
    let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
    let last = trimmed.split(separator: "/").last.map(String.init) ?? trimmed
    return TemplateName.normalized(last == "." || last.isEmpty ? "" : last)
  }

  /// Reads the folder at `path`. Every problem is one `StoreError` naming the file.
  public static func read(_ path: String) throws(StoreError) -> MemegenFolder {
    let folder: Directory
    do {
      folder = try Directory.open(path, followingSymlink: true)
    } catch {
      throw .badTemplate(path: path, problem: error.reason)
    }
    let names: [String]
    do {
      names = try folder.entries()
    } catch {
      throw .badTemplate(path: path, problem: error.reason)
    }
    let configName = names.contains("config.yml") ? "config.yml" : "config.yaml"
    guard names.contains(configName) else {
      throw .badTemplate(
        path: path,
        problem:
          "no config.yml (a memegen template folder holds config.yml and default.png or .jpg)")
    }
    let configData = try readFile(configName, in: folder, limit: MemegenConfig.maximumBytes)
    let config = try MemegenConfig.parse(configData, path: folder.path(of: configName))
    guard let picture = try findPicture("default", in: folder, names: names) else {
      throw .badTemplate(
        path: path,
        problem: "no picture (default.png, default.jpg, default.webp or default.gif)")
    }
    var styles: [(name: String, picture: Picture)] = []
    for style in config.styles {
      guard let found = try findPicture(style, in: folder, names: names) else {
        throw .badTemplate(
          path: folder.path(of: configName),
          problem: "style '\(style)' has no picture (\(style).png, \(style).jpg …)")
      }
      styles.append((style, found))
    }
    // Pictures config.yml does not name are styles too, as memegen lists them today.
    let named = Set(config.styles + ["default"])
    var others: Set<String> = []
    for name in names.sorted() {
      guard let dot = name.lastIndex(of: "."), !name.hasPrefix("_"), !name.hasPrefix(".")
      else { continue }
      let stem = String(name[..<dot])
      let fileExtension = name[name.index(after: dot)...].lowercased()
      guard pictureExtensions.contains(where: { $0.0 == fileExtension }), !named.contains(stem),
        TemplateName.isValidStyle(stem), others.insert(stem).inserted,
        styles.count < MemegenConfig.maximumEntries
      else { continue }
      if let found = try findPicture(stem, in: folder, names: names) {
        styles.append((stem, found))
      }
    }
    return MemegenFolder(
      path: path, config: config, configPath: folder.path(of: configName), picture: picture,
      styles: styles)
  }

  /// `stem.<ext>` for the first picture extension present (any case), read; nil when none is.
  private static func findPicture(_ stem: String, in folder: Directory, names: [String])
    throws(StoreError) -> Picture?
  {
    for (fileExtension, format) in pictureExtensions {
      guard
        let name = names.first(where: {
          $0.lowercased() == "\(stem.lowercased()).\(fileExtension)"
            && $0.hasPrefix(stem)
        })
      else { continue }
      let data = try readFile(name, in: folder, limit: maximumPictureBytes)
      guard !data.isEmpty else {
        throw .badTemplate(path: folder.path(of: name), problem: "the picture is empty")
      }
      return Picture(file: name, path: folder.path(of: name), format: format, data: data)
    }
    return nil
  }

  private static func readFile(_ name: String, in folder: Directory, limit: Int)
    throws(StoreError) -> Data
  {
    do {
      return try folder.readFile(name, limit: limit)
    } catch {
      let reason =
        error.code == EFBIG
        ? "larger than \(limit >> 20 > 0 ? "\(limit >> 20) MB" : "\(limit >> 10) KB")"
        : error.reason
      throw .badTemplate(path: folder.path(of: name), problem: reason)
    }
  }
}
