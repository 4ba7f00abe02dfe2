import Foundation
import MemeCore
import MemeSystem

#if canImport(Glibc)
  import Glibc
#endif

/// The templates on disk, one folder each, under `<home>/templates`.
///
/// Layout: `<name>/template.plist` (the record, written last), `<name>/picture.<ext>`,
/// `<name>/style-<style>.<ext>`, `<name>/thumb.png`; `trash/<n>-<name>@<µs>/` for removed
/// templates (`n` counts up, so `undoRemove` takes the highest; `µs` is when it was removed, in
/// microseconds since 1970, so `undo` can place it among the other changes; a memesh before
/// that wrote `<n>-<name>`); `.lock` (flock) held around every change.
/// A new template is written whole into a `.tmp-` folder and renamed into place, so it appears
/// complete or not at all. Every path is reached from the folder opened once, without following
/// a symlink; a folder that cannot be read is reported and left where it is, never removed.
public final class TemplateStore: @unchecked Sendable {
  /// A template in the trash: its name and when it was removed (nil when an older memesh
  /// removed it without keeping the time); for `remove`, why it could not be read, if it could
  /// not.
  public struct Removal: Sendable, Equatable {
    public let name: String
    public let date: Date?
    public var damage: String?
  }

  /// How many removed templates `undoRemove` can bring back.
  public static let defaultTrashLimit = 20

  /// `<home>/templates`.
  public let directory: URL
  public let trashLimit: Int
  let files: DurableFiles
  let clock: @Sendable () -> Date

  public init(
    directory: URL, fileSystem: any StoreFileSystem = POSIXFileSystem(),
    trashLimit: Int = TemplateStore.defaultTrashLimit,
    clock: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.directory = directory.standardizedFileURL
    self.files = DurableFiles(operations: fileSystem, root: self.directory.path)
    self.trashLimit = max(1, trashLimit)
    self.clock = clock
  }

  /// The store under `home` (`<home>/templates`); nothing is created until the first change.
  public static func open(home: URL, fileSystem: any StoreFileSystem = POSIXFileSystem())
    -> TemplateStore
  {
    TemplateStore(directory: home.appendingPathComponent("templates"), fileSystem: fileSystem)
  }

  var root: String { directory.path }
  var trashPath: String { root + "/trash" }
  func path(_ name: String) -> String { root + "/" + name }

  /// Whether `name` is a file name memesh writes in a template's folder: one plain name, not
  /// hidden, not the record.
  static func isOwnFileName(_ name: String) -> Bool {
    !name.isEmpty && name.utf8.count <= 200 && !name.hasPrefix(".") && !name.contains("/")
      && name != "template.plist" && !name.utf8.contains(0)
  }

  // MARK: - Reading

  /// Every template by name, and one line for each folder that could not be read (left as it
  /// is). A template whose picture is missing is listed with its `problem`.
  public func list() -> (templates: [Template], problems: [String]) {
    guard FileKind(path: root) != .missing else { return ([], []) }
    let names: [String]
    do {
      names = try files.directory(root).entries()
    } catch {
      return ([], [StoreError.damagedTemplate(path: root, reason: error.reason).message])
    }
    var templates: [Template] = []
    var problems: [String] = []
    for entry in names.sorted() {
      if entry == "trash" || entry == ".lock" || entry.hasPrefix(DurableFiles.temporaryPrefix) {
        continue
      }
      do {
        templates.append(try read(entry))
      } catch {
        problems.append(error.message)
      }
    }
    return (templates, problems)
  }

  /// The template `name`; `problem` is set when a file it names is missing.
  public func template(named name: String) throws(StoreError) -> Template {
    if let problem = TemplateName.problem(name) { throw .badTemplateName(problem: problem) }
    guard files.kind(path(name)) != .missing else { throw .noTemplate(name: name) }
    return try read(name)
  }

  /// The names of the templates (for completion): folders with a valid name, unread.
  public func names() -> [String] {
    files.entries(root).filter { TemplateName.problem($0) == nil }.sorted()
  }

  /// The bytes of a file of the template (its picture, a style's picture or its thumbnail).
  public func data(of file: String, in template: Template) throws(StoreError) -> Data {
    guard Self.isOwnFileName(file) else {
      throw .damagedTemplate(path: path(template.name), reason: "it names '\(file)'")
    }
    do {
      return try files.read(
        path(template.name) + "/" + file, limit: MemegenFolder.maximumPictureBytes)
    } catch {
      throw .system(error)
    }
  }

