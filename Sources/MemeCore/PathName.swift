/// A path as the user typed it, split by its last slash as text, without asking the file
/// system. Foundation's `NSString` path helpers trap on one-character names (`share file a`),
/// so every split of a path the user typed goes through here.
public struct PathName: Sendable, Equatable {
  /// The path as given.
  public let text: String

  public init(_ text: String) { self.text = text }

  /// The path without trailing slashes ("/" stays "/").
  private var trimmed: Substring {
    var end = text[...]
    while end.count > 1, end.hasSuffix("/") { end = end.dropLast() }
    return end
  }

  /// The folder part: "" for a bare name (`a`), "/" for a name in the root (`/a`),
  /// `dir` for `dir/a` and `dir/a/`.
  public var folder: String {
    let path = trimmed
    guard let slash = path.lastIndex(of: "/") else { return "" }
    var folder = path[..<slash]
    while folder.count > 1, folder.hasSuffix("/") { folder = folder.dropLast() }
    return folder.isEmpty ? "/" : String(folder)
  }

  /// The last component: `a` for `dir/a`, `dir/a/` and `a`; "/" for "/"; "" for "".
  public var lastComponent: String {
    let path = trimmed
    guard path != "/" else { return "/" }
    guard let slash = path.lastIndex(of: "/") else { return String(path) }
    return String(path[path.index(after: slash)...])
  }

  /// The extension of the last component without its dot, as typed (`JPG` for `x.JPG`); ""
  /// when there is none, or the only dot starts the name (`.jpg` is a hidden file named jpg).
  public var pathExtension: String {
    let name = lastComponent
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
    return String(name[name.index(after: dot)...])
  }
}
