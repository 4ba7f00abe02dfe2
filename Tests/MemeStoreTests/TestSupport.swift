import Foundation
import MemeCore
import Testing

@testable import MemeStore
import MemeSystem

#if canImport(Glibc)
  import Glibc
#endif

/// A fresh directory under the system temp folder, removed by `cleanUp`.
struct Scratch {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("memesh-store-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  var memes: URL { url.appendingPathComponent("memes") }
  var path: String { memes.path }

  func cleanUp() {
    try? FileManager.default.removeItem(at: url)
  }
}

/// The same bytes `memesh-store-torture` writes: they name the captions they were made for, so a
/// test can tell a meme's files belong to its record.
enum FakeMeme {
  static let pngMagic: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
  static let jpegMagic: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0]

  static func make(
    top: String, bottom: String, sha: String = String(repeating: "a", count: 64),
    originalFile: String? = nil
  ) -> NewMeme {
    let original = originalBytes(top: top)
    let rendered = Data(
      pngMagic + Array("meme|\(top)|\(bottom)".utf8) + [UInt8](repeating: 9, count: 9000))
    let thumbnail = Data(pngMagic + Array("thumb|\(top)|\(bottom)".utf8))
    return NewMeme(
      recipe: MemeRecipe(top: top, bottom: bottom, crop: .aspect(width: 1, height: 1)),
      format: .png,
      width: 600, height: 600, sourceName: "\(top).jpg", originalSHA256: sha,
      original: original, rendered: rendered, thumbnail: thumbnail, originalFile: originalFile)
  }

  /// The original a fake meme with this top caption carries.
  static func originalBytes(top: String) -> Data {
    Data(jpegMagic + Array("original|\(top)".utf8) + [UInt8](repeating: 7, count: 3000))
  }

  /// A fake meme whose original is also in a file outside the store (as the draft keeps it),
  /// written once, for the store to link.
  static func makeLinked(top: String, bottom: String, in scratch: Scratch) throws -> NewMeme {
    let source = scratch.url.appendingPathComponent("draft-\(top)")
    if !FileManager.default.fileExists(atPath: source.path) {
      try originalBytes(top: top).write(to: source)
    }
    return make(top: top, bottom: bottom, originalFile: source.path)
  }

  /// Whether a stored meme's rendered file and thumbnail are the ones made for its captions.
  static func filesMatch(_ meme: Meme, in store: MemeStore) -> Bool {
    let expected = make(top: meme.recipe.top, bottom: meme.recipe.bottom)
    let rendered = try? Data(contentsOf: store.url(for: meme.memeFile))
    let thumbnail = try? Data(contentsOf: store.url(for: meme.thumbnailFile))
    let original = try? Data(contentsOf: store.url(for: meme.originalFile))
    let originalTop = original.map { String(decoding: $0.dropFirst(4).prefix(200), as: UTF8.self) }
    return rendered == expected.rendered && thumbnail == expected.thumbnail
      && originalTop?.hasPrefix("original|") == true
  }
}

/// A clock the tests move by hand.
final class TestClock: @unchecked Sendable {
  private let lock = NSLock()
  private var seconds: Double = 1_790_000_000

  func now() -> Date { lock.withLock { Date(timeIntervalSince1970: seconds) } }
  func advance(_ interval: Double) { lock.withLock { seconds += interval } }
}

/// Which file operation a `FaultyFileSystem` makes fail.
enum FileOperation: String, CaseIterable, Sendable {
  case createFile, synchronizeFile, rename, synchronizeDirectory, createDirectory, linkFile
}

/// The real file system, except that the `occurrence`-th call of `operation` fails with `code`
/// (or every call of every writing operation, with `failEverything`).
final class FaultyFileSystem: FileOperations, @unchecked Sendable {
  private let lock = NSLock()
  private var counts: [FileOperation: Int] = [:]
  let fault: (operation: FileOperation, occurrence: Int, code: Int32)?
  let failEverything: Int32?
  /// The path of the call that was made to fail.
  private(set) var failedPath: String?

