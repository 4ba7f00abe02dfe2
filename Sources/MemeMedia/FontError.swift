import MemeCore

/// Why a font cannot be used, as data: which font and why; worded here only.
public enum FontError: UserFacingError, Equatable {
  /// A path to a font file that is not there.
  case noSuchFile(name: String)
  /// A font file that cannot be drawn with; `reason` is a few words (`is a directory`, `not a
  /// TrueType or OpenType font`).
  case unreadable(name: String, reason: String)
  /// A name that is no bundled, user or installed font; `available` are the ones there are.
  case unknown(name: String, available: [String])
  /// FreeType could not start (or is not installed); `detail` says why when known.
  case engineUnavailable(detail: String?)

  /// What `unreadable` says of a file that is not a font.
  public static let notAFont = "not a TrueType or OpenType font"

  public var message: String { message(command: "font") }

  /// The message as `command` says it (`text 2 font: unknown font …`).
  public func message(command: String) -> String {
    switch self {
    case .noSuchFile(let name):
      return "\(command): cannot find font file '\(name)'"
    case .unreadable(let name, let reason):
      return "\(command): cannot read '\(name)': \(reason)"
    case .unknown(let name, let available) where available.isEmpty:
      return "\(command): unknown font '\(name)': no fonts found (set MEMESH_FONTS to memesh's "
        + "Fonts folder)"
    case .unknown(let name, let available):
      return "\(command): unknown font '\(name)' (available: "
        + "\(available.joined(separator: ", ")); 'fonts --installed' lists the system's)"
    case .engineUnavailable(let detail):
      return detail ?? "\(command): FreeType failed to start"
    }
  }
}
