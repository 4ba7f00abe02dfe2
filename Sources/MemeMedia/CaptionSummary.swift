import MemeCore

/// What was drawn for one caption, worded for `--explain` and warnings.
struct CaptionSummary {
  let caption: String
  let fontName: String
  let result: CaptionLayout.Result
  let shaped: [ShapedLine]
  let minimumSize: Double

  private var fallbacks: [(name: String, characters: String)] {
    var merged: [(name: String, characters: String)] = []
    for line in shaped {
      for (face, characters) in line.fallbacks {
        let name = [face.familyName, face.styleName].filter { !$0.isEmpty }
          .joined(separator: " ")
        if let index = merged.firstIndex(where: { $0.name == name }) {
          merged[index].characters += characters
        } else {
          merged.append((name, characters))
        }
      }
    }
    return merged
  }

  private var missing: [Unicode.Scalar] {
    var seen: [Unicode.Scalar] = []
    for scalar in shaped.flatMap(\.missing) where !seen.contains(scalar) { seen.append(scalar) }
    return seen
  }

  /// The `--explain` block of one box: `heading` (`box 1 (top)`), its rectangle in pixels, the
  /// lines, the font size and how much it shrank, its style when not MemeMe's, the fallback
  /// fonts and missing characters.
  func explain(heading: String, box: TextBox, in rectangle: CaptionLayout.Box) -> String {
    var text =
      "\(heading): \"\(caption.count > 60 ? String(caption.prefix(57)) + "..." : caption)\""
    let edges = [rectangle.x, rectangle.y].map { String(Int($0.rounded())) }
    let sides = [rectangle.width, rectangle.height].map { String(Int($0.rounded())) }
    text += "\n  rectangle: \(edges.joined(separator: " ")) \(sides.joined(separator: "×")) px"
    let quoted = result.lines.map { "\"\($0)\"" }.joined(separator: " / ")
    let count = result.lines.count
    text += "\n  lines (\(count)): \(quoted)"
    let size = Int(result.size.rounded())
    let largest = Int(result.maximumSize.rounded())
    let shrink =
      result.maximumSize > 0 ? Int(((1 - result.size / result.maximumSize) * 100).rounded()) : 0
    text += "\n  font: \(fontName) at \(size) px (largest for this box \(largest) px"
    text += shrink > 0 ? "; shrank \(shrink) %)" : "; no shrinking)"
    if let style = Self.style(of: box) { text += "\n  style: \(style)" }
    if result.truncated {
      text +=
        "\n  cut: too long for \(CaptionLayout.maximumLines) lines at the minimum size, "
        + "ends with \"\(CaptionLayout.ellipsis)\""
    }
    let fallbackText = fallbacks.map { "\($0.name) for \"\(unique($0.characters))\"" }
    text +=
      "\n  fallback fonts: "
      + (fallbackText.isEmpty ? "none" : fallbackText.joined(separator: ", "))
    text +=
      "\n  missing characters: "
      + (missing.isEmpty ? "none" : missing.map(describe).joined(separator: ", "))
    return text
  }

  /// What sets `box` apart from MemeMe's look (centered white capitals, black outline, level),
  /// or nil when nothing does.
  static func style(of box: TextBox) -> String? {
    var parts: [String] = []
    if box.alignment != .center { parts.append("aligned \(box.alignment.rawValue)") }
    if box.textCase != .upper { parts.append("as typed") }
    if box.fill != .white || box.outline != .automatic {
      let outline = box.outlineColor.map { "\($0) outline" } ?? "no outline"
      parts.append("\(box.fill), \(outline)")
    }
    if box.angle != 0 {
      let degrees = (box.angle * 10).rounded() / 10
      parts.append(
        "turned \(degrees == degrees.rounded() ? String(Int(degrees)) : String(degrees))°")
    }
    return parts.isEmpty ? nil : parts.joined(separator: "; ")
  }

  /// The warnings a user should see about this box (`label` names it).
  func warnings(_ label: BoxLabel) -> [String] {
    var warnings: [String] = []
    if result.truncated {
      warnings.append(
        "\(label.subject) is too long: cut at the minimum size (\(Int(minimumSize.rounded())) px) "
          + "and ended with '\(CaptionLayout.ellipsis)'")
    }
    let monochrome = shaped.flatMap(\.monochromeEmoji)
    if !monochrome.isEmpty {
      warnings.append(
        "no color emoji font installed (install fonts-noto-color-emoji): "
          + "\(String(monochrome)) drawn in black and white in \(label.object)")
    }
    if !missing.isEmpty {
      warnings.append(
        "no installed font has \(missing.map(describe).joined(separator: ", ")); "
          + "left out of \(label.object)")
    }
    return warnings
  }

  private func unique(_ characters: String) -> String {
    var seen: [Character] = []
    for character in characters where !seen.contains(character) { seen.append(character) }
    return String(seen.prefix(12))
  }

  private func describe(_ scalar: Unicode.Scalar) -> String {
    "'\(Character(scalar))' (U+\(String(scalar.value, radix: 16, uppercase: true)))"
  }
}

/// How explanations and warnings name a box: MemeMe's bands keep their names ("top caption"),
/// every box has its number.
struct BoxLabel {
  /// `box 1 (top)`, `box 3`: the head of its `--explain` block.
  let heading: String
  /// `top caption`, `box 3`: a warning's first words.
  let subject: String
  /// `the top caption`, `box 3`: inside a sentence.
  let object: String

  init(_ box: TextBox, number: Int) {
    switch box.placement {
    case .top, .bottom:
      heading = "box \(number) (\(box.placement))"
      subject = "\(box.placement) caption"
      object = "the \(box.placement) caption"
    case .middle, .left, .right:
      heading = "box \(number) (\(box.placement))"
      subject = "box \(number)"
      object = subject
    case .rect:
      heading = "box \(number)"
      subject = "box \(number)"
      object = subject
    }
  }
}
