import Foundation
import MemeCore
import MemeMedia
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Animated GIF and WebP in the shell: what `load` and `info` say of them, the format `share`
/// writes, and playing them in the terminal (`preview`, `show`).
enum Animations {
  /// Each picture's animation facts by its SHA-256, read once from the file's structure.
  private static let known = Mutex<[String: AnimationInfo?]>([:])

  /// The animation facts of `picture`, or nil for a still picture (one frame, or a format that
  /// does not move). A GIF or WebP over the animation limits is refused here, in one line.
  static func info(of picture: SourcePicture) throws -> AnimationInfo? {
    guard picture.format == .gif || picture.format == .webp else { return nil }
    if let cached = known.withLock({ $0[picture.sha256] }) { return cached }
    let info = try ImageCodec.animationInfo(try picture.originalBytes, name: picture.path)
    let facts = info.frameCount > 1 ? info : nil
    known.withLock { $0[picture.sha256] = facts }
    return facts
  }

  /// The facts of a file's bytes (a stored meme), or nil when it is still or unreadable.
  static func info(of data: Data, name: String) -> AnimationInfo? {
    guard let info = try? ImageCodec.animationInfo(data, name: name), info.frameCount > 1
    else { return nil }
    return info
  }

  /// `8 frames, 1.27 s, loops forever`.
  static func summary(_ info: AnimationInfo) -> String {
    "\(info.frameCount) frames, \(seconds(info.duration)), loops \(info.loopDescription)"
  }

  /// Milliseconds as seconds with two decimals: `1.27 s`.
  static func seconds(_ milliseconds: Int) -> String {
    String(format: "%d.%02d s", milliseconds / 1000, milliseconds % 1000 / 10)
  }

  /// The `info` lines after today's keys for an animation: frames, duration, loop (none for a
  /// still picture, whose lines stay as they were).
  static func infoLines(_ picture: SourcePicture?) throws -> [(String, String)] {
    guard let picture, let info = try info(of: picture) else { return [] }
    return [
      ("frames", String(info.frameCount)), ("duration", seconds(info.duration)),
      ("loop", info.loopDescription),
    ]
  }

  /// The format a share writes when nothing asks for one: an animation stays what it is (GIF or
  /// WebP); a still picture as before.
  static func shareFormat(of picture: SourcePicture) -> ImageFormat {
    ((try? info(of: picture)) ?? nil) != nil ? picture.format : picture.format.memeFormat
  }

  /// Renders an animated meme (or a still picture as a one-frame GIF), with the recipe and the
  /// colour profile embedded.
  static func render(
    _ state: EditorState, picture: SourcePicture, format: ImageFormat, lossless: Bool,
    catalog: FontCatalog
  ) throws -> RenderedMeme {
    let bytes = try picture.originalBytes
    let settings = EncodeSettings(
      lossless: lossless,
      recipe: EmbeddedRecipe(recipe: state.recipe, originalSHA256: picture.sha256),
      iccProfile: ImageCodec.iccProfile(of: bytes))
    let renderer = AnimationRenderer(catalog: catalog, settings: settings)
    let boxes = state.recipe.boxes
    let output =
      try info(of: picture) != nil
      ? try renderer.render(
        bytes, name: picture.path, boxes: boxes, font: state.recipe.font,
        crop: state.recipe.crop, format: format)
      : try renderer.render(
        still: try picture.image, boxes: boxes, font: state.recipe.font,
        crop: state.recipe.crop, format: format)
    return RenderedMeme(
      data: output.data, thumbnail: output.thumbnail, size: output.size, report: output.report)
  }
}

extension Shell {
  /// Plays an animation in the terminal at its own timing, looping until a key (or Ctrl-C),
  /// then leaves the cursor on the line after it; with `frame`, draws that frame only (1 is
  /// the first). Outside an interactive terminal the first (or asked) frame is drawn and a line
  /// says what it is. Returns false when pictures cannot be drawn here (the caller prints its
  /// text summary).
  func playAnimation(
    _ data: Data, name: String, recipe: MemeRecipe?, frame: Int? = nil
  ) throws -> Bool {
    guard settings.previewMode != .none, let window = drawingWindow else { return false }
    let cellPixels = TerminalPreview.usableCellPixelSize(window.cellPixelSize)
    // Sixel frames also keep within the largest sixel picture the terminal draws.
    let box = TerminalPreview.cellLimit(
      mode: settings.previewMode, maxColumns: window.cells.columns,
      maxRows: max(4, window.cells.rows - 4), cellPixelSize: window.cellPixelSize)
    let (columns, rows) = (box.columns, box.rows)
    let preview = try AnimationPreview(
      data, name: name, boxes: recipe?.boxes ?? [],
      font: recipe?.font ?? MemeRecipe.defaultFont, crop: recipe?.crop ?? .off,
      fitting: PixelSize(
        width: min(1024, columns * cellPixels.width), height: min(1024, rows * cellPixels.height)),
      catalog: catalog)
    let depth = TerminalCapabilities.detect(environment: environment).colorDepth
    func draw(_ image: RGBAImage) -> TerminalPreview.Picture {
      TerminalPreview.draw(
        image, mode: settings.previewMode, colorDepth: depth, maxColumns: columns,
        maxRows: rows, environment: environment, cellPixelSize: window.cellPixelSize)
    }
    if let frame {
      guard (1...preview.info.frameCount).contains(frame) else {
        throw ShellError.noSuchFrame(frame, count: preview.info.frameCount)
      }
      try preview.skip(frame - 1)
      guard let (image, _) = try preview.next() else { return true }
      console.picture(draw(image).text)
      console.line("frame \(frame) of \(preview.info.frameCount)")
      return true
    }
    guard settings.interactive, isatty(0) == 1, isatty(1) == 1 else {
      if let (image, _) = try preview.next() { console.picture(draw(image).text) }
      console.line("(\(Animations.summary(preview.info)); it plays in an interactive terminal)")
      return true
    }
    console.line("(\(Animations.summary(preview.info)); any key stops)")
    // The drawn frames are kept for the next loops while they fit in `cacheBytes`; past that
    // each loop decodes the animation again, so a long one never holds all its frames.
    var cache: [(TerminalPreview.Picture, Int)] = []
    var caching = true
    var cachedBytes = 0
    var decoded = 0
    try AnimationPlayer.play(
      next: { index in
        if caching, index < cache.count { return cache[index] }
        if index == 0, decoded > 0 {
          try preview.rewind()
          decoded = 0
        }
        guard index == decoded, let (image, delay) = try preview.next() else { return nil }
        decoded += 1
        let picture = draw(image)
        if caching {
          cachedBytes += picture.text.utf8.count
          if cachedBytes > AnimationPlayer.cacheBytes {
            caching = false
            cache = []
          } else {
            cache.append((picture, delay))
          }
        }
        return (picture, delay)
      }, frameCount: preview.info.frameCount)
    return true
  }
}

