import Foundation

/// Pattern forms an expected transcript line may use:
///
/// - `[date]`   an ISO 8601 date, with or without a time (`2026-11-25T06:40:12Z`, `2026-11-25 06:40`)
/// - `[path]`   a path: any text without spaces
/// - `[sha256]` 64 hexadecimal digits
/// - `[number]` digits
/// - `...`      any text within the line; a line that is only `...` matches any number of lines
///
/// Everything else matches itself exactly.
public enum TranscriptPattern {
  /// Whether the actual lines match the expected ones (patterns allowed).
  public static func matches(expected: [String], actual: [String]) -> Bool {
    matches(expected[...], actual[...])
  }

  private static func matches(_ expected: ArraySlice<String>, _ actual: ArraySlice<String>) -> Bool
  {
    guard let first = expected.first else { return actual.isEmpty }
    if first == "..." {
      let rest = expected.dropFirst()
      var remaining = actual
      while true {
        if matches(rest, remaining) { return true }
        guard !remaining.isEmpty else { return false }
        remaining = remaining.dropFirst()
      }
    }
    guard let line = actual.first, matches(line: first, actual: line) else { return false }
    return matches(expected.dropFirst(), actual.dropFirst())
  }

  /// Whether one actual line matches one expected line.
  public static func matches(line expected: String, actual: String) -> Bool {
    if expected == actual { return true }
    guard expected.contains("[") || expected.contains("...") else { return false }
    guard let regex = try? NSRegularExpression(pattern: "^" + regexSource(expected) + "$") else {
      return false
    }
    let range = NSRange(actual.startIndex..., in: actual)
    return regex.firstMatch(in: actual, range: range) != nil
  }

  static let forms: [(String, String)] = [
    (
      "[date]",
      #"\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?"#
    ),
    ("[path]", #"\S+"#),
    ("[sha256]", "[0-9a-fA-F]{64}"),
    ("[number]", #"\d+"#),
    ("...", ".*"),
  ]

  /// The expected line as a regular expression.
  static func regexSource(_ expected: String) -> String {
    var source = ""
    var rest = Substring(expected)
    outer: while !rest.isEmpty {
      for (form, regex) in forms where rest.hasPrefix(form) {
        source += regex
        rest = rest.dropFirst(form.count)
        continue outer
      }
      source += NSRegularExpression.escapedPattern(for: String(rest.first ?? " "))
      rest = rest.dropFirst()
    }
    return source
  }
}
