import Foundation
import MemeCore
import MemeMedia
import MemeStore

extension Shell {
  // MARK: - Browse

  /// `browse [table|grid] [--tsv]`.
  func browse(_ arguments: Arguments) throws {
    let parsed = try arguments.options(switches: ["--tsv"])
    if parsed.switches.contains("--tsv") {
      guard parsed.positional.isEmpty else {
        throw arguments.usageError("--tsv takes no layout")
      }
      try browseTSV()
      return
    }
    guard parsed.positional.count <= 1 else { throw arguments.usageError() }
    let layout = parsed.positional.first ?? "table"
    let previousView = view
    view = .sent
    do {
      switch layout.lowercased() {
      case "table": try console.paged(Pager(shell: self)) { try browseTable() }
      case "grid": try browseGrid()
      default:
        let hint = Suggestions.nearest(to: layout, among: ["table", "grid"])
        throw ShellError.unknownChoice(
          command: arguments.invokedAs, kind: "layout", word: layout, suggestion: hint,
          choices: "table or grid")
      }
    } catch {
      // Interrupted (or failed): the user stays where they were.
      view = previousView
      throw error
    }
  }

  /// The table memesh shows by itself (at the start, after `share`, `cancel` and `back`): in a
  /// terminal only the newest memes that fit in the window with the lines around them, so a big
  /// store does not scroll thousands of rows past; `browse` lists them all.
  func showSentMemes() {
    let newest = drawingWindow.map { max(3, $0.cells.rows - 6) }
    try? browseTable(newest: newest)
  }

  /// The sent memes as a table; only the `newest` ones when given, under a line saying how
  /// many are left out.
  func browseTable(newest: Int? = nil) throws {
    var memes = try store.memes()
    try checkInterrupt("browse", "nothing was listed")
    guard !memes.isEmpty else {
      console.line("no sent memes yet: 'load PATH' a picture, caption it and 'share' it")
      return
    }
    if let newest, memes.count > newest {
      console.line(
        "the newest \(newest) of \(memes.count) sent memes ('browse' lists them all):")
      memes.removeFirst(memes.count - newest)
    }
    // In a terminal the captions get the window's width: whole when they fit (up to 80
    // columns each), else the wider one gives up columns first, down to its header's width, so
    // each meme stays on one screen line. Elsewhere (pipes, transcripts) each gets 24 columns.
    let windowColumns = drawingWindow?.cells.columns
    let captionLimit = windowColumns == nil ? 24 : 80
    var rows: [[String]] = memes.map { meme in
      [
        String(meme.id), Display.cell(meme.recipe.top, limit: captionLimit),
        Display.cell(meme.recipe.bottom, limit: captionLimit),
        Display.cell(meme.recipe.font, limit: 16), "\(meme.width)×\(meme.height)",
        Self.tableDate(meme.created) + (meme.problem == nil ? "" : "  (damaged)"),
      ]
    }
    let header = ["ID", "TOP", "BOTTOM", "FONT", "SIZE", "CREATED"]
    var widths = header.map(Display.columns)
    for row in rows {
      for (index, cell) in row.enumerated() {
        widths[index] = max(widths[index], Display.columns(cell))
      }
    }
    if let columns = windowColumns {
      var excess = widths.reduce(2 * (widths.count - 1), +) - columns
      let captionFloor = Display.columns("BOTTOM")
      var narrowed = false
      while excess > 0, max(widths[1], widths[2]) > captionFloor {
        widths[widths[1] >= widths[2] ? 1 : 2] -= 1
        excess -= 1
        narrowed = true
      }
      if narrowed {
        for (index, meme) in memes.enumerated() {
          rows[index][1] = Display.cell(meme.recipe.top, limit: widths[1])
          rows[index][2] = Display.cell(meme.recipe.bottom, limit: widths[2])
        }
      }
    }
    // Cells are padded to the columns the terminal draws (a CJK caption or an emoji takes two
    // per character); the last column is not padded, so no line ends in spaces.
    func format(_ row: [String]) -> String {
      row.enumerated().map { index, cell in
        index == row.count - 1
          ? cell : Display.padded(cell, toColumns: widths[index], alignRight: index == 0)
      }.joined(separator: "  ")
    }
    try checkInterrupt("browse", "nothing was listed")
    console.line(format(header))
    for (index, row) in rows.enumerated() {
      if index % 100 == 0 {
        try checkInterrupt("browse", "listed \(index) of \(rows.count) memes")
      }
      console.line(format(row))
    }
  }

