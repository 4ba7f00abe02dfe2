import Foundation
import MemeSystem
import MemeMedia

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
    PathCompletion.candidates(for: partial, extensions: PathCompletion.imageExtensions)
  }

  /// Any file or folder.
  static let anyPath = ArgumentCompleter { _, _, partial in
    PathCompletion.candidates(for: partial, extensions: nil)
  }

  /// Font names from the catalog (bundled and the user's) and installed families; font files and
  /// folders once the word
  /// looks like a path (`font ~/fonts/Impact.ttf`).
  static let fonts = ArgumentCompleter { shell, _, partial in
    if partial.contains("/") || partial.hasPrefix("~") || partial.hasPrefix(".") {
      return PathCompletion.candidates(for: partial, extensions: PathCompletion.fontExtensions)
    }
    let lowered = partial.lowercased()
    let names =
      shell.catalog.fonts().filter { $0.problem == nil }.map(\.name)
      + FontCatalog.installedFonts().map(\.name)
    return names.filter { $0.lowercased().hasPrefix(lowered) }
      .map { CompletionCandidate(insertion: $0) }
  }

  /// Sent meme ids, listed with their captions.
  static let memeIDs = ArgumentCompleter { shell, _, partial in
    let memes = (try? shell.store.memes()) ?? []
    return memes.filter { String($0.id).hasPrefix(partial) }.map { meme in
      // `top | bottom`, as typed to 'caption'; an empty caption leaves no dangling bar.
      let top = Display.cell(meme.recipe.top, limit: 24)
      let bottom = Display.cell(meme.recipe.bottom, limit: 24)
      let captions =
        switch (top.isEmpty, bottom.isEmpty) {
        case (true, true): "(no captions)"
        case (false, true): top
        case (true, false): "| " + bottom
        case (false, false): top + " | " + bottom
        }
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
  /// Extensions `font PATH` offers.
  static let fontExtensions: Set<String> = ["ttf", "otf", "ttc"]

  /// Every entry of the folder `partial` names that starts with its last component (byte for
  /// byte, as bash matches), sorted by bytes, folders ending in `/`. All of them: a cut list
  /// would make Tab insert a common prefix the other names do not share.
  ///
  /// Reads the folder with readdir and its entry types, so only symbolic links and file systems
  /// without types cost a stat.
  static func candidates(for partial: String, extensions: Set<String>?) -> [CompletionCandidate] {
    let slash = partial.lastIndex(of: "/")
    let folderPart = slash.map { String(partial[...$0]) } ?? ""
    let namePrefix = slash.map { String(partial[partial.index(after: $0)...]) } ?? partial
    var folder = folderPart.isEmpty ? "." : folderPart
    if folder.hasPrefix("~/") || folder == "~" {
      folder = OutputFile.homeDirectory() + folder.dropFirst()
    }
    let entries = matchingEntries(
      of: folder, prefix: FileSystemName.bytes(namePrefix), hidden: namePrefix.hasPrefix("."),
      extensions: extensions)
    return entries.map { entry in
      let name = FileSystemName.string(entry.bytes)
      return entry.isFolder
        ? CompletionCandidate(
          insertion: folderPart + name + "/", display: Display.escaped(name) + "/",
          appendSpace: false)
        : CompletionCandidate(insertion: folderPart + name, display: Display.escaped(name))
    }
  }

  /// The names in `folder` starting with `prefix`, sorted by bytes; dot files only when
  /// `hidden`; files only with one of `extensions` when given; entries whose type cannot be
  /// learned (a dangling link) left out.
  private static func matchingEntries(
    of folder: String, prefix: [UInt8], hidden: Bool, extensions: Set<String>?
  ) -> [(bytes: [UInt8], isFolder: Bool)] {
    guard let directory = opendir(FileSystemName.cString(folder)) else { return [] }
    defer { closedir(directory) }
    let folderBytes =
      FileSystemName.bytes(folder) + (folder.hasSuffix("/") ? [] : [UInt8(ascii: "/")])
    var entries: [(bytes: [UInt8], isFolder: Bool)] = []
    while let entry = readdir(directory) {
      let type = entry.pointee.d_type
      let bytes: [UInt8]? = withUnsafeBytes(of: &entry.pointee.d_name) { raw in
        guard let base = raw.baseAddress?.assumingMemoryBound(to: CChar.self) else { return nil }
        let name = UnsafeRawBufferPointer(start: base, count: strnlen(base, raw.count))
        guard name.starts(with: prefix), let first = name.first else { return nil }
        let isDotOrDotDot = name.count <= 2 && name.allSatisfy { $0 == UInt8(ascii: ".") }
        if first == UInt8(ascii: "."), !hidden || isDotOrDotDot { return nil }
        return Array(name)
      }
      guard let bytes else { continue }
      var isFolder = type == DT_DIR
      if type != DT_DIR && type != DT_REG {
        // A symbolic link (followed) or a file system that does not say.
        guard let mode = fileMode(folderBytes + bytes) else { continue }
        isFolder = mode & S_IFMT == S_IFDIR
      }
      if !isFolder, let extensions, !hasExtension(bytes, among: extensions) { continue }
      entries.append((bytes, isFolder))
    }
    entries.sort { precedes($0.bytes, $1.bytes) }
    return entries
  }

  /// stat(2)'s mode of the file at `path` (links followed), or nil.
  private static func fileMode(_ path: [UInt8]) -> mode_t? {
    var status = stat()
    let result = (path + [0]).withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) { characters in
        characters.baseAddress.map { stat($0, &status) } ?? -1
      }
    }
    return result == 0 ? status.st_mode : nil
  }

  /// Byte order, as `ls` sorts in the C locale (memcmp: comparing String views generically took
  /// a quarter of the time for 20,000 names).
  private static func precedes(_ left: [UInt8], _ right: [UInt8]) -> Bool {
    let common = min(left.count, right.count)
    let order = left.withUnsafeBytes { a in
      right.withUnsafeBytes { b -> Int32 in
        guard let a = a.baseAddress, let b = b.baseAddress else { return 0 }
        return memcmp(a, b, common)
      }
    }
    return order != 0 ? order < 0 : left.count < right.count
  }

  /// Whether the file name `bytes` ends in one of `extensions`, in any case.
  private static func hasExtension(_ bytes: [UInt8], among extensions: Set<String>) -> Bool {
    guard let dot = bytes.lastIndex(of: UInt8(ascii: ".")), dot > 0, bytes.count - dot <= 5
    else { return false }
    let suffix = String(decoding: bytes[(dot + 1)...], as: UTF8.self).lowercased()
    return extensions.contains(suffix)
  }
}
