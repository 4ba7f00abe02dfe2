/// "Did you mean …?": the nearest known word by edit distance.
enum Suggestions {
  /// The candidate closest to `word` (at most 2 edits, or a unique prefix), or nil.
  static func nearest(to word: String, among candidates: [String]) -> String? {
    let lowered = word.lowercased()
    guard !lowered.isEmpty, lowered.count <= 64 else { return nil }
    let prefixed = candidates.filter { $0.hasPrefix(lowered) }
    if prefixed.count == 1 { return prefixed[0] }
    var best: (word: String, distance: Int)?
    for candidate in candidates {
      let distance = editDistance(lowered, candidate)
      let allowed = candidate.count <= 3 ? 1 : 2
      guard distance <= allowed, distance < (best?.distance ?? .max) else { continue }
      best = (candidate, distance)
    }
    return best?.word
  }

  /// Levenshtein distance with adjacent transpositions counted as one edit.
  static func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previousPrevious = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          current[j] = min(current[j], previousPrevious[j - 2] + 1)
        }
      }
      (previousPrevious, previous, current) = (previous, current, previousPrevious)
    }
    return previous[b.count]
  }
}
