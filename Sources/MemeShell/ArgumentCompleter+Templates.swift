import Foundation
import MemeCore
import MemeStore

extension ArgumentCompleter {
  /// The templates' names, each listed with its title and number of boxes.
  static let templateNames = ArgumentCompleter { shell, _, partial in
    let store = shell.templateStore
    return store.names().filter { $0.hasPrefix(partial) }.map { name in
      let summary = (try? store.template(named: name)).map {
        "  \(Display.cell($0.title, limit: 30)), \(Shell.boxCount($0.recipe.boxes.count))"
      }
      return CompletionCandidate(insertion: name, display: name + (summary ?? ""))
    }
  }

  /// `template`'s words: `save`, `import`, `rm` or a template's name first; then a folder
  /// after `import`, a name after `rm`, a style after a template's name.
  static let template = ArgumentCompleter { shell, previous, partial in
    guard let first = previous.first else {
      let words = Shell.templateSubcommands.filter { $0.hasPrefix(partial) }
        .map { CompletionCandidate(insertion: $0) }
      return words + templateNames.complete(shell, [], partial)
    }
    switch (first, previous.count) {
    case ("import", 1): return anyPath.complete(shell, [], partial)
    case ("rm", 1): return templateNames.complete(shell, [], partial)
    case ("save", _), ("import", _), ("rm", _): return []
    case (_, 1):
      let styles = (try? shell.templateStore.template(named: first))?.styles.map(\.name) ?? []
      return styles.filter { $0.hasPrefix(partial) }.map { CompletionCandidate(insertion: $0) }
    default: return []
    }
  }
}
