import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Keeps what a C library prints to file descriptor 2 off the terminal. libde265 (libheif's
/// HEVC decoder) reports a damaged stream with `fprintf(stderr, "SPS error: …")` and offers no
/// way to turn that off; while `run` runs, descriptor 2 points at an unnamed temporary file
/// instead, and the first line written there is handed back, so the caller can put it into
/// its one-line error. Descriptor 2 belongs to the whole process: calls are serialized, and
/// anything another thread writes meanwhile is caught as well.
enum StandardErrorCapture {
  private static let lock = NSLock()

  /// Runs `body` with descriptor 2 redirected; returns the first line written there (printable
  /// ASCII, at most 200 characters), or nil when nothing was. Without a temporary file (none
  /// can be made) `body` runs as it is.
  static func run(_ body: () -> Void) -> String? {
    lock.lock()
    defer { lock.unlock() }
    guard let file = tmpfile() else {
      body()
      return nil
    }
    defer { fclose(file) }
    let saved = dup(2)
    guard saved >= 0, dup2(fileno(file), 2) >= 0 else {
      if saved >= 0 { close(saved) }
      body()
      return nil
    }
    body()
    dup2(saved, 2)
    close(saved)
    var buffer = [UInt8](repeating: 0, count: 512)
    let count = pread(fileno(file), &buffer, buffer.count, 0)
    guard count > 0 else { return nil }
    let firstLine = buffer.prefix(count).prefix { $0 != 0x0A && $0 != 0x0D }
    let printable = firstLine.filter { (0x20..<0x7F).contains($0) }.prefix(200)
    let line = String(decoding: printable, as: UTF8.self).trimmingCharacters(in: .whitespaces)
    return line.isEmpty ? nil : line
  }
}
