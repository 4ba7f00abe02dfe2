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
    while true {
      if let newline = buffer.firstIndex(of: 0x0A) {
        var bytes = Array(buffer[..<newline])
        buffer.removeSubrange(...newline)
        if bytes.last == 0x0D { bytes.removeLast() }
        return .line(lineText(bytes))
      }
      if buffer.count > Self.maximumLineBytes {
        return .line(lineText(cutOverlongLine()))
      }
      guard !atEnd, fill() else {
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

  /// Keeps the first `maximumLineBytes` of a line that has no newline yet, skips the rest of it
  /// (reading on to its newline), and reports how long it was.
  private func cutOverlongLine() -> [UInt8] {
    let kept = Array(buffer.prefix(Self.maximumLineBytes))
    var length = buffer.count
    buffer.removeAll()
    while fill() {
      if let newline = buffer.firstIndex(of: 0x0A) {
        length += newline
        buffer.removeSubrange(...newline)
        break
      }
      length += buffer.count
      buffer.removeAll()
    }
    onOverlongLine?(length)
    return kept
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
