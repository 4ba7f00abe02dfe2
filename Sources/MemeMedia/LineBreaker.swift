@preconcurrency import CThai
@preconcurrency import CUnibreak
import Foundation

/// Where a caption may break between lines: Unicode's line-breaking rules (UAX #14) from
/// libunibreak, Thai word boundaries from libthai's dictionary, and the strict rule for small
/// kana, handed to `CaptionLayout.fit` as character offsets.
///
/// libunibreak 1.1 (Debian 12) treats Thai, which has no spaces between words (class SA), as
/// one unbreakable word, and small kana (class CJ) like ideographs, so `キャ` could split; both
/// are tailored here the way UAX #14 allows.
final class LineBreaker: @unchecked Sendable {
  /// The one breaker: libthai's dictionary is loaded once, on the first Thai caption.
  static let shared = LineBreaker()

  /// Guards `thai`, which libthai does not share between threads.
  private let lock = NSLock()
  private var thai: OpaquePointer?
  private var thaiLoaded = false

  private init() {
    // Builds libunibreak's index for large code points (CJK); without it each lookup scans.
    init_linebreak()
  }

  deinit {
    if let thai { th_brk_delete(thai) }
  }

  /// The character offsets (1 ..< count) before which a new line may start in `text`.
  func breaks(in text: String) -> [Int] {
    let scalars = text.unicodeScalars.map(\.value)
    guard scalars.count > 1 else { return [] }
    // allowed[i]: a line may end after scalar i.
    var allowed = LineBreaker.unicodeBreaks(scalars)
    for run in LineBreaker.thaiRuns(scalars) {
      for position in thaiBreaks(Array(scalars[run])) where position > 0 {
        allowed[run.lowerBound + position - 1] = true
      }
    }
    for index in 1..<scalars.count where LineBreaker.isSmallKana(scalars[index]) {
      allowed[index - 1] = false
    }
    var offsets: [Int] = []
    var scalarEnd = 0
    for (offset, character) in text.enumerated() {
      if offset > 0 && allowed[scalarEnd - 1] { offsets.append(offset) }
      scalarEnd += character.unicodeScalars.count
    }
    return offsets
  }

  /// libunibreak's answer for every position: true where a line may (or must) end after it.
  private static func unicodeBreaks(_ scalars: [UInt32]) -> [Bool] {
    // libunibreak 1.1 aborts (a failed assert) on regional indicators, and takes U+FFFF for
    // the end of the text: each goes in as a character of the same breaking behaviour that it
    // handles, an ideograph (flags break between each other; inside a flag is one character,
    // never offered) and the replacement character.
    let scalars = scalars.map { scalar -> UInt32 in
      switch scalar {
      case 0x1F1E6...0x1F1FF: 0x4E00
      case 0xFFFF: 0xFFFD
      default: scalar
      }
    }
    var statuses = [CChar](repeating: CChar(LINEBREAK_NOBREAK), count: scalars.count)
    scalars.withUnsafeBufferPointer { input in
      statuses.withUnsafeMutableBufferPointer { output in
        set_linebreaks_utf32(input.baseAddress, input.count, nil, output.baseAddress)
      }
    }
    return statuses.map { $0 == CChar(LINEBREAK_ALLOWBREAK) || $0 == CChar(LINEBREAK_MUSTBREAK) }
  }

  // MARK: - Thai

  /// Maximal runs of Thai letters and marks (U+0E01–U+0E5B).
  static func thaiRuns(_ scalars: [UInt32]) -> [Range<Int>] {
    var runs: [Range<Int>] = []
    var start: Int?
    for (index, scalar) in scalars.enumerated() {
      let isThai = (0x0E01...0x0E5B).contains(scalar)
      if isThai && start == nil { start = index }
      if !isThai, let first = start {
        runs.append(first..<index)
        start = nil
      }
    }
    if let first = start { runs.append(first..<scalars.count) }
    return runs
  }

  /// Offsets inside one Thai run where a word starts, from libthai's dictionary; none when the
  /// dictionary (Debian's libthai-data) cannot be loaded.
  private func thaiBreaks(_ run: [UInt32]) -> [Int] {
    lock.lock()
    defer { lock.unlock() }
    if !thaiLoaded {
      thaiLoaded = true
      // NULL: the dictionary in its default place (or $LIBTHAI_DICTDIR).
      thai = th_brk_new(nil)
    }
    guard let thai, !run.isEmpty else { return [] }
    // thwchar_t is wchar_t, UCS-4 on Linux; libthai wants the text ended by a zero.
    var text = run.map { thwchar_t(bitPattern: $0) }
    text.append(0)
    var positions = [Int32](repeating: 0, count: run.count)
    let found = text.withUnsafeBufferPointer { input in
      positions.withUnsafeMutableBufferPointer { output in
        th_brk_wc_find_breaks(thai, input.baseAddress, output.baseAddress, output.count)
      }
    }
    return positions.prefix(Int(max(0, found))).map(Int.init).filter { $0 < run.count }
  }

  // MARK: - Small kana

  /// Small kana and the prolonged sound mark (UAX #14 class CJ): strict line breaking, as
  /// Japanese typesetting expects, never starts a line with one.
  static func isSmallKana(_ scalar: UInt32) -> Bool {
    switch scalar {
    case 0x3041, 0x3043, 0x3045, 0x3047, 0x3049, 0x3063, 0x3083, 0x3085, 0x3087, 0x308E,
      0x3095, 0x3096, 0x30A1, 0x30A3, 0x30A5, 0x30A7, 0x30A9, 0x30C3, 0x30E3, 0x30E5, 0x30E7,
      0x30EE, 0x30F5, 0x30F6, 0x30FC, 0x31F0...0x31FF, 0xFF67...0xFF70, 0x1B132, 0x1B150...0x1B152,
      0x1B155, 0x1B164...0x1B167:
      return true
    default:
      return false
    }
  }
}