  /// `browse grid`: thumbnails with their ids (a table where pictures cannot be drawn).
  func browseGrid() throws {
    let memes = try store.memes()
    guard settings.previewMode != .none, drawingWindow != nil else {
      if !memes.isEmpty { console.note("\(noPicturesReason); showing the table") }
      try browseTable()
      return
    }
    guard !memes.isEmpty else {
      try browseTable()
      return
    }
    drawGrid(
      memes.map { meme in
        GridEntry(
          label: String(meme.id),
          load: { [store] in
            guard meme.problem == nil,
              let data = try? ImageFile.read(path: store.url(for: meme.thumbnailFile).path)
            else { return nil }
            return try? ImageCodec.decode(data, name: meme.thumbnailFile).image
          },
          unreadable: { "meme \(meme.id): \(meme.problem ?? "its thumbnail cannot be read")" })
      })
  }

  /// `browse --tsv`: id, top, bottom, font, width, height, created (ISO 8601), path of the
  /// rendered image — one row per meme, fields escaped, no header. A stable contract. A damaged
  /// meme's path is left empty (never a path memesh refused, as if it were valid).
  func browseTSV() throws {
    // The store's path once, not a URL per meme, and dates formatted by hand: both are per-row
    // costs that dominate for a big store (bench/notes-startup.md).
    let directory = store.directory.path
    let memes = try store.memes()
    try checkInterrupt("browse", "nothing was listed")
    let rows = memes.map { meme in
      [
        String(meme.id), Display.escaped(meme.recipe.top), Display.escaped(meme.recipe.bottom),
        Display.escaped(meme.recipe.font), String(meme.width), String(meme.height),
        Self.internetDate(meme.created),
        meme.problem == nil ? Display.escaped(directory + "/" + meme.memeFile) : "",
      ].joined(separator: "\t")
    }
    console.rows(rows)
  }

  /// `2026-09-21T14:13:20Z`: RFC 3339 in UTC to the second, what ISO8601DateFormatter's
  /// `.withInternetDateTime` writes.
  static func internetDate(_ date: Date) -> String {
    let seconds = Int(date.timeIntervalSince1970.rounded(.down))
    let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
    let time = seconds - days * 86_400
    // Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm).
    let shifted = days + 719_468
    let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    func two(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
    let yearText = String(repeating: "0", count: max(0, 4 - String(year).count)) + String(year)
    return "\(yearText)-\(two(month))-\(two(day))T\(two(time / 3600)):\(two(time / 60 % 60)):"
      + "\(two(time % 60))Z"
  }

  /// `2026-09-21 16:13`: local time to the minute, what DateFormatter's `yyyy-MM-dd HH:mm`
  /// writes, from localtime_r (a DateFormatter per row would dominate `browse` on a big store).
  static func tableDate(_ date: Date) -> String {
    _ = localTimeReady
    var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
    var parts = tm()
    guard localtime_r(&seconds, &parts) != nil else {
      return String(internetDate(date).prefix(16)).replacingOccurrences(of: "T", with: " ")
    }
    func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : String(value) }
    let year = String(parts.tm_year + 1900)
    return String(repeating: "0", count: max(0, 4 - year.count)) + year
      + "-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday)) \(two(parts.tm_hour)):\(two(parts.tm_min))"
  }

  /// localtime_r need not read TZ itself: tzset once.
  private static let localTimeReady: Void = tzset()

  // MARK: - Detail

  /// `show ID`: the meme at its own aspect ratio (a summary where pictures cannot be drawn).
  func show(_ arguments: Arguments) throws {
    let id = try arguments.id(fallback: currentDetailID)
    let meme = try store.meme(id: id)
    view = .detail(id: id)
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    // `key: value`, or `key:` alone for an empty value, as `info` writes them (no line ends in
    // a space).
    let facts: [(String, String)] = [
      ("meme", String(meme.id)), ("top", meme.recipe.top), ("bottom", meme.recipe.bottom),
      ("font", meme.recipe.font), ("crop", meme.recipe.crop.description),
      ("size", "\(meme.width)×\(meme.height) \(meme.format.rawValue)"),
      ("source", meme.sourceName), ("created", formatter.string(from: meme.created)),
      ("modified", formatter.string(from: meme.modified)),
      ("file", store.url(for: meme.memeFile).path),
    ]
    if settings.previewMode != .none, let window = drawingWindow,
      store.problem(of: meme, needing: [\.memeFile]) == nil
    {
      let data = try ImageFile.read(path: store.url(for: meme.memeFile).path)
      // An animated meme plays until a key (Shell+Animation.swift), then the facts follow.
      if Animations.info(of: data, name: "meme \(id)") != nil,
        try playAnimation(data, name: "meme \(id)", recipe: nil)
      {
        for (key, value) in facts { console.line(value.isEmpty ? "\(key):" : "\(key): \(value)") }
        return
      }
      let decoded = try ImageCodec.decode(data, name: "meme \(id)")
      // The picture leaves room for the facts under it, the typed command and the next prompt:
      // all of it fits in the window, nothing scrolls away.
      let picture = TerminalPreview.draw(
        decoded.image, mode: settings.previewMode,
        colorDepth: TerminalCapabilities.detect(environment: environment).colorDepth,
        maxColumns: window.cells.columns,
        maxRows: max(4, window.cells.rows - facts.count - 2),
        environment: environment, cellPixelSize: window.cellPixelSize)
      console.picture(picture.text)
    }
    for (key, value) in facts { console.line(value.isEmpty ? "\(key):" : "\(key): \(value)") }
    if let problem = meme.problem { console.warning("meme \(meme.id): \(problem)") }
  }

