import Foundation

/// The real calls until `survive` of them were made; from then on every call fails with `EIO`,
/// cleanups included: what a process killed at that moment leaves on disk. The store's crash
/// tests, its model test and its fuzz target cut changes short with it.
public final class CutShortFileOperations: FileOperations, @unchecked Sendable {
  private let lock = NSLock()
  private var calls = 0
  /// How many calls are carried out.
  public let survive: Int

  public init(survive: Int) {
    self.survive = survive
  }

  /// Calls made (and, up to `survive`, carried out).
  public var callCount: Int { lock.withLock { calls } }

  /// Counts a call; throws once the process counts as killed.
  private func step(_ path: String) throws(SystemError) {
    let dead = lock.withLock {
      calls += 1
      return calls > survive
    }
    if dead { throw SystemError(.write, path: path, code: EIO) }
  }

  public func createFile(
    _ name: String, in directory: Directory, contents: Data, mode: mode_t, flushedNext: Bool
  ) throws(SystemError) {
    try step(directory.path(of: name))
    try directory.createFile(name, contents: contents, mode: mode, flushedNext: flushedNext)
  }

  public func synchronizeFile(_ name: String, in directory: Directory) throws(SystemError) {
    try step(directory.path(of: name))
    try directory.synchronizeFile(name)
  }

  public func rename(
    _ name: String, in source: Directory, to newName: String, in destination: Directory
  ) throws(SystemError) {
    try step(source.path(of: name))
    try source.rename(name, to: newName, in: destination)
  }

  public func synchronize(_ directory: Directory) throws(SystemError) {
    try step(directory.path)
    try directory.synchronize()
  }

  public func makeDirectory(_ name: String, in directory: Directory) throws(SystemError) {
    try step(directory.path(of: name))
    try directory.makeDirectory(name)
  }

  public func remove(_ name: String, in directory: Directory) throws(SystemError) {
    try step(directory.path(of: name))
    try directory.remove(name)
  }

  public func link(
    _ name: String, in source: Directory, to newName: String, in destination: Directory
  ) throws(SystemError) {
    try step(destination.path(of: newName))
    try source.link(name, to: newName, in: destination)
  }
}