/// The terminal side of playing: frames drawn over each other at their delays, in raw mode so a
/// key stops it without Enter (Ctrl-C arrives as a key too, so nothing is left half-drawn).
enum AnimationPlayer {
  /// The most bytes of drawn frames kept for the next loops.
  static let cacheBytes = 64 << 20

  /// The first kitty image id memesh plays under.
  static let kittyImage: UInt32 = 4_216_016
  /// Plays so far in this process: each takes two kitty image ids of its own.
  private static let playCount = Mutex<UInt32>(0)

  /// Draws frame 0, 1, … (from `next`, nil when there is no such frame), looping, until a key.
  static func play(
    next: (Int) throws -> (TerminalPreview.Picture, Int)?, frameCount: Int
  ) throws {
    var saved = termios()
    let raw = tcgetattr(0, &saved) == 0
    if raw {
      var settings = saved
      settings.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG)
      tcsetattr(0, TCSANOW, &settings)
    }
    Console.writeAll(1, "\u{1B}[?25l")
    var drawnRows = 0
    defer {
      // The cursor goes below the picture, shown again; the terminal as it was.
      Console.writeAll(1, "\r\n\u{1B}[?25h")
      if raw { tcsetattr(0, TCSANOW, &saved) }
    }
    let ids = kittyIDs()
    var index = 0
    var shown = 0
    while true {
      guard let (picture, delay) = try next(index) else {
        if index == 0 { return }
        index = 0
        continue
      }
      let started = Date()
      // Back to the picture's top-left corner, then the frame over the last one.
      var text = drawnRows > 1 ? "\r\u{1B}[\(drawnRows - 1)A" : "\r"
      text +=
        picture.mode == .kitty
        ? kittyFrame(picture.text, id: ids[shown % 2], replacing: ids[(shown + 1) % 2])
        : picture.text
      Console.writeAll(1, text)
      drawnRows = picture.cells.rows
      index = (index + 1) % max(1, frameCount)
      shown += 1
      let waited = Int(Date().timeIntervalSince(started) * 1000)
      if keyPressed(within: max(0, delay - waited)) { return }
    }
  }

  /// Two kitty image ids no earlier play in this process used: the last frame a play leaves on
  /// the screen (and in the scrollback) stays when the next play starts.
  static func kittyIDs() -> [UInt32] {
    let play = playCount.withLock { count in
      defer { count = (count + 1) % 1_000_000 }
      return count
    }
    return [kittyImage + play * 2, kittyImage + play * 2 + 1]
  }

  /// Whether a key arrives on standard input within `milliseconds` (the key is read).
  static func keyPressed(within milliseconds: Int) -> Bool {
    var descriptor = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
    let deadline = Date().addingTimeInterval(Double(milliseconds) / 1000)
    while true {
      let left = max(0, Int(deadline.timeIntervalSinceNow * 1000))
      let ready = poll(&descriptor, 1, Int32(left))
      if ready < 0 && errno == EINTR { continue }
      guard ready > 0 else { return false }
      var buffer = [UInt8](repeating: 0, count: 64)
      _ = read(0, &buffer, buffer.count)
      return true
    }
  }

  /// A kitty frame's text sent under image `id`, then the previous frame's image (`replacing`)
  /// deleted: the new frame is on the screen before the old one goes, so the cells never go
  /// blank while a frame's PNG is still arriving.
  static func kittyFrame(_ text: String, id: UInt32, replacing previous: UInt32) -> String {
    text.replacingOccurrences(of: "\u{1B}_Ga=T,", with: "\u{1B}_Ga=T,i=\(id),")
      + TerminalKitty.delete(id: Int(previous))
  }
}

// MARK: - A box's time range

extension Animations {
  /// The words after `text N during`: `START-STOP` as fractions of one play (`0.5-1`, `0-0.25`)
  /// or `all`; the box then shows on the frames that start at or after START and before STOP.
  /// For `text`'s settings (Shell+Text.swift): `box.start`, `box.stop` = the result.
  static func timeRange(_ words: [String], command: String) throws -> (start: Double, stop: Double)
  {
    let word = words.joined()
    if word.lowercased() == "all" { return (0, 1) }
    let parts = word.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 2, let start = Double(parts[0]), let stop = Double(parts[1]),
      start.isFinite, stop.isFinite, 0 <= start, start < stop, stop <= 1
    else {
      throw ShellError.badBoxValue(
        command: command, word: word,
        expected: "a time range (START-STOP, fractions of the animation from 0 to 1 with START "
          + "before STOP, e.g. 0.5-1, or 'all')")
    }
    return (start, stop)
  }
}
