@preconcurrency import CFontconfig
import Foundation
import Synchronization

extension FontCatalog {
  /// The fonts installed on the system, one per family as fontconfig names it (`DejaVu Serif`),
  /// each the face captions are drawn with: upright, normal width, the weight nearest bold. Only outline
  /// (TrueType or OpenType) fonts, and only the first face of a collection file, which is the
  /// one memesh opens. Sorted by name; read once per process.
  public static func installedFonts() -> [FontInfo] {
    installedCache.withLock { cache in
      if let cache { return cache }
      let found = FontEngine.shared.withLock { engine in listInstalled(engine) }
      cache = found
      return found
    }
  }

  private static let installedCache = Mutex<[FontInfo]?>(nil)

  private static func listInstalled(_ engine: FontEngine) -> [FontInfo] {
    guard let config = engine.fontconfig(), let pattern = FcPatternCreate(),
      let objects = FcObjectSetCreate()
    else { return [] }
    defer {
      FcObjectSetDestroy(objects)
      FcPatternDestroy(pattern)
    }
    for object in [
      FC_FAMILY, FC_STYLE, FC_FILE, FC_INDEX, FC_WEIGHT, FC_SLANT, FC_WIDTH, FC_FONTFORMAT,
    ] {
      FcObjectSetAdd(objects, object)
    }
    FcPatternAddBool(pattern, FC_SCALABLE, FcBool(FcTrue))
    guard let set = FcFontList(config, pattern, objects) else { return [] }
    defer { FcFontSetDestroy(set) }
    var best: [String: (info: FontInfo, rank: Int)] = [:]
    for position in 0..<Int(set.pointee.nfont) {
      guard let font = set.pointee.fonts[position],
        let family = string(font, FC_FAMILY), let file = string(font, FC_FILE),
        let format = string(font, FC_FONTFORMAT), ["TrueType", "CFF"].contains(format)
      else { continue }
      var index: Int32 = 0
      _ = FcPatternGetInteger(font, FC_INDEX, 0, &index)
      guard index == 0 else { continue }
      var weight: Int32 = Int32(FC_WEIGHT_REGULAR)
      _ = FcPatternGetInteger(font, FC_WEIGHT, 0, &weight)
      var slant: Int32 = Int32(FC_SLANT_ROMAN)
      _ = FcPatternGetInteger(font, FC_SLANT, 0, &slant)
      var width: Int32 = Int32(FC_WIDTH_NORMAL)
      _ = FcPatternGetInteger(font, FC_WIDTH, 0, &width)
      // Upright before slanted, normal width before condensed or expanded, then the weight
      // nearest bold, heavier before lighter.
      let distance = Int(weight) - Int(FC_WEIGHT_BOLD)
      let rank =
        (slant == Int32(FC_SLANT_ROMAN) ? 0 : 100_000)
        + (width == Int32(FC_WIDTH_NORMAL) ? 0 : 10_000) + abs(distance) * 2
        + (distance < 0 ? 1 : 0)
      let info = FontInfo(
        name: family, path: file, origin: .installed, family: family,
        style: string(font, FC_STYLE) ?? "")
      if let current = best[family.lowercased()], current.rank <= rank { continue }
      best[family.lowercased()] = (info, rank)
    }
    return best.values.map(\.info).sorted {
      $0.name.localizedStandardCompare($1.name) == .orderedAscending
    }
  }

  /// The first string value of `object` in `pattern`.
  private static func string(_ pattern: OpaquePointer, _ object: String) -> String? {
    var value: UnsafeMutablePointer<FcChar8>?
    guard FcPatternGetString(pattern, object, 0, &value) == FcResultMatch, let value else {
      return nil
    }
    return String(cString: UnsafeRawPointer(value).assumingMemoryBound(to: CChar.self))
  }
}