  private func read(_ name: String) throws(StoreError) -> Template {
    let folder = path(name)
    switch files.kind(folder) {
    case .directory: break
    case .symlink:
      throw .damagedTemplate(path: folder, reason: "it is a symlink, refused")
    default:
      throw .damagedTemplate(path: folder, reason: "not a folder memesh made")
    }
    if let problem = TemplateName.problem(name) {
      throw .damagedTemplate(path: folder, reason: "not a template name (\(problem))")
    }
    let data: Data
    do {
      data = try files.read(folder + "/template.plist", limit: TemplateRecord.maximumBytes)
    } catch {
      throw .damagedTemplate(path: folder + "/template.plist", reason: error.reason)
    }
    var template: Template
    do {
      template = try TemplateRecord.decode(data, folderName: name)
    } catch {
      throw .damagedTemplate(path: folder + "/template.plist", reason: error.reason)
    }
    let needed = [template.pictureFile] + template.styles.map(\.file)
    for file in needed {
      guard case .file(let size) = files.kind(folder + "/" + file), size > 0 else {
        template.problem = "its picture '\(file)' is missing"
        break
      }
    }
    return template
  }

  // MARK: - Changes

  /// Adds `template` with its files: `picture`'s bytes, one `Data` per style (in
  /// `template.styles`' order) and an optional PNG thumbnail. The file names in `template` are
  /// chosen here. Fails, with nothing written, when the name is taken.
  @discardableResult
  public func add(
    _ template: Template, picture: Data, styles: [Data] = [], thumbnail: Data? = nil
  ) throws(StoreError) -> Template {
    if let problem = TemplateName.problem(template.name) {
      throw .badTemplateName(problem: problem)
    }
    guard styles.count == template.styles.count,
      template.recipe.boxes.count <= MemeRecipe.maximumBoxes,
      template.styles.allSatisfy({ TemplateName.isValidStyle($0.name) })
    else {
      throw .fileSystem(action: "write", path: path(template.name), reason: "unusable template")
    }
    var stored = template
    stored.pictureFile = "picture." + template.format.fileExtension
    stored.styles = template.styles.map { style in
      TemplateStyle(
        name: style.name, file: "style-\(style.name).\(style.format.fileExtension)",
        format: style.format)
    }
    stored.thumbnailFile = thumbnail == nil ? nil : "thumb.png"
    stored.problem = nil
    let record: Data
    do {
      record = try TemplateRecord.encode(stored)
    } catch {
      throw .fileSystem(action: "encode", path: path(template.name), reason: "\(error)")
    }
    var contents: [(String, Data)] = [(stored.pictureFile, picture)]
    for (style, data) in zip(stored.styles, styles) { contents.append((style.file, data)) }
    if let thumbnail, let file = stored.thumbnailFile { contents.append((file, thumbnail)) }
    contents.append(("template.plist", record))
    let finished = stored
    try withWriteLock {
      guard files.kind(path(finished.name)) == .missing else {
        throw StoreError.templateExists(name: finished.name)
      }
      let temporary = path(
        DurableFiles.temporaryPrefix + "new-\(finished.name)-" + DurableFiles.randomToken())
      do {
        try files.makeDirectory(temporary)
        for (name, data) in contents {
          try files.write(data, to: temporary + "/" + name, synchronizingDirectory: false)
        }
        try files.synchronizeDirectory(temporary)
        try files.renameWithoutReplacing(temporary, to: path(finished.name))
        try files.synchronizeDirectory(root)
      } catch {
        files.removeQuietly(temporary)
        throw error
      }
    }
    return finished
  }

  /// Moves the template `name` to the trash; `undoRemove` brings it back. A folder that cannot
  /// be read as a template (a damaged record, a missing picture) is moved there as it is, and
  /// the removal says why (`damage`); a symlink or a file at the name is refused and left.
  @discardableResult
  public func remove(named name: String) throws(StoreError) -> Removal {
    if let problem = TemplateName.problem(name) { throw .badTemplateName(problem: problem) }
    try requireFolder(name)
    var damage: String?
    do {
      damage = try read(name).problem.map { "template '\(name)': \($0)" }
    } catch {
      damage = error.message
    }
    let date = clock()
    try withWriteLock {
      try requireFolder(name)
      try files.makeDirectory(trashPath)
      let trashed = trashEntries()
      let number = (trashed.last?.number ?? 0) + 1
      let micros = Int64((date.timeIntervalSince1970 * 1_000_000).rounded(.down))
      let destination = trashPath + "/\(number)-\(name)@\(micros)"
      try files.renameWithoutReplacing(path(name), to: destination)
      do {
        try files.synchronizeDirectory(root)
        try files.synchronizeDirectory(trashPath)
      } catch {
        try? files.rename(destination, to: path(name))
        throw error
      }
      // Only whole templates are purged (and counted): a damaged one stays as it was moved.
      let whole = trashed.filter { isWhole($0.entry) }
      for old in whole.dropLast(max(0, trashLimit - 1)) { purge(old.entry) }
    }
    return Removal(name: name, date: date, damage: damage)
  }

