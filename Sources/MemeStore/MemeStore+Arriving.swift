import Foundation
import MemeCore
import MemeSystem

/// What a share knows of a new meme before rendering it: all a `NewMeme` holds but the encoded
/// file, its size and its thumbnail, which come while the store adds it (`ArrivingMeme`).
public struct UnrenderedMeme: Sendable {
  /// The crop, font and text boxes.
  public var recipe: MemeRecipe
  public var format: ImageFormat
  public var sourceName: String
  public var originalSHA256: String
  public var original: Data
  /// As `NewMeme.originalFile`.
  public var originalFile: String?

  public init(
    recipe: MemeRecipe, format: ImageFormat, sourceName: String, originalSHA256: String,
    original: Data, originalFile: String? = nil
  ) {
    self.recipe = recipe
    self.format = format
    self.sourceName = sourceName
    self.originalSHA256 = originalSHA256
    self.original = original
    self.originalFile = originalFile
  }
}

extension NewMeme {
  /// The meme without its rendered parts.
  var unrendered: UnrenderedMeme {
    UnrenderedMeme(
      recipe: recipe, format: format, sourceName: sourceName, originalSHA256: originalSHA256,
      original: original, originalFile: originalFile)
  }
}

/// The parts of a meme made while the store adds it (`MemeStore.add(_:arriving:)`): the encoded
/// file with its size first, then the thumbnail. Each part counts the first time it is given.
/// `abandon` says the rest will never come (the render failed or was interrupted): the add then
/// stops, leaving the store as it was.
public final class ArrivingMeme: @unchecked Sendable {
  /// What the add throws when the parts were abandoned.
  public struct Abandoned: Error {}

  private let condition = NSCondition()
  /// Set once each, read under the condition's lock.
  private var encoded: (data: Data, width: Int, height: Int)?
  private var thumbnail: Data?
  private var abandoned = false

  public init() {}

  /// Parts given all at once (a meme rendered before its add).
  convenience init(_ meme: NewMeme) {
    self.init()
    deliver(encoded: meme.rendered, width: meme.width, height: meme.height)
    deliver(thumbnail: meme.thumbnail)
  }

  /// The encoded meme and its size.
  public func deliver(encoded data: Data, width: Int, height: Int) {
    condition.withLock {
      if encoded == nil { encoded = (data, width, height) }
      condition.broadcast()
    }
  }

  /// The thumbnail (PNG).
  public func deliver(thumbnail data: Data) {
    condition.withLock {
      if thumbnail == nil { thumbnail = data }
      condition.broadcast()
    }
  }

  /// No more parts will come.
  public func abandon() {
    condition.withLock {
      abandoned = true
      condition.broadcast()
    }
  }

  /// Waits for the encoded meme; throws `Abandoned` when it will not come.
  func waitForEncoded() throws(Abandoned) -> (data: Data, width: Int, height: Int) {
    try wait { $0.encoded }
  }

  /// Waits for the thumbnail; throws `Abandoned` when it will not come.
  func waitForThumbnail() throws(Abandoned) -> Data {
    try wait { $0.thumbnail }
  }

  private func wait<Part>(for part: (ArrivingMeme) -> Part?) throws(Abandoned) -> Part {
    let found = condition.withLock { () -> Part? in
      while true {
        if let value = part(self) { return value }
        if abandoned { return nil }
        condition.wait()
      }
    }
    guard let found else { throw Abandoned() }
    return found
  }
}

extension DurableFiles {
  /// A new file written under a temporary name beside its path and being flushed on a thread of
  /// its own (`startWriting`), not yet in place.
  struct StartedFile: Sendable {
    let file: AtomicFile
    let temporary: String
    let flushing: Concurrently<Void, SystemError>
  }

  /// Writes `data` under a temporary name beside `path` and starts flushing it on a thread of
  /// its own: the first steps of `write(together:)` for files that come one at a time, written
  /// on the caller's thread in the order they come. The caller places them together (`place`)
  /// or gives them up (`discard`). Nothing is left behind when the write fails.
  func startWriting(_ data: Data, to path: String) throws -> StartedFile {
    do throws(SystemError) {
      let (folder, name) = try locate(path, .write)
      let file = AtomicFile(name, in: folder, operations: operations)
      let temporary = AtomicFile.temporaryName(for: name)
      do throws(SystemError) {
        try operations.createFile(
          temporary, in: folder, contents: data, mode: 0o600, flushedNext: true)
      } catch {
        file.discard(temporary)
        throw SystemError(error.operation, path: path, code: error.code, refusal: error.refusal)
      }
      let operations = operations
      return StartedFile(
        file: file, temporary: temporary,
        flushing: Concurrently { () throws(SystemError) in
          do throws(SystemError) {
            try operations.synchronizeFile(temporary, in: folder)
          } catch {
            throw SystemError(
              error.operation, path: path, code: error.code, refusal: error.refusal)
          }
        })
    } catch {
      throw StoreError.system(error)
    }
  }

  /// Waits for every started file to be flushed, then renames each over its name in their
  /// order: every file is whole on disk before its name appears. The caller flushes the
  /// folders. On failure the temporary files are removed and the first failure in their order
  /// is thrown; files already renamed stay, for the caller to remove with the folder it is
  /// building.
  func place(_ started: [StartedFile]) throws {
    var failure: SystemError?
    for file in started {
      do throws(SystemError) {
        try file.flushing.result()
      } catch {
        failure = failure ?? error
      }
    }
    var waiting = started
    do throws(SystemError) {
      if let failure { throw failure }
      while let next = waiting.first {
        waiting.removeFirst()
        try next.file.moveIntoPlace(next.temporary, synchronizingDirectory: false)
      }
    } catch {
      for file in waiting { file.file.discard(file.temporary) }
      throw StoreError.system(error)
    }
  }

  /// Waits for every started file's flush and removes it.
  func discard(_ started: [StartedFile]) {
    for file in started {
      _ = try? file.flushing.result()
      file.file.discard(file.temporary)
    }
  }
}