  init(
    fault: (operation: FileOperation, occurrence: Int, code: Int32)?, failEverything: Int32? = nil
  ) {
    self.fault = fault
    self.failEverything = failEverything
  }

  /// How many calls of each operation were made.
  var callCounts: [FileOperation: Int] { lock.withLock { counts } }

  private func check(_ operation: FileOperation, _ path: String) throws(SystemError) {
    let failure: Int32? = lock.withLock {
      counts[operation, default: 0] += 1
      if let code = failEverything { return code }
      guard let fault, fault.operation == operation, fault.occurrence == counts[operation]
      else { return nil }
      failedPath = path
      return fault.code
    }
    if let failure { throw SystemError(.write, path: path, code: failure) }
  }

  func createFile(
    _ name: String, in directory: Directory, contents: Data, mode: mode_t, flushedNext: Bool
  ) throws(SystemError) {
    try check(.createFile, directory.path(of: name))
    try directory.createFile(name, contents: contents, mode: mode, flushedNext: flushedNext)
  }

  func synchronizeFile(_ name: String, in directory: Directory) throws(SystemError) {
    try check(.synchronizeFile, directory.path(of: name))
    try directory.synchronizeFile(name)
  }

  func rename(_ name: String, in source: Directory, to newName: String, in destination: Directory)
    throws(SystemError)
  {
    try check(.rename, source.path(of: name))
    try source.rename(name, to: newName, in: destination)
  }

  func synchronize(_ directory: Directory) throws(SystemError) {
    try check(.synchronizeDirectory, directory.path)
    try directory.synchronize()
  }

  func makeDirectory(_ name: String, in directory: Directory) throws(SystemError) {
    try check(.createDirectory, directory.path(of: name))
    try directory.makeDirectory(name)
  }

  func link(_ name: String, in source: Directory, to newName: String, in destination: Directory)
    throws(SystemError)
  {
    try check(.linkFile, destination.path(of: newName))
    try source.link(name, to: newName, in: destination)
  }
}

/// Every regular file under `directory` but the lock and the derived cache, with its bytes.
func snapshot(_ directory: URL) -> [String: Data] {
  var result: [String: Data] = [:]
  let root = directory.path
  guard let walker = FileManager.default.enumerator(atPath: root) else { return result }
  while let relative = walker.nextObject() as? String {
    let name = (relative as NSString).lastPathComponent
    if name == ".lock" || name == ".index.cache" { continue }
    if case .file = FileKind(path: root + "/" + relative) {
      result[relative] = FileManager.default.contents(atPath: root + "/" + relative)
    }
  }
  return result
}

/// The built `memesh-store-torture`, next to the test bundle or in `.build/debug`.
func tortureExecutable() -> URL? {
  let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
  let folders = [
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
    Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent(),
    packageRoot.appendingPathComponent(".build/debug"),
  ]
  return folders.map { $0.appendingPathComponent("memesh-store-torture") }
    .first { FileManager.default.isExecutableFile(atPath: $0.path) }
}

/// A running torture process whose output is collected.
final class TortureProcess: @unchecked Sendable {
  let process = Process()
  private let output = Pipe()
  private let errors = Pipe()

  init(_ executable: URL, _ arguments: [String]) throws {
    process.executableURL = executable
    process.arguments = arguments
    process.standardOutput = output
    process.standardError = errors
    try process.run()
  }

  func kill() {
    Glibc.kill(process.processIdentifier, SIGKILL)
  }

  /// Waits for the end; returns the exit status, stdout lines and stderr.
  func finish() -> (status: Int32, lines: [String], errors: String) {
    let out = output.fileHandleForReading.readDataToEndOfFile()
    let err = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let lines = String(decoding: out, as: UTF8.self).split(separator: "\n").map(String.init)
    return (process.terminationStatus, lines, String(decoding: err, as: UTF8.self))
  }
}
