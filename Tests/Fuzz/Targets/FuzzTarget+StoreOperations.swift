import Foundation
import MemeCore
import MemeStore
import MemeSystem

extension FuzzTarget {
  /// The store's own targets, in the order `make fuzz` runs them.
  static let storeTargets: [FuzzTarget] = [storeIndex, draft, storeOperations]

  /// A byte string (up to 12 operations) decoded into store operations (share, edit, delete,
  /// undo, restart, a change killed midway, an older index put back, foreign folders) against a
  /// scratch home, checking what the model test checks: no meme whose share succeeded is lost unless the trash
  /// purged it, no id is handed out twice, every listed meme is whole.
  static let storeOperations = FuzzTarget(
    name: "store-operations", summary: "store operations decoded from bytes"
  ) { data in
    var run = StoreOperationsRun(home: Scratch.fresh("operations"))
    var bytes = data.makeIterator()
    var steps = 0
    while steps < 12, let operation = bytes.next() {
      let argument = Int(bytes.next() ?? 0)
      run.apply(operation % 10, argument)
      // Checked after each restart, killed change and index put back, and at the end (checking
      // after every step halved the runs a second for little more found).
      if [5, 6, 8].contains(operation % 10) { run.check() }
      steps += 1
    }
    run.check()
  }
}

/// The state `storeOperations` keeps between operations.
struct StoreOperationsRun {
  let home: URL
  var memes: URL { home.appendingPathComponent("memes") }
  static let trashLimit = 3
  var store: MemeStore
  /// Every id a share returned, in order.
  var handedOut: [Int] = []
  /// Ids deleted, oldest first; beyond `trashLimit` of them the oldest may be purged.
  var deletions: [Int] = []
  /// An index saved earlier, to be put back.
  var backup: Data?

  init(home: URL) {
    self.home = home
    store = MemeStore(
      directory: home.appendingPathComponent("memes"), fileSystem: SystemFileOperations(),
      trashLimit: Self.trashLimit)
  }

  mutating func reopen(_ operations: any FileOperations = SystemFileOperations()) {
    store = MemeStore(directory: memes, fileSystem: operations, trashLimit: Self.trashLimit)
  }

  static func meme(_ top: String) -> NewMeme {
    let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    return NewMeme(
      recipe: MemeRecipe(top: top, bottom: ""), format: .png, width: 10, height: 10,
      sourceName: "x.png", originalSHA256: String(repeating: "a", count: 64),
      original: Data(png + Array(top.utf8)), rendered: Data(png + Array("meme \(top)".utf8)),
      thumbnail: Data(png + Array("thumb \(top)".utf8)))
  }

  func liveIDs() -> [Int] { ((try? store.memes()) ?? []).map(\.id) }

  mutating func apply(_ operation: UInt8, _ argument: Int) {
    let live = liveIDs()
    let pick = live.isEmpty ? nil : live[argument % live.count]
    switch operation {
    case 0, 1:
      if let meme = try? store.add(Self.meme("M\(handedOut.count)")) {
        precondition(!handedOut.contains(meme.id), "id \(meme.id) handed out twice")
        precondition(meme.id > (handedOut.max() ?? 0), "id \(meme.id) below an earlier one")
        handedOut.append(meme.id)
      }
    case 2:
      if let pick { _ = try? store.update(id: pick, with: Self.meme("E\(argument)")) }
    case 3:
      if let pick, (try? store.delete(id: pick)) != nil { deletions.append(pick) }
    case 4:
      if let back = try? store.undoDelete() { deletions.removeAll { $0 == back.id } }
    case 5:
      reopen()
    case 6:
      // A change killed after `argument % 12` file operations, then a new session.
      reopen(CutShortFileOperations(survive: argument % 12))
      switch argument % 3 {
      case 0:
        if let meme = try? store.add(Self.meme("K")) { handedOut.append(meme.id) }
      case 1: if let pick { _ = try? store.update(id: pick, with: Self.meme("K")) }
      default: if let pick, (try? store.delete(id: pick)) != nil { deletions.append(pick) }
      }
      reopen()
    case 7:
      backup = try? Data(contentsOf: memes.appendingPathComponent("index.plist"))
    case 8:
      // An older index put back (and the cache left as it was).
      if let backup { try? backup.write(to: memes.appendingPathComponent("index.plist")) }
      reopen()
    default:
      // A folder of someone else's where an id could go: kept, its id never handed out.
      let folder = memes.appendingPathComponent("\((handedOut.max() ?? 0) + 1 + argument % 3)")
      try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try? Data("foreign".utf8).write(to: folder.appendingPathComponent("notes.txt"))
    }
  }

  /// No shared meme is lost (it is live, in the trash, or at least its folder is kept) unless
  /// the trash purged it; every listed meme is whole.
  func check() {
    let fresh = MemeStore(
      directory: memes, fileSystem: SystemFileOperations(), trashLimit: Self.trashLimit)
    let listed = (try? fresh.memes()) ?? []
    for meme in listed where meme.problem != nil {
      preconditionFailure("meme \(meme.id) is listed but not whole: \(meme.problem ?? "")")
    }
    let trashed = Set(((try? fresh.deletedMemes()) ?? []).map(\.id))
    let live = Set(listed.map(\.id))
    let purgeable = Set(deletions)
    for id in handedOut where !live.contains(id) && !trashed.contains(id) && !purgeable.contains(id) {
      let folder = memes.appendingPathComponent("\(id)").path
      let trashFolder = memes.appendingPathComponent("trash/\(id)").path
      precondition(
        FileKind(path: folder) == .directory || FileKind(path: trashFolder) == .directory,
        "meme \(id) was lost")
    }
  }
}
