import Foundation
import MemeCore
import Testing

@testable import MemeStore
import MemeSystem

/// Each change, with each of its file operations made to fail in turn (disk full, failed fsync,
/// refused rename…), must leave the store exactly as before with a one-line error.
@Suite struct FaultInjectionTests {
  enum Change: String, CaseIterable, Sendable {
    case add, addLinked, update, delete, undoDelete

    func run(on store: MemeStore, _ scratch: Scratch) throws {
      switch self {
      case .add: _ = try store.add(FakeMeme.make(top: "NEW", bottom: "ONE"))
      case .addLinked: _ = try store.add(FakeMeme.makeLinked(top: "NEW", bottom: "ONE", in: scratch))
      case .update:
        _ = try store.update(
          id: 1,
          with: FakeMeme.make(top: "EDIT", bottom: "", sha: String(repeating: "f", count: 64)))
      case .delete: try store.delete(id: 2)
      case .undoDelete: _ = try store.undoDelete()
      }
    }
  }

  /// A store with memes 1 and 2 live and 3 in the trash.
  static func makeStore(_ scratch: Scratch) throws {
    let store = try MemeStore(directory: scratch.memes)
    for top in ["ONE", "TWO", "THREE"] { _ = try store.add(FakeMeme.make(top: top, bottom: "")) }
    try store.delete(id: 3)
  }

  static func errorCode(for operation: FileOperation) -> Int32 {
    switch operation {
    case .createFile: ENOSPC
    case .synchronizeFile, .synchronizeDirectory: EIO
    case .rename: EXDEV
    case .createDirectory: EACCES
    case .linkFile: EXDEV
    }
  }

  @Test(arguments: Change.allCases, FileOperation.allCases)
  func everyFailureLeavesTheStoreAsBefore(_ change: Change, _ operation: FileOperation) throws {
    // How many calls of this operation the change makes when nothing fails.
    let counting = try Scratch()
    defer { counting.cleanUp() }
    try Self.makeStore(counting)
    let counter = FaultyFileSystem(fault: nil)
    try change.run(on: MemeStore(directory: counting.memes, fileSystem: counter), counting)
    let calls = counter.callCounts[operation, default: 0]
    #expect(
      calls > 0 || operation == .createDirectory || change == .undoDelete
        || (operation == .linkFile && change != .addLinked))

    for occurrence in 0..<calls {
      let scratch = try Scratch()
      defer { scratch.cleanUp() }
      try Self.makeStore(scratch)
      let before = snapshot(scratch.memes)
      let listed = try MemeStore(directory: scratch.memes).memes()
      let faulty = FaultyFileSystem(
        fault: (operation, occurrence + 1, Self.errorCode(for: operation)))
      let store = MemeStore(directory: scratch.memes, fileSystem: faulty)
      do {
        try change.run(on: store, scratch)
        // Only the derived cache may fail without failing the change, and linking the original,
        // which then is written instead.
        let failed = faulty.failedPath ?? "-"
        let linking = change == .addLinked && failed.contains("/.tmp-original.")
        // The folder's own record after an edit is written on a best-effort basis too.
        let record = change == .update && failed.contains("record.plist")
        #expect(failed.contains("cache") || linking || record, "\(failed)")
        if linking {
          let added = try #require(try store.memes().last)
          #expect(FakeMeme.filesMatch(added, in: store))
          #expect(try Data(contentsOf: store.url(for: added.originalFile))
            == FakeMeme.originalBytes(top: "NEW"))
        }
        continue
      } catch let error as StoreError {
        #expect(!error.message.contains("\n"))
        #expect(error.message.hasPrefix("cannot "), "\(error.message)")
        #expect(error.message.contains(scratch.path), "\(error.message)")
      }
      #expect(snapshot(scratch.memes) == before, "\(change) \(operation) #\(occurrence + 1)")
      let reopened = try MemeStore(directory: scratch.memes)
      #expect(try reopened.memes() == listed)
      // And the store still works.
      try change.run(on: reopened, scratch)
    }
  }
}
