@preconcurrency import CFontconfig
@preconcurrency import CFreeType
import Foundation
import MemeCore
import MemeSystem

/// The process-wide FreeType library, open faces by path, and fallback fonts from fontconfig.
///
/// FreeType objects are not thread-safe, so all text work runs under one lock; this is why the
/// class is `@unchecked Sendable`: every mutable member is touched only inside `withLock`.
final class FontEngine: @unchecked Sendable {
  /// The one engine.
  static let shared = FontEngine()

  private let lock = NSLock()
  private let library: FT_Library?
  private var faces: [String: FontFace] = [:]
  private var failures: [String: FontError] = [:]
  private var fallbackByScalar: [UInt32: FontFace?] = [:]
  private var config: OpaquePointer?
  /// Why there is no FreeType library, when there is none.
  private let unavailable: String?

  /// Makes `shared` (opening the text libraries and starting FreeType) on a thread of its own,
  /// so that the first caption does not wait for the dynamic loader (about 3 ms of mapping,
  /// relocating and binding five libraries and theirs). Nothing is said here: a library that is
  /// missing was named at start (`SharedLibrary.missing`), and makes the first caption fail with
  /// the same message as without this. It stops there, at calls with no work left at exit:
  /// opening a face or shaping would set up HarfBuzz's shared tables, which `exit` frees, and
  /// `exit` may come while this thread runs (a `load` that fails at once); the dynamic loader's
  /// lock makes `exit` wait for a library being opened.
  static func prepare() {
    _ = Concurrently { () -> Void in _ = shared.library }
  }

  private init() {
    // FreeType, HarfBuzz and fontconfig are opened here, on first use (SharedLibrary).
    do {
      try SharedLibrary.load(SharedLibrary.text)
    } catch {
      library = nil
      unavailable = "font: \(error.message)"
      return
    }
    var library: FT_Library?
    self.library = FT_Init_FreeType(&library) == 0 ? library : nil
    unavailable = self.library == nil ? "font: FreeType failed to start" : nil
  }

  deinit {
    faces.removeAll()
    if let config { FcConfigDestroy(config) }
    if let library { FT_Done_FreeType(library) }
  }

  /// Runs `body` holding the text lock.
  func withLock<T>(_ body: (FontEngine) throws -> T) rethrows -> T {
    lock.lock()
    defer { lock.unlock() }
    return try body(self)
  }

  /// The face at `path` (and `index` in a collection), opened once and kept.
  func face(path: String, index: Int = 0) throws(FontError) -> FontFace {
    let key = "\(path)#\(index)"
    if let face = faces[key] { return face }
    if let failure = failures[key] { throw failure }
    guard let library else { throw FontError.engineUnavailable(detail: unavailable) }
    do {
      let face = try FontFace(library: library, path: path, index: index)
      faces[key] = face
      return face
    } catch {
      failures[key] = error
      throw error
    }
  }

  /// The FreeType library, for strokers.
  var freeTypeLibrary: FT_Library? { library }

  // MARK: - Fallback through fontconfig

  /// An installed face that draws `scalar`, preferring bold and (for emoji) color; nil if none.
  func fallback(for scalar: Unicode.Scalar, emoji: Bool) -> FontFace? {
    let key = scalar.value | (emoji ? 0x8000_0000 : 0)
    if let cached = fallbackByScalar[key] { return cached }
    let found = searchFallback(for: scalar, emoji: emoji)
    fallbackByScalar[key] = .some(found)
    return found
  }

  /// The fontconfig configuration, loaded on first use (under the lock).
  func fontconfig() -> OpaquePointer? {
    guard library != nil else { return nil }
    if config == nil { config = FcInitLoadConfigAndFonts() }
    return config
  }

  private func searchFallback(for scalar: Unicode.Scalar, emoji: Bool) -> FontFace? {
    guard let config = fontconfig(), let pattern = FcPatternCreate() else { return nil }
    defer { FcPatternDestroy(pattern) }
    if let charset = FcCharSetCreate() {
      FcCharSetAddChar(charset, scalar.value)
      FcPatternAddCharSet(pattern, FC_CHARSET, charset)
      FcCharSetDestroy(charset)
    }
    FcPatternAddInteger(pattern, FC_WEIGHT, Int32(FC_WEIGHT_BOLD))
    if emoji { FcPatternAddBool(pattern, FC_COLOR, FcBool(FcTrue)) }
    FcConfigSubstitute(config, pattern, FcMatchPattern)
    FcDefaultSubstitute(pattern)
    var result = FcResultNoMatch
    // The sorted list, trimmed to fonts that add coverage; the first one that really has the
    // character (checked in the font itself) wins.
    guard let set = FcFontSort(config, pattern, FcBool(FcTrue), nil, &result) else {
      return nil
    }
    defer { FcFontSetDestroy(set) }
    let count = Int(set.pointee.nfont)
    for position in 0..<min(count, 64) {
      guard let candidate = set.pointee.fonts[position] else { continue }
      var charset: OpaquePointer?
      if FcPatternGetCharSet(candidate, FC_CHARSET, 0, &charset) == FcResultMatch,
        let charset, FcCharSetHasChar(charset, scalar.value) == FcBool(FcFalse)
      {
        continue
      }
      var file: UnsafeMutablePointer<FcChar8>?
      guard FcPatternGetString(candidate, FC_FILE, 0, &file) == FcResultMatch, let file else {
        continue
      }
      var index: Int32 = 0
      _ = FcPatternGetInteger(candidate, FC_INDEX, 0, &index)
      let path = String(cString: UnsafeRawPointer(file).assumingMemoryBound(to: CChar.self))
      guard let face = try? face(path: path, index: Int(index)), face.covers(scalar) else {
        continue
      }
      return face
    }
    return nil
  }
}
