import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Reads lines from a file descriptor with read(2): for pipes and files, and for terminals until
/// the line editor is there. A UTF-8 BOM before the first line is dropped, CRLF is accepted,
/// invalid UTF-8 becomes U+FFFD, and a line longer than `maximumLineBytes` is cut there (the rest
/// of it is skipped) with a warning.
public final class PlainLineReader: LineReader {
  /// Lines longer than this are cut (a caption of a million characters is still allowed).
  public static let maximumLineBytes = 4 << 20

  private let descriptor: Int32
  private let showsPrompt: Bool
  private var buffer: [UInt8] = []
  private var atEnd = false
  private var isFirstLine = true
  /// Told when a line was cut.
  var onOverlongLine: ((Int) -> Void)?

  /// Reads `descriptor`; prints prompts only when `showsPrompt`.
  public init(descriptor: Int32 = 0, showsPrompt: Bool) {
    self.descriptor = descriptor
    self.showsPrompt = showsPrompt
  }

  public func read(prompt: String) -> LineEvent {
    if showsPrompt { Console.writeAll(1, Display.escaped(prompt)) }
    var skipping = false
    var skipped = 0
    while true {
      if let newline = buffer.firstIndex(of: 0x0A) {
        var bytes = Array(buffer[..<newline])
        buffer.removeSubrange(...newline)
        if skipping {
          onOverlongLine?(skipped + bytes.count)
          return .line(lineText(Array(bytes.prefix(0))))
        }
        if bytes.last == 0x0D { bytes.removeLast() }
        return .line(lineText(bytes))
      }
      if buffer.count > Self.maximumLineBytes {
        // Keep the first part as the line; skip to its end.
        if !skipping {
          skipping = true
          let kept = Array(buffer.prefix(Self.maximumLineBytes))
          skipped = buffer.count
          buffer.removeAll()
          // Read on to the newline, then return what was kept.
          while true {
            guard fill() else { break }
            if let newline = buffer.firstIndex(of: 0x0A) {
              skipped += newline
              buffer.removeSubrange(...newline)
              break
            }
            skipped += buffer.count
            buffer.removeAll()
          }
          onOverlongLine?(skipped)
          return .line(lineText(kept))
        }
      }
      if atEnd || !fill() {
        atEnd = true
        guard !buffer.isEmpty else {
          if showsPrompt { Console.writeAll(1, "\n") }
          return .end
        }
        var bytes = buffer
        buffer.removeAll()
        if bytes.last == 0x0D { bytes.removeLast() }
        return .line(lineText(bytes))
      }
    }
  }

  /// Reads more bytes; false at the end of input or on an error.
  private func fill() -> Bool {
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { return false }
      buffer.append(contentsOf: chunk[..<count])
      return true
    }
  }

  private func lineText(_ bytes: [UInt8]) -> String {
    var bytes = bytes[...]
    if isFirstLine {
      isFirstLine = false
      if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  public func remember(_ line: String) {}

  public func close() {}
}