  /// The meme the detail view shows, if it is the view.
  var currentDetailID: Int? {
    if case .detail(let id) = view { return id }
    return nil
  }

  /// `back`: from a meme's detail (or the editor) to the sent memes.
  func back() {
    switch view {
    case .detail, .editor:
      let fromEditor = view == .editor
      view = .sent
      if fromEditor, state != editor.blank {
        console.line("the draft is kept; 'info' or any editor command returns to it")
      }
      showSentMemes()
    case .sent:
      console.line("already in the sent memes")
    }
  }

  // MARK: - Edit, delete, export

  /// `edit ID`: opens a sent meme in the editor with its original picture and recipe.
  func edit(_ arguments: Arguments) throws {
    try edit(id: arguments.id(fallback: currentDetailID), recipe: nil)
  }

  /// Opens meme `id` for editing; `recipe` (from a loaded file) overrides the stored captions.
  /// With `asNewDraft` the meme's original picture and `recipe` start a new draft instead, which
  /// `share` saves as a new meme (a picture memesh wrote that is not this meme as it is now).
  func edit(id: Int, recipe: MemeRecipe?, asNewDraft: Bool = false) throws {
    let meme = try store.meme(id: id)
    // The original and the recipe are all it takes: 'share' writes the other files anew.
    if let problem = store.problem(of: meme, needing: [\.originalFile]) {
      throw ShellError.memeDamaged(command: "edit", id: id, problem: problem)
    }
    let path = store.url(for: meme.originalFile).path
    let bytes = try ImageFile.read(path: path)
    let decoded = try ImageCodec.decode(bytes, name: meme.sourceName)
    try checkInterrupt("edit", "the editor is unchanged")
    let picture = MemeRenderer.sourcePicture(
      path: meme.sourceName, bytes: bytes, decoded: decoded)
    let recipe = recipe ?? meme.recipe
    if asNewDraft {
      apply(
        .edit(id: nil, picture: picture, recipe: recipe), label: "load \(picture.displayName)")
      console.line("a new draft on meme \(id)'s original picture; 'share' saves a new meme")
      return
    }
    apply(.edit(id: id, picture: picture, recipe: recipe), label: "edit \(id)")
    editor.markClean()
    console.line("editing meme \(id); 'share' updates it in place")
  }

  /// `delete ID`: moves a meme to the trash; `undo` in the sent memes brings it back.
  func delete(_ arguments: Arguments) throws {
    let id = try arguments.id(fallback: currentDetailID)
    let meme = try store.delete(id: id)
    // The sent memes show afterwards, where undo brings the meme back.
    view = .sent
    console.line("deleted meme \(meme.id) ('undo' brings it back)")
  }

  /// `export ID PATH [--force]`: copies a sent meme's picture to a file (`-`: standard output).
  func export(_ allArguments: Arguments) throws {
    let force = try allArguments.options(switches: ["--force"]).switches.contains("--force")
    let arguments = allArguments.positional
    let id = try arguments.id()
    let meme = try store.meme(id: id)
    if let problem = store.problem(of: meme, needing: [\.memeFile]) {
      throw ShellError.memeDamaged(command: "export", id: id, problem: problem)
    }
    let data = try ImageFile.read(path: store.url(for: meme.memeFile).path)
    if arguments[1] == StandardStreams.name {
      try claimStandardOutput(for: "export")
      console.pictureFile(data)
      console.line("wrote meme \(id) to \(StandardStreams.outputName)")
      return
    }
    let path = OutputFile.destination(
      arguments[1], defaultName: "meme-\(id).\(meme.format.fileExtension)")
    // The stored bytes are copied as they are: a name for another format would mislabel them.
    let named = OutputFile.format(ofPath: path)
    if let other = OutputFile.unwritableFormat(ofPath: path)
      ?? named.flatMap({ $0 == meme.format ? nil : $0.name })
    {
      throw ShellError.exportFormatMismatch(id: id, path: path, format: meme.format, named: other)
    }
    try checkOverwrite(path, command: "export", force: force)
    try OutputFile.write(data, to: path, command: "export")
    console.line("wrote \(path)")
  }
}
