import Foundation

/// The calls that change the disk, each relative to an open `Directory`: the seam where tests
/// inject faults (a full disk, a failing fsync, a refused rename, a process killed midway).
/// `SystemFileOperations` makes the real calls; the default implementations are those calls.
public protocol FileOperations: Sendable {
  /// Creates the new file `name` in `directory` holding `contents` (not yet synced).
  /// `flushedNext` says the caller flushes it right after (a large one then goes past the page
  /// cache: `DirectIO`); a file never flushed stays in the cache for whoever reads it next.
  func createFile(
    _ name: String, in directory: Directory, contents: Data, mode: mode_t, flushedNext: Bool
  ) throws(SystemError)
  /// Flushes the file `name` to the disk.
  func synchronizeFile(_ name: String, in directory: Directory) throws(SystemError)
  /// Renames `name` in `source` to `newName` in `destination`, replacing a file there.
  func rename(
    _ name: String, in source: Directory, to newName: String, in destination: Directory
  ) throws(SystemError)
  /// Flushes `directory` itself, making renames and creations in it durable.
  func synchronize(_ directory: Directory) throws(SystemError)
  /// Creates the folder `name`; succeeds when a real folder is there already.
  func makeDirectory(_ name: String, in directory: Directory) throws(SystemError)
  /// Removes the file or folder tree `name`, refusing symlinks.
  func remove(_ name: String, in directory: Directory) throws(SystemError)
  /// Makes `newName` in `destination` a second name of the file `name` in `source`.
  func link(
    _ name: String, in source: Directory, to newName: String, in destination: Directory
  ) throws(SystemError)
}

extension FileOperations {
  public func createFile(
    _ name: String, in directory: Directory, contents: Data, mode: mode_t, flushedNext: Bool
  ) throws(SystemError) {
    try directory.createFile(name, contents: contents, mode: mode, flushedNext: flushedNext)
  }

  public func synchronizeFile(_ name: String, in directory: Directory) throws(SystemError) {
    try directory.synchronizeFile(name)
  }

  public func rename(
    _ name: String, in source: Directory, to newName: String, in destination: Directory
  ) throws(SystemError) {
    try source.rename(name, to: newName, in: destination)
  }

  public func synchronize(_ directory: Directory) throws(SystemError) {
    try directory.synchronize()
  }

  public func makeDirectory(_ name: String, in directory: Directory) throws(SystemError) {
    try directory.makeDirectory(name)
  }

  public func remove(_ name: String, in directory: Directory) throws(SystemError) {
    try directory.remove(name)
  }

  public func link(
    _ name: String, in source: Directory, to newName: String, in destination: Directory
  ) throws(SystemError) {
    try source.link(name, to: newName, in: destination)
  }
}

/// The real system calls.
public struct SystemFileOperations: FileOperations {
  public init() {}
}
