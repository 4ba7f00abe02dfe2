/// A unified diff of two line lists (longest common subsequence, three lines of context). The
/// lines are compared as they are and printed escaped (`Display.escaped`): a transcript's
/// expected lines come from a file, and no byte of a file reaches the terminal raw.
enum UnifiedDiff {
  static func make(
    expected: [String], actual: [String], expectedName: String, actualName: String
  ) -> [String] {
    enum Edit { case same(String), removed(String), added(String) }
    let n = expected.count
    let m = actual.count
    // Long transcripts are compared in full only up to a size that stays quick.
    guard n * m <= 4_000_000 else {
      return [
        "--- \(Display.escaped(expectedName))", "+++ \(Display.escaped(actualName))",
        "(too long to diff: \(n) and \(m) lines)",
      ]
    }
    var table = [[Int]](repeating: [Int](repeating: 0, count: m + 1), count: n + 1)
    for i in stride(from: n - 1, through: 0, by: -1) {
      for j in stride(from: m - 1, through: 0, by: -1) {
        table[i][j] =
          expected[i] == actual[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
      }
    }
    var edits: [Edit] = []
    var i = 0
    var j = 0
    while i < n || j < m {
      if i < n, j < m, expected[i] == actual[j] {
        edits.append(.same(expected[i]))
        i += 1
        j += 1
      } else if i < n, j == m || table[i + 1][j] >= table[i][j + 1] {
        edits.append(.removed(expected[i]))
        i += 1
      } else {
        edits.append(.added(actual[j]))
        j += 1
      }
    }
    var output = ["--- \(Display.escaped(expectedName))", "+++ \(Display.escaped(actualName))"]
    let context = 3
    let changed = edits.indices.filter {
      if case .same = edits[$0] { return false }
      return true
    }
    var start = 0
    while start < changed.count {
      var end = start
      while end + 1 < changed.count, changed[end + 1] - changed[end] <= 2 * context { end += 1 }
      let low = max(0, changed[start] - context)
      let high = min(edits.count - 1, changed[end] + context)
      var oldStart = 0
      var newStart = 0
      for edit in edits[..<low] {
        switch edit {
        case .same: oldStart += 1; newStart += 1
        case .removed: oldStart += 1
        case .added: newStart += 1
        }
      }
      var oldCount = 0
      var newCount = 0
      var body: [String] = []
      for edit in edits[low...high] {
        switch edit {
        case .same(let text): body.append(" " + Display.escaped(text)); oldCount += 1; newCount += 1
        case .removed(let text): body.append("-" + Display.escaped(text)); oldCount += 1
        case .added(let text): body.append("+" + Display.escaped(text)); newCount += 1
        }
      }
      output.append("@@ -\(oldStart + 1),\(oldCount) +\(newStart + 1),\(newCount) @@")
      output += body
      start = end + 1
    }
    return output
  }
}
