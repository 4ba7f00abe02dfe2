import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// memesh's one way to replace a file: write a new file under a temporary name beside it, flush
/// it, rename it over the name, flush the folder. A crash or a failure at any step leaves the
/// old file whole (and at worst a temporary file, whose name says memesh made it).
public struct AtomicFile: Sendable {
  /// Where the file goes.
  public let directory: Directory
  public let name: String
  /// The permissions of a new file (0600 for memesh's own files).
  public let mode: mode_t
  public let operations: any FileOperations

  public init(
    _ name: String, in directory: Directory, mode: mode_t = 0o600,
    operations: any FileOperations = SystemFileOperations()
  ) {
    self.name = name
    self.directory = directory
    self.mode = mode
    self.operations = operations
  }

  /// Writes `data` in place: temporary file, fsync, rename and (unless `synchronizingDirectory`
  /// is false because the caller flushes the folder once for several files) the folder's fsync.
  /// `temporaryName` names the temporary file (`AtomicFile.temporaryName(for:)` by default).
  public func write(
    _ data: Data, temporaryName: String? = nil, synchronizingDirectory: Bool = true
  ) throws(SystemError) {
    let temporary = try writeTemporary(data, temporaryName: temporaryName)
    try moveIntoPlace(temporary, synchronizingDirectory: synchronizingDirectory)
  }

  /// The first half of `write`: the new file written and flushed under a temporary name, which
  /// is returned. Nothing is left behind on failure.
  public func writeTemporary(_ data: Data, temporaryName: String? = nil) throws(SystemError)
    -> String
  {
    let temporary = temporaryName ?? Self.temporaryName(for: name)
    do {
      try operations.createFile(
        temporary, in: directory, contents: data, mode: mode, flushedNext: true)
      try operations.synchronizeFile(temporary, in: directory)
    } catch {
      try? operations.remove(temporary, in: directory)
      throw SystemError(error.operation, path: directory.path(of: name), code: error.code,
        refusal: error.refusal)
    }
    return temporary
  }

  /// The second half: renames the temporary file over the name (removing it on failure) and
  /// flushes the folder.
  public func moveIntoPlace(_ temporary: String, synchronizingDirectory: Bool = true)
    throws(SystemError)
  {
    do {
      try operations.rename(temporary, in: directory, to: name, in: directory)
    } catch {
      try? operations.remove(temporary, in: directory)
      throw SystemError(.write, path: directory.path(of: name), code: error.code)
    }
    if synchronizingDirectory { try operations.synchronize(directory) }
  }

  /// Removes a temporary file `writeTemporary` returned (a write given up).
  public func discard(_ temporary: String) {
    try? operations.remove(temporary, in: directory)
  }

  // MARK: - Temporary names

  /// What every temporary name memesh makes starts with: anything in memesh's own folders
  /// starting so is a leftover once no session holds the folder's lock.
  public static let temporaryPrefix = ".tmp-"

  /// `.tmp-<name>-<8 hex digits>`.
  public static func temporaryName(for name: String) -> String {
    temporaryPrefix + name + "-" + randomToken()
  }

  /// Eight random hex digits, for temporary and revision file names.
  public static func randomToken() -> String {
    let value = UInt32.random(in: 0...UInt32.max)
    let hex = String(value, radix: 16)
    return String(repeating: "0", count: 8 - hex.count) + hex
  }
}