  /// Throws unless `name` is a folder (not a symlink, not a file).
  private func requireFolder(_ name: String) throws(StoreError) {
    switch files.kind(path(name)) {
    case .directory: return
    case .missing: throw .noTemplate(name: name)
    case .symlink: throw .damagedTemplate(path: path(name), reason: "it is a symlink, refused")
    default: throw .damagedTemplate(path: path(name), reason: "not a folder memesh made")
    }
  }

  /// Whether the trash's `entry` holds a template record that reads.
  private func isWhole(_ entry: String) -> Bool {
    guard
      let data = try? files.read(
        trashPath + "/" + entry + "/template.plist", limit: TemplateRecord.maximumBytes)
    else { return false }
    return (try? TemplateRecord.decode(data, folderName: trashName(entry) ?? "")) != nil
  }

  /// Brings back the template removed last (also after a restart); nil when the trash is empty.
  /// Refused, with the trash as it was, when a template of that name was made since. `damage`
  /// says why the template brought back cannot be read, if it cannot.
  public func undoRemove() throws(StoreError) -> Removal? {
    let removal: Removal? = try withWriteLock {
      guard let last = trashEntries().last else { return nil }
      guard files.kind(path(last.name)) == .missing else {
        throw StoreError.templateExists(name: last.name)
      }
      try files.renameWithoutReplacing(trashPath + "/" + last.entry, to: path(last.name))
      do {
        try files.synchronizeDirectory(trashPath)
        try files.synchronizeDirectory(root)
      } catch {
        try? files.rename(path(last.name), to: trashPath + "/" + last.entry)
        throw error
      }
      return Removal(name: last.name, date: last.date)
    }
    guard var removal else { return nil }
    do {
      removal.damage = try template(named: removal.name).problem.map {
        "template '\(removal.name)': \($0)"
      }
    } catch {
      removal.damage = error.message
    }
    return removal
  }

  /// The templates in the trash, oldest removal first: what `undoRemove` brings back, last first.
  public func removals() -> [Removal] {
    trashEntries().map { Removal(name: $0.name, date: $0.date) }
  }

  /// The trash's `<n>-<name>@<µs>` (or `<n>-<name>`) folders, oldest first.
  func trashEntries() -> [(number: Int, name: String, entry: String, date: Date?)] {
    var result: [(number: Int, name: String, entry: String, date: Date?)] = []
    for entry in files.entries(trashPath) {
      guard let dash = entry.firstIndex(of: "-"), let number = Int(entry[..<dash]),
        number > 0, number < 1_000_000_000, String(number) == entry[..<dash],
        let name = trashName(entry), files.kind(trashPath + "/" + entry) == .directory
      else { continue }
      var date: Date?
      if let at = entry.lastIndex(of: "@") {
        let digits = entry[entry.index(after: at)...]
        // Microseconds from 1970 to 9999, as memesh writes them.
        guard let micros = Int64(digits), String(micros) == digits, micros > 0,
          micros < 253_402_300_800_000_000
        else { continue }
        date = Date(timeIntervalSince1970: Double(micros) / 1_000_000)
      }
      result.append((number, name, entry, date))
    }
    return result.sorted { $0.number < $1.number }
  }

  /// The template name in a trash entry `<n>-<name>[@<µs>]`, or nil when it is not one.
  private func trashName(_ entry: String) -> String? {
    guard let dash = entry.firstIndex(of: "-") else { return nil }
    var name = entry[entry.index(after: dash)...]
    if let at = name.lastIndex(of: "@") { name = name[..<at] }
    return TemplateName.problem(String(name)) == nil ? String(name) : nil
  }

  /// Removes a trashed template: renamed to a `.tmp-` name first, so a removal cut short leaves
  /// a name memesh can prove it made.
  private func purge(_ entry: String) {
    let doomed = trashPath + "/" + DurableFiles.temporaryPrefix + "purge-" + entry
    guard (try? files.rename(trashPath + "/" + entry, to: doomed)) != nil else { return }
    files.removeQuietly(doomed)
  }

  /// Runs `body` holding the lock, after creating the folders and removing the `.tmp-`
  /// leftovers of changes cut short (the lock proves no one is making them now).
  private func withWriteLock<T>(_ body: () throws -> T) throws(StoreError) -> T {
    if let problem = MemeStore.makeDirectories(root) {
      throw .fileSystem(action: "create", path: root, reason: problem)
    }
    do {
      let folder = try files.rootDirectory()
      return try StoreLock.withExclusiveLock(".lock", in: folder) {
        for place in [root, trashPath] {
          for entry in files.entries(place) where entry.hasPrefix(DurableFiles.temporaryPrefix) {
            files.removeQuietly(place + "/" + entry)
          }
        }
        return try body()
      }
    } catch let error as StoreError {
      throw error
    } catch let error as SystemError {
      throw .system(error)
    } catch {
      throw .fileSystem(action: "change", path: root, reason: "\(error)")
    }
  }
}
