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

  func explain(label: String) -> String {
    var text = "\(label): \"\(caption.count > 60 ? String(caption.prefix(57)) + "..." : caption)\""
    let quoted = result.lines.map { "\"\($0)\"" }.joined(separator: " / ")
    let count = result.lines.count
    text += "\n  lines (\(count)): \(quoted)"
    let size = Int(result.size.rounded())
    let largest = Int(result.maximumSize.rounded())
    let shrink =
      result.maximumSize > 0 ? Int(((1 - result.size / result.maximumSize) * 100).rounded()) : 0
    text += "\n  font: \(fontName) at \(size) px (largest for this image \(largest) px"
    text += shrink > 0 ? "; shrank \(shrink) %)" : "; no shrinking)"
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

  func warnings(label: String) -> [String] {
    var warnings: [String] = []
    if result.truncated {
      warnings.append(
        "\(label) caption is too long: cut at the minimum size (\(Int(minimumSize.rounded())) px) "
          + "and ended with '\(CaptionLayout.ellipsis)'")
    }
    let monochrome = shaped.flatMap(\.monochromeEmoji)
    if !monochrome.isEmpty {
      warnings.append(
        "no color emoji font installed (install fonts-noto-color-emoji): "
          + "\(String(monochrome)) drawn in black and white in the \(label) caption")
    }
    if !missing.isEmpty {
      warnings.append(
        "no installed font has \(missing.map(describe).joined(separator: ", ")); "
          + "left out of the \(label) caption")
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
