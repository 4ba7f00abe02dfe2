@preconcurrency import CChafa
import MemeCore

/// libchafa behind Swift values: every chafa handle is owned by a final class that unrefs it in
/// `deinit`, and nothing outside this file sees a pointer.
enum TerminalChafa {
  // MARK: - Term info

  /// The escape sequences chafa may print for one terminal.
  final class TermInfo {
    fileprivate let handle: OpaquePointer

    /// Asks chafa's terminal database about the terminal `environment` describes. chafa reads
    /// TERM, COLORTERM, TERM_PROGRAM, VTE_VERSION … from it; it must be the real environment, or
    /// graphics canvases print nothing.
    init(environment: [String: String]) {
      // chafa and GLib are opened here, on first use (SharedLibrary); the launcher turns
      // pictures off at start when either is missing, so nothing reaches here without them.
      try? SharedLibrary.load(SharedLibrary.terminalPictures)
      let entries = environment.sorted { $0.key < $1.key }.map { g_strdup("\($0.key)=\($0.value)") }
      defer { entries.forEach { g_free($0) } }
      var envp: [UnsafeMutablePointer<CChar>?] = entries + [nil]
      let database = chafa_term_db_new()
      defer { chafa_term_db_unref(database) }
      handle = envp.withUnsafeMutableBufferPointer {
        chafa_term_db_detect(database, $0.baseAddress)
      }
    }

    deinit { chafa_term_info_unref(handle) }

    /// True when chafa knows how to print `sequence` for this terminal.
    func has(_ sequence: ChafaTermSeq) -> Bool {
      chafa_term_info_have_seq(handle, sequence) != 0
    }

    /// True when chafa's terminal database says the terminal draws sixels.
    var hasSixels: Bool { has(CHAFA_TERM_SEQ_BEGIN_SIXELS) }

    /// True when chafa has the sequence that starts a picture in `mode`. Without it chafa
    /// prints nothing (kitty, sixel) or, worse, the bare base64 payload (iTerm2).
    func canStart(_ mode: PreviewMode) -> Bool {
      switch mode {
      case .kitty: has(CHAFA_TERM_SEQ_BEGIN_KITTY_IMMEDIATE_IMAGE_V1)
      case .iterm: has(CHAFA_TERM_SEQ_BEGIN_ITERM2_IMAGE)
      case .sixel: has(CHAFA_TERM_SEQ_BEGIN_SIXELS)
      case .symbols: has(CHAFA_TERM_SEQ_SET_COLOR_FG_16)
      case .none: false
      }
    }

    /// Adds the sequences `other` has and this one lacks (the user asked for a mode the
    /// environment does not announce, for example `--mode kitty` over ssh).
    func supplement(from other: TermInfo) {
      chafa_term_info_supplement(handle, other.handle)
    }
  }

  // MARK: - Canvas

  /// What one chafa canvas draws: size, protocol, colors.
  struct CanvasSpec {
    var cells: TerminalPreview.CellSize
    var cellPixels: PixelSize
    var pixelMode: ChafaPixelMode
    var canvasMode: ChafaCanvasMode
    /// Match colors in DIN99d, a perceptual space: with 16 colors a green meadow stays green
    /// instead of turning yellow (looked at; ordered dithering only added noise to blocks).
    var perceptualColors: Bool = false
  }

  /// A chafa canvas configuration (protocol, colours, symbols) made once and used for any
  /// number of canvases of any size: `place` draws a canvas a frame.
  final class CanvasConfig {
    fileprivate let handle: OpaquePointer

