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
  /// A new file being written and flushed under a temporary name on a thread of its own
  /// (`startWriting`), not yet in place.
  struct StartedFile: Sendable {
    let path: String
    let writing: Concurrently<(AtomicFile, String), SystemError>
  }

  /// Starts writing `data` beside `path` under a temporary name, flushed, on a thread of its
  /// own: the first step of `write(together:)` for files that come one at a time. The caller
  /// places them together (`place`) or gives them up (`discard`).
  func startWriting(_ data: Data, to path: String) -> StartedFile {
    let operations = operations
    return StartedFile(
      path: path,
      writing: Concurrently { [self] () throws(SystemError) in
        let (folder, name) = try locate(path, .write)
        let file = AtomicFile(name, in: folder, operations: operations)
        return (file, try file.writeTemporary(data))
      })
  }

  /// Waits for every started file, then renames each over its name in their order: every file
  /// is whole on disk before its name appears. The caller flushes the folders. On failure the
  /// temporary files are removed and the first failure in their order is thrown; files already
  /// renamed stay, for the caller to remove with the folder it is building.
  func place(_ started: [StartedFile]) throws {
    var written: [(file: AtomicFile, temporary: String)] = []
    var failure: SystemError?
    for file in started {
      do throws(SystemError) {
        written.append(try file.writing.result())
      } catch {
        failure = failure ?? error
      }
    }
    do throws(SystemError) {
      if let failure { throw failure }
      while let (file, temporary) = written.first {
        written.removeFirst()
        try file.moveIntoPlace(temporary, synchronizingDirectory: false)
      }
    } catch {
      for (file, temporary) in written { file.discard(temporary) }
      throw StoreError.system(error)
    }
  }

  /// Waits for every started file and removes what it wrote.
  func discard(_ started: [StartedFile]) {
    for file in started {
      if let (atomic, temporary) = try? file.writing.result() { atomic.discard(temporary) }
    }
  }
}
