import MemeCore

extension PreviewMode {
  /// The mode called `name`, in any case (`iterm2` also names `iterm`); nil for anything else.
  public init?(name: String) {
    let lowered = name.trimmingWhitespace().lowercased()
    if lowered == "iterm2" {
      self = .iterm
    } else if let mode = PreviewMode(rawValue: lowered) {
      self = mode
    } else {
      return nil
    }
  }
}

extension String {
  /// Without leading and trailing spaces, tabs and newlines (no Foundation needed).
  fileprivate func trimmingWhitespace() -> String {
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
    return String(drop(while: isSpace).reversed().drop(while: isSpace).reversed())
  }
}
