/// Where the user is, as in MemeMe: the sent memes (the root), the editor, or one meme's detail.
public enum ShellView: Equatable, Sendable {
  case sent
  case editor
  case detail(id: Int)

  /// The kind of view, for the registry's "where it applies".
  var kind: ViewKind {
    switch self {
    case .sent: .sent
    case .editor: .editor
    case .detail: .detail
    }
  }
}

/// The views a command belongs to (for `help` grouping and completion).
public enum ViewKind: String, Sendable, CaseIterable {
  case editor, sent, detail, anywhere

  /// The heading `help` shows.
  var title: String {
    switch self {
    case .editor: "Editor"
    case .sent: "Sent memes"
    case .detail: "Detail"
    case .anywhere: "Anywhere"
    }
  }
}
