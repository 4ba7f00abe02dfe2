import Foundation

/// Completes one command's arguments: given the finished words after the command name and the
/// word being typed (unquoted), the candidates. Insertions are raw text; `ShellCompleter` quotes
/// them for the tokenizer.
public struct ArgumentCompleter: Sendable {
  let complete: @Sendable (Shell, _ previous: [String], _ partial: String) -> [CompletionCandidate]

  init(
    _ complete:
      @escaping @Sendable (Shell, _ previous: [String], _ partial: String) ->
      [CompletionCandidate]
  ) {
    self.complete = complete
  }

  /// No arguments.
  static let none = ArgumentCompleter { _, _, _ in [] }

  /// Fixed words (`table`, `grid`).
  static func words(_ words: [String]) -> ArgumentCompleter {
    ArgumentCompleter { _, _, partial in
      words.filter { $0.hasPrefix(partial) }.map { CompletionCandidate(insertion: $0) }
    }
  }

  /// Picture files and folders (for `load`).
  static let imagePaths = ArgumentCompleter { _, _, partial in
    PathCompletion.candidates(for: partial, imagesOnly: true)
  }

  /// Any file or folder.
  static let anyPath = ArgumentCompleter { _, _, partial in
    PathCompletion.candidates(for: partial, imagesOnly: false)
  }

  /// Font names from the catalog (bundled and the user's).
  static let fonts = ArgumentCompleter { shell, _, partial in
    let lowered = partial.lowercased()
    return shell.catalog.fonts().map(\.name).filter { $0.lowercased().hasPrefix(lowered) }
      .map { CompletionCandidate(insertion: $0) }
  }

  /// Sent meme ids, listed with their captions.
  static let memeIDs = ArgumentCompleter { shell, _, partial in
    let memes = (try? shell.store.memes()) ?? []
    return memes.filter { String($0.id).hasPrefix(partial) }.map { meme in
      let captions = [meme.top, meme.bottom].map { Display.cell($0, limit: 24) }
        .joined(separator: " | ")
      return CompletionCandidate(insertion: String(meme.id), display: "\(meme.id)  \(captions)")
    }
  }

  /// Command names (for `help`).
  static let commandNames = ArgumentCompleter { shell, previous, partial in
    guard previous.isEmpty else { return [] }
    return CommandRegistry.commands.filter { $0.name.hasPrefix(partial) }
      .map { CompletionCandidate(insertion: $0.name) }
  }

  /// One completer per argument position; extra positions complete nothing.
  static func positional(_ parts: [ArgumentCompleter]) -> ArgumentCompleter {
    ArgumentCompleter { shell, previous, partial in
      guard previous.count < parts.count else { return [] }
      return parts[previous.count].complete(shell, previous, partial)
    }
  }

  /// Options (`--explain`, `--out FILE`) mixed with positional words: after an option that takes
  /// a value, that value's completer; otherwise the options not used yet and `positional`.
  static func options(
    switches: [String] = [], values: [String: ArgumentCompleter] = [:],
    positional: ArgumentCompleter = .none
  ) -> ArgumentCompleter {
    ArgumentCompleter { shell, previous, partial in
      if let last = previous.last, let value = values[last] {
        return value.complete(shell, [], partial)
      }
      var remaining: [String] = []
      var skipNext = false
      for word in previous {
        if skipNext {
          skipNext = false
          continue
        }
        if values[word] != nil {
          skipNext = true
        } else if !switches.contains(word) {
          remaining.append(word)
        }
      }
      let unused = (switches + values.keys.sorted()).filter { !previous.contains($0) }
      let optionCandidates = unused.filter { $0.hasPrefix(partial) && partial.hasPrefix("-") }
        .map { CompletionCandidate(insertion: $0) }
      if partial.hasPrefix("-") { return optionCandidates }
      return positional.complete(shell, remaining, partial)
    }
  }
}

/// File and folder names for completion.
enum PathCompletion {
  /// Extensions `load` offers (the content decides what a file is; this only filters the list).
  static let imageExtensions: Set<String> = ["png", "jpg", "jpeg", "jpe", "jfif"]

  /// The entries of the folder `partial` names that start with its last component.
  static func candidates(for partial: String, imagesOnly: Bool) -> [CompletionCandidate] {
    let slash = partial.lastIndex(of: "/")
    let folderPart = slash.map { String(partial[...$0]) } ?? ""
    let namePrefix = slash.map { String(partial[partial.index(after: $0)...]) } ?? partial
    var folder = folderPart.isEmpty ? "." : folderPart
    if folder.hasPrefix("~/") || folder == "~" {
      folder = OutputFile.homeDirectory() + folder.dropFirst()
    }
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
      return []
    }
    var results: [CompletionCandidate] = []
    for name in names.sorted() where name.hasPrefix(namePrefix) {
      if name.hasPrefix("."), !namePrefix.hasPrefix(".") { continue }
      var isFolder: ObjCBool = false
      let full = (folder.hasSuffix("/") ? folder : folder + "/") + name
      guard FileManager.default.fileExists(atPath: full, isDirectory: &isFolder) else { continue }
      if isFolder.boolValue {
        results.append(
          CompletionCandidate(
            insertion: folderPart + name + "/", display: Display.escaped(name) + "/",
            appendSpace: false))
      } else if !imagesOnly
        || imageExtensions.contains((name as NSString).pathExtension.lowercased())
      {
        results.append(
          CompletionCandidate(insertion: folderPart + name, display: Display.escaped(name)))
      }
      if results.count >= 1000 { break }
    }
    return results
  }
}
