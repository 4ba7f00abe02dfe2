/// The pure geometry of meme captions: where MemeMe's two bands are, how a box's text breaks
/// into lines and how big its font can be. Text is measured through a closure, so this knows no
/// fonts.
public enum CaptionLayout {
  /// The most lines one caption may wrap to.
  public static let maximumLines = 3

  /// A rectangle in pixels with fractional edges.
  public struct Box: Sendable, Equatable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
      self.x = x
      self.y = y
      self.width = width
      self.height = height
    }

    /// The bottom edge.
    public var maxY: Double { y + height }
  }

  /// Vertical metrics of a font and the outline, all as multiples of the font size (em).
  public struct Style: Sendable, Equatable {
    /// Baseline to baseline.
    public var lineHeight: Double
    /// Baseline to the top of the tallest capital (or ascender) drawn.
    public var ascent: Double
    /// Baseline to the lowest descender drawn (positive).
    public var descent: Double
    /// Outline width as a fraction of the font size.
    public var outline: Double

    public init(lineHeight: Double, ascent: Double, descent: Double, outline: Double = 0.07) {
      self.lineHeight = lineHeight
      self.ascent = ascent
      self.descent = descent
      self.outline = outline
    }

    /// The outline width in pixels at `size`: proportional, at least one pixel.
    public func outlineWidth(at size: Double) -> Double { max(1, size * outline) }

    /// The height `lines` lines take at `size`, outline included.
    public func height(lines: Int, size: Double) -> Double {
      guard lines > 0 else { return 0 }
      return size * inkHeight(lines: lines) + 2 * outlineWidth(at: size)
    }

    /// The height `lines` lines take at a size of 1 px, without the outline.
    public func inkHeight(lines: Int) -> Double {
      ascent + descent + lineHeight * Double(max(lines, 1) - 1)
    }
  }

  /// The two bands captions live in, inside margins proportional to the image.
  public struct Bands: Sendable, Equatable {
    public var top: Box
    public var bottom: Box
    /// The largest font size worth using on this image.
    public var maximumSize: Double
    /// The smallest font size before a caption is cut with an ellipsis.
    public var minimumSize: Double

    /// Bands for an image of `size`: each about 30 % of the height, never overlapping.
    public init(imageSize size: PixelSize, style: Style) {
      top = TextPlacement.top.box(in: size)
      bottom = TextPlacement.bottom.box(in: size)
      (minimumSize, maximumSize) = CaptionLayout.sizeLimits(for: top, imageSize: size, style: style)
    }
  }

  /// The font sizes a caption in `box` on a picture of `imageSize` may take: at most one line
  /// filling the box's height, and no more than about 15 % of the picture's height (or 6 % of its
  /// width on a wide strip); at least what is readable on a phone, 3 % of the height (less on a
  /// strip narrower than it is tall), unless the box allows less. The same rule for every box,
  /// so MemeMe's bands and a label of the same height get the same sizes.
  public static func sizeLimits(for box: Box, imageSize size: PixelSize, style: Style)
    -> (minimum: Double, maximum: Double)
  {
    let width = Double(max(size.width, 0))
    let height = Double(max(size.height, 0))
    let oneLine = largest(
      extent: box.height, perSize: style.ascent + style.descent, outline: style.outline)
    let maximum = max(0, min(oneLine, max(height * 0.15, width * 0.06)))
    let minimum = min(maximum, max(6, 0.03 * min(height, width * 1.5)))
    return (minimum, maximum)
  }

  /// A piece of text that is never broken, and whether a space joins it to the previous one.
  public struct Unit: Sendable, Equatable {
    public var text: String
    public var spaceBefore: Bool

    public init(_ text: String, spaceBefore: Bool) {
      self.text = text
      self.spaceBefore = spaceBefore
    }
  }

  /// The chosen lines of one caption.
  public struct Result: Sendable, Equatable {
    /// The lines, in logical order; empty when there is nothing to draw.
    public var lines: [String]
    /// The font size in pixels.
    public var size: Double
    /// The size the caption would have liked (the maximum for this image).
    public var maximumSize: Double
    /// True when the caption did not fit at the minimum size and ends with an ellipsis.
    public var truncated: Bool
    /// The width of each line at `size`, as measured (without outline).
    public var lineWidths: [Double]

    public init(
      lines: [String], size: Double, maximumSize: Double, truncated: Bool,
      lineWidths: [Double]
    ) {
      self.lines = lines
      self.size = size
      self.maximumSize = maximumSize
      self.truncated = truncated
      self.lineWidths = lineWidths
    }

    /// Nothing to draw.
    public static let empty = Result(
      lines: [], size: 0, maximumSize: 0, truncated: false, lineWidths: [])
  }

  /// The ellipsis appended to a cut caption.
  public static let ellipsis = "…"

  // MARK: - Normalizing

  /// The text as drawn: upper-cased the Unicode way (`straße` → `STRASSE`) unless `uppercased`
  /// is false (a box drawn as typed), tabs and line breaks as spaces, control characters and
  /// bidi overrides removed, ends trimmed.
  public static func normalize(_ text: String, uppercased: Bool = true) -> String {
    var scalars = String.UnicodeScalarView()
    for scalar in (uppercased ? text.uppercased() : text).unicodeScalars {
      if scalar.properties.isWhitespace {
        scalars.append(" ")
      } else if scalar.properties.generalCategory == .control
        || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
      {
        continue
      } else {
        scalars.append(scalar)
      }
    }
    return String(scalars).trimmingSpaces()
  }

  // MARK: - Breaking text into units

  /// Splits `text` before each of `breaks`: the character offsets where Unicode's line-breaking
  /// rules (UAX #14, found outside MemeCore) let a new line start. Spaces at a break are not part
  /// of either unit; they set the next unit's `spaceBefore`.
  public static func units(of text: String, breakingBefore breaks: [Int]) -> [Unit] {
    let breaks = Set(breaks)
    var units: [Unit] = []
    var current = ""
    var sawSpace = false
    func flush() {
      var piece = Substring(current)
      var trailingSpace = false
      while piece.last?.isWhitespace == true {
        piece.removeLast()
        trailingSpace = true
      }
      while piece.first?.isWhitespace == true {
        piece.removeFirst()
        sawSpace = true
      }
      if !piece.isEmpty {
        units.append(Unit(String(piece), spaceBefore: sawSpace && !units.isEmpty))
        sawSpace = false
      }
      sawSpace = sawSpace || trailingSpace
      current = ""
    }
    for (offset, character) in text.enumerated() {
      if breaks.contains(offset) { flush() }
      current.append(character)
    }
    flush()
    return units
  }

  /// The units joined wherever no space separates them: the lines a caption gets when it may
  /// break only at spaces.
  static func joinedAtSpaces(_ units: [Unit]) -> [Unit] {
    var joined: [Unit] = []
    for unit in units {
      if !unit.spaceBefore, var last = joined.popLast() {
        last.text += unit.text
        joined.append(last)
      } else {
        joined.append(unit)
      }
    }
    return joined
  }

  /// Joins units back into a line.
  public static func join(_ units: ArraySlice<Unit>) -> String {
    var line = ""
    for unit in units {
      if unit.spaceBefore && !line.isEmpty { line.append(" ") }
      line += unit.text
    }
    return line
  }

  // MARK: - Fitting

  /// Chooses lines and a font size for `text` in `box`.
  ///
  /// `breaks` are the character offsets where a line may start (UAX #14). `measure` returns the
  /// advance width of a string at a font size of 1 px. For each line count from 1 to 3 the break
  /// that makes the widest line narrowest is found; the count allowing the largest font wins
  /// (memegen's rule), capped at `maximumSize`. Breaks at spaces are preferred: a break between
  /// letters (CJK, Thai, after a hyphen) is taken only when it lets the caption be more than
  /// `spacePreference` larger. Below `minimumSize` the caption is cut at the minimum size and
  /// ends with an ellipsis.
  public static func fit(
    _ text: String, breaks: [Int], in box: Box, style: Style, minimumSize: Double,
    maximumSize: Double, measure: (String) -> Double
  ) -> Result {
    let units = units(of: text, breakingBefore: breaks)
    guard !units.isEmpty, box.width > 0, box.height > 0, maximumSize > 0 else { return .empty }
    // The whole caption in one measurement: if even perfectly balanced lines (one, two or
    // three: in a short box fewer lines may allow more) need a size below the minimum, skip
    // measuring every word and cut straight away.
    let spaceWidth = measure(" ")
    let total = measure(join(units[...]))
    let bestCase =
      (1...maximumLines).map { lines in
        size(forWidest: total / Double(lines), lines: lines, box: box, style: style)
      }.max() ?? 0
    if bestCase < minimumSize {
      return truncate(
        units, in: box, style: style, size: minimumSize, maximumSize: maximumSize,
        spaceWidth: spaceWidth, measure: measure)
    }
    let everyBreak = bestBreaks(units, box: box, style: style, space: spaceWidth, measure: measure)
    let spaced = joinedAtSpaces(units)
    var chosen = everyBreak
    if spaced.count < units.count,
      let atSpaces = bestBreaks(
        spaced, box: box, style: style, space: spaceWidth, measure: measure),
      atSpaces.size * spacePreference >= min(everyBreak?.size ?? 0, maximumSize)
    {
      chosen = atSpaces
    }
    guard let chosen else { return .empty }
    var fontSize = min(chosen.size, maximumSize)
    if fontSize < minimumSize {
      return truncate(
        units, in: box, style: style, size: minimumSize, maximumSize: maximumSize,
        spaceWidth: spaceWidth, measure: measure)
    }
    // The sum of word widths ignores kerning across words: measure the real lines once and
    // shrink if one is wider than the estimate.
    let lines = chosen.lines
    let measured = lines.map(measure)
    let widest = measured.max() ?? 0
    fontSize = min(
      fontSize, size(forWidest: widest, lines: lines.count, box: box, style: style))
    fontSize = max(fontSize, minimumSize)
    return Result(
      lines: lines, size: fontSize, maximumSize: maximumSize, truncated: false,
      lineWidths: measured.map { $0 * fontSize })
  }

  /// How much larger a caption must get before it breaks between letters rather than at a space.
  static let spacePreference = 1.15

  /// The lines (1 to 3, balanced) that allow the largest font for `units`, and that size.
  static func bestBreaks(
    _ units: [Unit], box: Box, style: Style, space: Double, measure: (String) -> Double
  ) -> (size: Double, lines: [String])? {
    let widths = units.map { measure($0.text) }
    var best: (size: Double, lines: [Range<Int>])?
    for count in 1...min(maximumLines, units.count) {
      let lines = balancedBreaks(widths: widths, units: units, space: space, lines: count)
      let widest = lines.map { lineWidth($0, widths, units, space) }.max() ?? 0
      let candidate = size(forWidest: widest, lines: lines.count, box: box, style: style)
      if best == nil || candidate > (best?.size ?? 0) * 1.0001 {
        best = (candidate, lines)
      }
    }
    return best.map { ($0.size, $0.lines.map { join(units[$0]) }) }
  }

  /// The largest size at which `lines` lines, the widest `widest` wide at 1 px, fit in `box`.
  static func size(forWidest widest: Double, lines: Int, box: Box, style: Style) -> Double {
    let ink = style.inkHeight(lines: lines)
    let byHeight = largest(extent: box.height, perSize: ink, outline: style.outline)
    let byWidth =
      widest > 0 ? largest(extent: box.width, perSize: widest, outline: style.outline) : .infinity
    return max(0, min(byHeight, byWidth))
  }

  /// The largest size s with s × perSize + 2 × max(1, s × outline) ≤ extent.
  static func largest(extent: Double, perSize: Double, outline: Double) -> Double {
    let proportional = extent / (perSize + 2 * outline)
    if proportional * outline >= 1 { return proportional }
    return max(0, (extent - 2) / perSize)
  }

  static func lineWidth(
    _ range: Range<Int>, _ widths: [Double], _ units: [Unit], _ space: Double
  ) -> Double {
    var width = 0.0
    for index in range {
      if index > range.lowerBound && units[index].spaceBefore { width += space }
      width += widths[index]
    }
    return width
  }

  /// Splits units into at most `lines` lines so that the widest is as narrow as possible.
  ///
  /// Greedy packing answers "does every line fit in width L?" exactly, so a binary search on L
  /// finds the optimum of this linear-partition problem in O(units × 60).
  static func balancedBreaks(
    widths: [Double], units: [Unit], space: Double, lines: Int
  ) -> [Range<Int>] {
    let whole = lineWidth(0..<units.count, widths, units, space)
    if lines <= 1 { return [0..<units.count] }
    var low = widths.max() ?? 0
    var high = whole
    for _ in 0..<60 where high - low > 1e-9 * max(1, high) {
      let middle = (low + high) / 2
      if greedy(widths: widths, units: units, space: space, limit: middle).count <= lines {
        high = middle
      } else {
        low = middle
      }
    }
    return greedy(widths: widths, units: units, space: space, limit: high)
  }

  /// Packs units into lines no wider than `limit` (a unit wider than it gets a line alone).
  static func greedy(
    widths: [Double], units: [Unit], space: Double, limit: Double
  ) -> [Range<Int>] {
    var lines: [Range<Int>] = []
    var start = 0
    var width = 0.0
    for index in widths.indices {
      if index == start {
        width = widths[index]
        continue
      }
      let added = width + (units[index].spaceBefore ? space : 0) + widths[index]
      if added > limit * (1 + 1e-12) {
        lines.append(start..<index)
        start = index
        width = widths[index]
      } else {
        width = added
      }
    }
    if start < widths.count { lines.append(start..<widths.count) }
    return lines
  }

  /// Fills up to three lines at `size`, breaking inside words that are too long, and ends the
  /// last line with an ellipsis. Measures only as many units as fit.
  static func truncate(
    _ units: [Unit], in box: Box, style: Style, size: Double, maximumSize: Double,
    spaceWidth: Double, measure: (String) -> Double
  ) -> Result {
    let limit = max(0, box.width - 2 * style.outlineWidth(at: size)) / size
    let lineCount =
      (1...maximumLines).last { style.height(lines: $0, size: size) <= box.height } ?? 1
    var lines: [String] = []
    var current = ""
    var width = 0.0
    var truncated = false
    var queue = units[...]
    // Pieces of a broken word, next one last.
    var pending: [Unit] = []
    while let unit = pending.popLast() ?? queue.popFirst() {
      let unitWidth = measure(unit.text)
      let gap = current.isEmpty ? 0 : (unit.spaceBefore ? spaceWidth : 0)
      if width + gap + unitWidth <= limit {
        if gap > 0 { current += " " }
        current += unit.text
        width += gap + unitWidth
        continue
      }
      if unitWidth > limit && unit.text.count > 1 {
        // A word wider than a whole line: break it between characters.
        var pieces = unit.text.map { Unit(String($0), spaceBefore: false) }
        pieces[0].spaceBefore = unit.spaceBefore
        pending.append(contentsOf: pieces.reversed())
        continue
      }
      if current.isEmpty {
        // One character wider than the line: draw it anyway, it is clipped at the edge.
        current = unit.text
        width = unitWidth
        continue
      }
      lines.append(current)
      if lines.count == lineCount {
        truncated = true
        break
      }
      current = ""
      width = 0
      pending.append(Unit(unit.text, spaceBefore: false))
    }
    if !truncated && !current.isEmpty { lines.append(current) }
    if truncated, var last = lines.popLast() {
      while !last.isEmpty && measure(last + ellipsis) > limit {
        last.removeLast()
      }
      while last.last?.isWhitespace == true { last.removeLast() }
      lines.append(last + ellipsis)
    }
    let widths = lines.map { measure($0) * size }
    return Result(
      lines: lines, size: size, maximumSize: maximumSize, truncated: truncated,
      lineWidths: widths)
  }
}

extension String {
  /// Without leading and trailing spaces.
  fileprivate func trimmingSpaces() -> String {
    var slice = Substring(self)
    while slice.first == " " { slice.removeFirst() }
    while slice.last == " " { slice.removeLast() }
    return String(slice)
  }
}
