import Foundation
import MemeCore
import MemeSystem
import Testing

@testable import MemeStore

#if canImport(Glibc)
  import Glibc
#endif

/// The templates on disk: added whole or not at all, read back checked, removed to a trash that
/// `undoRemove` empties, damaged folders reported and kept.
struct TemplateStoreTests {
  static let picture = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3])

  func sample(_ name: String = "drake") -> Template {
    Template(
      name: name, title: "Drake-like",
      recipe: MemeRecipe(
        font: "Oswald", crop: .aspect(width: 1, height: 1),
        boxes: [
          TextBox(
            text: "no", placement: .rect(TextFrame(x: 0.5, y: 0, width: 0.5, height: 0.5)),
            fill: .black, outline: .none),
          TextBox(text: "yes", placement: .bottom, alignment: .right, angle: -10),
        ]),
      pictureFile: "", format: .png,
      width: 480, height: 480, styles: [TemplateStyle(name: "blue", file: "", format: .jpeg)],
      origin: "/somewhere/drake", created: Date(timeIntervalSince1970: 1_800_000_000))
  }

  func withStore(_ body: (TemplateStore, Scratch) throws -> Void) throws {
    let scratch = try Scratch()
    defer { scratch.cleanUp() }
    try body(TemplateStore.open(home: scratch.url), scratch)
  }

  @Test func anAddedTemplateReadsBackTheSame() throws {
    try withStore { store, scratch in
      let added = try store.add(
        sample(), picture: Self.picture, styles: [Data([0xFF, 0xD8, 0xFF])],
        thumbnail: Data([1]))
      #expect(added.pictureFile == "picture.png")
      #expect(added.styles == [TemplateStyle(name: "blue", file: "style-blue.jpg", format: .jpeg)])
      let read = try store.template(named: "drake")
      #expect(read == added)
      #expect(try store.data(of: read.pictureFile, in: read) == Self.picture)
      let (all, problems) = store.list()
      #expect(all == [added] && problems.isEmpty)
      #expect(store.names() == ["drake"])
      let folder = scratch.url.appendingPathComponent("templates/drake").path
      let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
      #expect(names == ["picture.png", "style-blue.jpg", "template.plist", "thumb.png"])
      // Private, as everything memesh keeps.
      var status = stat()
      #expect(stat(folder + "/picture.png", &status) == 0 && status.st_mode & 0o777 == 0o600)
    }
  }

  @Test func aTakenNameIsRefusedAndNothingIsWritten() throws {
    try withStore { store, scratch in
      try store.add(sample(), picture: Self.picture, styles: [Data([1])])
      #expect(throws: StoreError.templateExists(name: "drake")) {
        try store.add(self.sample(), picture: Data([9]), styles: [Data([1])])
      }
      #expect(try store.data(of: "picture.png", in: store.template(named: "drake")) == Self.picture)
      let entries = try FileManager.default.contentsOfDirectory(
        atPath: scratch.url.appendingPathComponent("templates").path)
      #expect(entries.sorted() == [".lock", "drake"])
    }
  }

  @Test func badNamesAreRefused() throws {
    try withStore { store, _ in
      for name in [
        "", "Drake", "../x", ".hidden", "-dash", "trash", String(repeating: "a", count: 65),
      ] {
        #expect(throws: StoreError.self) {
          try store.add(self.sample(name), picture: Self.picture, styles: [Data([1])])
        }
        #expect(throws: StoreError.self) { try store.template(named: name) }
      }
      #expect(throws: StoreError.noTemplate(name: "nope")) { try store.template(named: "nope") }
    }
  }

  @Test func aFailedWriteLeavesNoTemplate() throws {
    let scratch = try Scratch()
    defer { scratch.cleanUp() }
    let failing = FailingCreate(failOn: "template.plist")
    let store = TemplateStore(
      directory: scratch.url.appendingPathComponent("templates"), fileSystem: failing)
    #expect(throws: StoreError.self) {
      try store.add(self.sample(), picture: Self.picture, styles: [Data([1])])
    }
    let entries = try FileManager.default.contentsOfDirectory(
      atPath: scratch.url.appendingPathComponent("templates").path)
    #expect(entries == [".lock"])
    #expect(store.list().templates.isEmpty)
  }

  @Test func removeGoesToTheTrashAndUndoBringsItBack() throws {
    try withStore { store, _ in
      try store.add(sample("one"), picture: Self.picture, styles: [Data([1])])
      try store.add(sample("two"), picture: Self.picture, styles: [Data([1])])
      try store.remove(named: "one")
      try store.remove(named: "two")
      #expect(store.list().templates.isEmpty)
      #expect(store.removals().map(\.name) == ["one", "two"])
      // When each was removed is kept with it, for undo's one timeline.
      let dates = store.removals().compactMap(\.date)
      #expect(dates.count == 2 && dates[0] <= dates[1])
      // A new session brings them back newest first.
      let again = TemplateStore(directory: store.directory)
      #expect(try again.undoRemove()?.name == "two")
      #expect(try again.undoRemove()?.name == "one")
      #expect(try again.undoRemove() == nil)
      #expect(again.names() == ["one", "two"])
      #expect(try again.template(named: "one").recipe == sample("one").recipe)
    }
  }

  @Test func undoIsRefusedWhenTheNameWasTakenSince() throws {
    try withStore { store, _ in
      try store.add(sample(), picture: Self.picture, styles: [Data([1])])
      try store.remove(named: "drake")
      try store.add(sample(), picture: Data([7]), styles: [Data([1])])
      #expect(throws: StoreError.templateExists(name: "drake")) { try store.undoRemove() }
      #expect(store.removals().map(\.name) == ["drake"])
      #expect(try store.data(of: "picture.png", in: store.template(named: "drake")) == Data([7]))
    }
  }

  @Test func theTrashKeepsItsLimit() throws {
    let scratch = try Scratch()
    defer { scratch.cleanUp() }
    let store = TemplateStore(
      directory: scratch.url.appendingPathComponent("templates"), trashLimit: 2)
    for name in ["a", "b", "c"] {
      try store.add(sample(name), picture: Self.picture, styles: [Data([1])])
      try store.remove(named: name)
    }
    #expect(store.trashEntries().map(\.name) == ["b", "c"])
    // A damaged template in the trash is never purged, nor counted.
    let broken = scratch.url.appendingPathComponent("templates/broken")
    try FileManager.default.createDirectory(at: broken, withIntermediateDirectories: true)
    try Data("damaged".utf8).write(to: broken.appendingPathComponent("template.plist"))
    try store.remove(named: "broken")
    for name in ["d", "e"] {
      try store.add(sample(name), picture: Self.picture, styles: [Data([1])])
      try store.remove(named: name)
    }
    #expect(store.trashEntries().map(\.name) == ["broken", "d", "e"])
  }

  /// A store holding drake and six damaged folders beside it: a record with a size memesh
  /// never writes (huge), one from a newer memesh (newer), a folder without a record (empty), a
  /// symlink (linked), a record naming a file outside its folder (escape) and a template whose
  /// picture went missing (gone). `body` gets the store and its templates folder.
  func withDamagedFolders(_ body: (TemplateStore, String) throws -> Void) throws {
    try withStore { store, scratch in
      try store.add(sample(), picture: Self.picture, styles: [Data([1])])
      let root = scratch.url.appendingPathComponent("templates").path
      let manager = FileManager.default
      // A record with a number memesh never writes.
      try manager.createDirectory(atPath: root + "/huge", withIntermediateDirectories: false)
      let good = try String(contentsOfFile: root + "/drake/template.plist", encoding: .utf8)
      try good.replacingOccurrences(of: "<string>drake</string>", with: "<string>huge</string>")
        .replacingOccurrences(of: "<integer>480</integer>", with: "<integer>99999999999</integer>")
        .write(toFile: root + "/huge/template.plist", atomically: false, encoding: .utf8)
      // A record from a newer memesh.
      try manager.createDirectory(atPath: root + "/newer", withIntermediateDirectories: false)
      try good.replacingOccurrences(of: "<string>drake</string>", with: "<string>newer</string>")
        .replacingOccurrences(
          of: "<key>version</key>\n\t<integer>1</integer>",
          with: "<key>version</key>\n\t<integer>7</integer>"
        )
        .write(toFile: root + "/newer/template.plist", atomically: false, encoding: .utf8)
      // A folder without a record, a symlink, and a record naming a file outside its folder.
      try manager.createDirectory(atPath: root + "/empty", withIntermediateDirectories: false)
      try manager.createSymbolicLink(atPath: root + "/linked", withDestinationPath: root + "/drake")
      try manager.createDirectory(atPath: root + "/escape", withIntermediateDirectories: false)
      try good.replacingOccurrences(of: "<string>drake</string>", with: "<string>escape</string>")
        .replacingOccurrences(of: "picture.png", with: "../drake/picture.png")
        .write(toFile: root + "/escape/template.plist", atomically: false, encoding: .utf8)
      // A template whose picture went missing is listed with its problem.
      try manager.copyItem(atPath: root + "/drake", toPath: root + "/gone")
      try good.replacingOccurrences(of: "<string>drake</string>", with: "<string>gone</string>")
        .write(toFile: root + "/gone/template.plist", atomically: false, encoding: .utf8)
      try manager.removeItem(atPath: root + "/gone/picture.png")

      try body(store, root)
    }
  }

  @Test func damagedFoldersAreListedWithWhatIsWrong() throws {
    try withDamagedFolders { store, _ in
      let (templates, problems) = store.list()
      #expect(templates.map(\.name) == ["drake", "gone"])
      #expect(templates[1].problem == "its picture 'picture.png' is missing")
      #expect(problems.count == 5)
      let joined = problems.joined(separator: "\n")
      #expect(joined.contains("empty/template.plist': no such file"))
      #expect(joined.contains("escape/template.plist': the file name '../drake/picture.png'"))
      #expect(joined.contains("huge/template.plist': an impossible size 99999999999×99999999999"))
      #expect(joined.contains("linked': it is a symlink, refused"))
      #expect(
        joined.contains("newer/template.plist': written by a newer memesh (template version 7"))
    }
  }

  @Test func removingAnotherTemplateLeavesDamagedFoldersAsTheyAre() throws {
    try withDamagedFolders { store, root in
      try store.remove(named: "drake")
      for name in ["huge", "newer", "empty", "linked", "escape", "gone"] {
        #expect(FileKind(path: root + "/" + name) != .missing)
      }
      #expect(try store.undoRemove()?.name == "drake")
    }
  }

  @Test func aDamagedFolderRemovedOnRequestGoesToTheTrashAsItIsSayingWhy() throws {
    try withDamagedFolders { store, root in
      for name in ["huge", "newer", "empty", "escape", "gone"] {
        let removal = try store.remove(named: name)
        #expect(removal.damage != nil, "\(name)")
        #expect(FileKind(path: root + "/" + name) == .missing)
      }
      #expect(store.list().problems.count == 1)
    }
  }

  @Test func aSymlinkInsideTheTemplatesFolderIsNotRemovedButKept() throws {
    try withDamagedFolders { store, root in
      #expect(throws: StoreError.self) { try store.remove(named: "linked") }
      #expect(FileKind(path: root + "/linked") == .symlink)
    }
  }

  @Test func undoingTheRemovalOfADamagedTemplateBringsItBackWithItsProblem() throws {
    try withDamagedFolders { store, _ in
      try store.remove(named: "gone")
      let back = try store.undoRemove()
      #expect(back?.name == "gone" && back?.damage?.contains("is missing") == true)
    }
  }

  @Test func leftoversOfACutShortAddAreRemovedUnderTheLock() throws {
    try withStore { store, scratch in
      try store.add(sample("first"), picture: Self.picture, styles: [Data([1])])
      let root = scratch.url.appendingPathComponent("templates").path
      let leftover = root + "/.tmp-new-second-0000abcd"
      try FileManager.default.createDirectory(atPath: leftover, withIntermediateDirectories: false)
      try Data([1]).write(to: URL(fileURLWithPath: leftover + "/picture.png"))
      #expect(store.list().problems.isEmpty)
      try store.add(sample("second"), picture: Self.picture, styles: [Data([1])])
      #expect(FileKind(path: leftover) == .missing)
    }
  }

  @Test func aSymlinkedTemplatesFolderIsRefused() throws {
    let scratch = try Scratch()
    defer { scratch.cleanUp() }
    let elsewhere = scratch.url.appendingPathComponent("elsewhere").path
    try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: false)
    try FileManager.default.createSymbolicLink(
      atPath: scratch.url.appendingPathComponent("templates").path, withDestinationPath: elsewhere)
    let store = TemplateStore.open(home: scratch.url)
    #expect(throws: StoreError.self) {
      try store.add(self.sample(), picture: Self.picture, styles: [Data([1])])
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere).isEmpty)
  }
}

/// The real calls, except that creating a file of one name fails as a full disk would.
struct FailingCreate: FileOperations {
  var failOn: String

  func createFile(
    _ name: String, in directory: Directory, contents: Data, mode: mode_t, flushedNext: Bool
  ) throws(SystemError) {
    if name.contains(failOn) {
      throw SystemError(.write, path: directory.path(of: name), code: ENOSPC)
    }
    try directory.createFile(name, contents: contents, mode: mode, flushedNext: flushedNext)
  }
}
