@preconcurrency import CFreeType
@preconcurrency import CHarfBuzz
import Foundation
import MemeCore
import MemeSystem

/// One font file opened in FreeType (to rasterize) and HarfBuzz (to shape).
///
/// Not thread-safe on its own: FreeType faces must not be used from two threads at once, so
/// every use goes through `FontEngine.shared.withLock`.
final class FontFace {
  /// Where it came from, and which face in a collection (`.ttc`).
  let path: String
  let index: Int
  let face: FT_Face
  let hbFont: OpaquePointer
  /// Font units per em (2048, 1000…).
  let unitsPerEm: Double
  /// A color bitmap font (Noto Color Emoji): fixed strikes, BGRA glyphs.
  let isColor: Bool
  /// The pixel size of the bitmap strike a color font is drawn from (109 for Noto).
  let strikeSize: Double
  let familyName: String
  let styleName: String
  /// The weight a variable font is drawn at (700), nil for static fonts.
  private(set) var variableWeight: Double?
  /// The size last set with `FT_Set_Char_Size`, in 26.6.
  private var currentSize: Int = -1

  /// Opens the face at `index` in the file at `path`; variable fonts are set to weight 700.
  init(library: FT_Library, path: String, index: Int = 0) throws(FontError) {
    // FreeType would open a FIFO and wait for a writer forever, and read a device endlessly.
    if let kind = Self.irregularKind(atPath: path) {
      throw FontError.unreadable(name: path, reason: kind)
    }
    var face: FT_Face?
    let status = FT_New_Face(library, path, FT_Long(index), &face)
    guard status == 0, let face else {
      // FreeType says only "cannot open resource" for a file it cannot open: ask the system why.
      let opened = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
      if opened < 0 { throw FontError.unreadable(name: path, reason: SystemError.reason(errno)) }
      close(opened)
      throw FontError.unreadable(name: path, reason: FontError.notAFont)
    }
    guard let blob = hb_blob_create_from_file_or_fail(path) else {
      FT_Done_Face(face)
      throw FontError.unreadable(name: path, reason: "HarfBuzz cannot read it")
    }
    let hbFace = hb_face_create(blob, UInt32(index))
    hb_blob_destroy(blob)
    guard let hbFace, let hbFont = hb_font_create(hbFace) else {
      FT_Done_Face(face)
      throw FontError.unreadable(name: path, reason: "HarfBuzz cannot read it")
    }
    hb_face_destroy(hbFace)
    self.path = path
    self.index = index
    self.face = face
    self.hbFont = hbFont
    let units = Int(face.pointee.units_per_EM)
    unitsPerEm = Double(units > 0 ? units : 1000)
    hb_font_set_scale(hbFont, Int32(unitsPerEm), Int32(unitsPerEm))
    familyName = face.pointee.family_name.map { String(cString: $0) } ?? ""
    styleName = face.pointee.style_name.map { String(cString: $0) } ?? ""
    // FT_HAS_COLOR is a function-like macro Swift cannot import.
    let hasColor = FT_Long(FT_FACE_FLAG_COLOR) & face.pointee.face_flags != 0
    let scalable = FT_Long(FT_FACE_FLAG_SCALABLE) & face.pointee.face_flags != 0
    if hasColor && !scalable && face.pointee.num_fixed_sizes > 0,
      let sizes = face.pointee.available_sizes
    {
      isColor = true
      strikeSize = Double(sizes[0].y_ppem) / 64
      FT_Select_Size(face, 0)
    } else {
      isColor = false
      strikeSize = 0
    }
    setBoldWeight(library: library)
  }

  deinit {
    hb_font_destroy(hbFont)
    FT_Done_Face(face)
  }

  /// A variable font (Oswald) is drawn at wght 700 in both FreeType and HarfBuzz.
  private func setBoldWeight(library: FT_Library) {
    guard FT_Long(FT_FACE_FLAG_MULTIPLE_MASTERS) & face.pointee.face_flags != 0 else { return }
    var master: UnsafeMutablePointer<FT_MM_Var>?
    guard FT_Get_MM_Var(face, &master) == 0, let master else { return }
    defer { FT_Done_MM_Var(library, master) }
    let count = Int(master.pointee.num_axis)
    guard let axes = master.pointee.axis else { return }
    var coordinates: [FT_Fixed] = []
    var weight: Double?
    for axisIndex in 0..<count {
      let axis = axes[axisIndex]
      if axis.tag == FontFace.weightTag {
        let clamped = min(max(700 * 65536, Int(axis.minimum)), Int(axis.maximum))
        coordinates.append(FT_Fixed(clamped))
        weight = Double(clamped) / 65536
      } else {
        coordinates.append(axis.def)
      }
    }
    guard let weight else { return }
    FT_Set_Var_Design_Coordinates(face, FT_UInt(count), &coordinates)
    var variation = hb_variation_t(tag: hb_tag_t(FontFace.weightTag), value: Float(weight))
    hb_font_set_variations(hbFont, &variation, 1)
    variableWeight = weight
  }

  /// The OpenType tag 'wght' (HB_TAG is a macro Swift cannot import).
  static let weightTag: FT_ULong = 0x7767_6874

  /// The glyph for a code point, or nil when the font lacks it.
  func glyph(for scalar: Unicode.Scalar) -> UInt32? {
    var glyph: hb_codepoint_t = 0
    guard hb_font_get_nominal_glyph(hbFont, scalar.value, &glyph) != 0, glyph != 0 else {
      return nil
    }
    return glyph
  }

  /// Whether this face draws `scalar`.
  func covers(_ scalar: Unicode.Scalar) -> Bool { glyph(for: scalar) != nil }

  /// Sets the size FreeType rasterizes at (outline fonts only), unhinted so widths scale.
  func setPixelSize(_ size: Double) {
    let fixed = Int((size * 64).rounded())
    guard !isColor, fixed != currentSize else { return }
    currentSize = fixed
    FT_Set_Char_Size(face, 0, FT_F26Dot6(max(fixed, 1)), 72, 72)
  }

  /// Ascender, descender (positive) and line gap from the font's metrics, in em.
  var verticalMetrics: (ascent: Double, descent: Double, lineGap: Double) {
    let ascender = Double(face.pointee.ascender) / unitsPerEm
    let descender = -Double(face.pointee.descender) / unitsPerEm
    let height = Double(face.pointee.height) / unitsPerEm
    return (ascender, descender, max(0, height - ascender - descender))
  }

  /// The ink top and bottom of a glyph in em (top up, bottom down, both positive above/below).
  func inkExtent(of scalar: Unicode.Scalar) -> (top: Double, bottom: Double)? {
    guard let glyph = glyph(for: scalar) else { return nil }
    var extents = hb_glyph_extents_t()
    guard hb_font_get_glyph_extents(hbFont, glyph, &extents) != 0 else { return nil }
    let top = Double(extents.y_bearing) / unitsPerEm
    let bottom = -Double(extents.y_bearing + extents.height) / unitsPerEm
    return (top, bottom)
  }
}

extension FontFace {
  /// Why `path` cannot be a font file when it is not a regular file ("is a directory", "not a
  /// regular file"), or nil for a regular file (or one `stat` cannot see; opening it says why).
  static func irregularKind(atPath path: String) -> String? {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    switch status.st_mode & S_IFMT {
    case S_IFREG: return nil
    case S_IFDIR: return "is a directory"
    default: return "not a regular file"
    }
  }
}
