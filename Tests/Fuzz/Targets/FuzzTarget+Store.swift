import Foundation
import MemeCore
import MemeStore

extension FuzzTarget {
  /// `index.plist` bytes, opened as a store the way memesh opens one, then listed and read.
  static let storeIndex = FuzzTarget(name: "store-index", summary: "the store's index.plist") {
    data in
    let directory = Scratch.fresh("store")
    // Two meme folders with real-looking files, so entries that name them get past the checks.
    for id in [1, 2] {
      let folder = directory.appendingPathComponent("\(id)")
      try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      for (name, bytes) in [
        ("original.jpg", [0xFF, 0xD8, 0xFF, 0xE0]), ("meme.png", Scratch.pngMagic),
        ("thumb.png", Scratch.pngMagic),
      ] {
        try? Data(bytes).write(to: folder.appendingPathComponent(name))
      }
    }
    try? data.write(to: directory.appendingPathComponent("index.plist"))
    let store = MemeStore(directory: directory, fileSystem: POSIXFileSystem())
    if let notice = store.notice { precondition(!notice.contains("\n"), "two-line notice") }
    guard let memes = try? store.memes() else { return }
    for meme in memes.prefix(20) {
      _ = try? store.meme(id: meme.id)
      _ = try? store.memes(withOriginalSHA256: meme.originalSHA256)
    }
    _ = try? store.deletedMemes()
    // A second open reads the cache the first one wrote.
    _ = try? MemeStore(directory: directory, fileSystem: POSIXFileSystem()).memes()
  }

  /// `draft.plist` bytes, restored the way the editor restores a draft at start.
  static let draft = FuzzTarget(name: "draft", summary: "the editor's draft.plist") { data in
    let directory = Scratch.fresh("draft")
    try? data.write(to: directory.appendingPathComponent("draft.plist"))
    let drafts = DraftStore(directory: directory)
    if let document = try? drafts.load(), let step = document.currentStep,
      let sha = step.sourceSHA256
    {
      _ = try? drafts.imageData(sha256: sha)
    }
  }
}

/// A per-process folder under the temporary directory, emptied for each input.
enum Scratch {
  static let pngMagic: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
  static let root = FileManager.default.temporaryDirectory
    .appendingPathComponent("memesh-fuzz-\(getpid())")

  /// `root/name`, empty.
  static func fresh(_ name: String) -> URL {
    let url = root.appendingPathComponent(name)
    try? FileManager.default.removeItem(at: url)
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }
}