    init?(
      cellPixels: PixelSize, pixelMode: ChafaPixelMode, canvasMode: ChafaCanvasMode,
      perceptualColors: Bool = false, ditherMode: ChafaDitherMode = CHAFA_DITHER_MODE_NONE
    ) {
      guard let config = chafa_canvas_config_new() else { return nil }
      handle = config
      chafa_canvas_config_set_cell_geometry(
        config, Int32(cellPixels.width), Int32(cellPixels.height))
      chafa_canvas_config_set_pixel_mode(config, pixelMode)
      chafa_canvas_config_set_canvas_mode(config, canvasMode)
      if perceptualColors {
        chafa_canvas_config_set_color_space(config, CHAFA_COLOR_SPACE_DIN99D)
      }
      chafa_canvas_config_set_dither_mode(config, ditherMode)
      // No REP (`ESC[Nb`) or cursor skips: every cell is printed, so pictures can be put side
      // by side line by line, and terminals without REP show them too.
      chafa_canvas_config_set_optimizations(config, CHAFA_OPTIMIZATION_REUSE_ATTRIBUTES)

      // Block elements (U+2580–U+259F) and space only: every common terminal font has them, while
      // chafa's default set includes legacy-computing glyphs (U+1FB00…) that show as empty boxes.
      guard let symbols = chafa_symbol_map_new() else { return nil }
      defer { chafa_symbol_map_unref(symbols) }
      chafa_symbol_map_add_by_tags(
        symbols,
        ChafaSymbolTags(rawValue: CHAFA_SYMBOL_TAG_BLOCK.rawValue | CHAFA_SYMBOL_TAG_SPACE.rawValue)
      )
      chafa_symbol_map_remove_by_tags(symbols, CHAFA_SYMBOL_TAG_LEGACY)
      chafa_symbol_map_remove_by_range(symbols, 0x1FB00, 0x1FBFF)
      chafa_canvas_config_set_symbol_map(config, symbols)
    }

    deinit { chafa_canvas_config_unref(handle) }

    /// A canvas of `cells` with `image` scaled into it (chafa stretches it to the whole canvas,
    /// so `cells` must already have the image's aspect ratio).
    func canvas(image: RGBAImage, cells: TerminalPreview.CellSize) -> Canvas? {
      guard image.width > 0, image.height > 0, cells.columns > 0, cells.rows > 0 else {
        return nil
      }
      chafa_canvas_config_set_geometry(handle, Int32(cells.columns), Int32(cells.rows))
      return Canvas(image: image, config: self)
    }
  }

  /// A chafa canvas with pixels drawn into it.
  final class Canvas {
    private let handle: OpaquePointer

    /// Makes a canvas for `spec` and scales `image` into it (chafa stretches it to the whole
    /// canvas, so `spec.cells` must already have the image's aspect ratio).
    convenience init?(image: RGBAImage, spec: CanvasSpec) {
      guard
        let config = CanvasConfig(
          cellPixels: spec.cellPixels, pixelMode: spec.pixelMode, canvasMode: spec.canvasMode,
          perceptualColors: spec.perceptualColors),
        image.width > 0, image.height > 0, spec.cells.columns > 0, spec.cells.rows > 0
      else { return nil }
      chafa_canvas_config_set_geometry(
        config.handle, Int32(spec.cells.columns), Int32(spec.cells.rows))
      self.init(image: image, config: config)
    }

    /// A canvas as `config` is set now (chafa copies the configuration), with `image` drawn.
    fileprivate init?(image: RGBAImage, config: CanvasConfig) {
      guard let canvas = chafa_canvas_new(config.handle) else { return nil }
      handle = canvas
      image.pixels.withUnsafeBufferPointer { pixels in
        chafa_canvas_draw_all_pixels(
          canvas, CHAFA_PIXEL_RGBA8_UNASSOCIATED, pixels.baseAddress,
          Int32(image.width), Int32(image.height), Int32(image.width * 4))
      }
    }

    deinit { chafa_canvas_unref(handle) }

    /// The text that draws the canvas on a terminal described by `termInfo`; empty when chafa
    /// has no sequences for the canvas's mode there.
    func print(termInfo: TermInfo) -> String {
      guard let printed = chafa_canvas_print(handle, termInfo.handle) else { return "" }
      defer { g_string_free(printed, 1) }
      let length = Int(printed.pointee.len)
      guard length > 0, let start = printed.pointee.str else { return "" }
      return start.withMemoryRebound(to: UInt8.self, capacity: length) {
        String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
      }
    }
  }
}
