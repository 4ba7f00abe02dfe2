import MemeCore

/// One command of the shell, as data: `help`, completion, dispatch and "did you mean" all read
/// the registry's list of these values.
public struct ShellCommand: Sendable {
  /// What the user types.
  public var name: String
  /// Other names (`add` for `new`).
  public var aliases: [String]
  /// One line for `help`.
  public var abstract: String
  /// `caption TOP | BOTTOM`.
  public var usage: String
  /// More lines for `help COMMAND` (may be empty).
  public var discussion: String
  /// Where the command belongs (it runs from any view when its intent is clear).
  public var views: [ViewKind]
  /// How many words it takes; checked before it runs.
  var arity: Arity
  /// Completes the command's arguments.
  public var arguments: ArgumentCompleter
  /// True for caption commands: the rest of the line is the caption as typed, not shell words
  /// (`CommandTokenizer.tokenize(_:isTextCommand:)`).
  public var takesText: Bool
  /// Nil when the command can run; otherwise why not (`no camera: no video device in /dev …`).
  var unavailableReason: @Sendable (Shell) -> String?
  /// Runs the command with the words after its name.
  var run: @Sendable (Shell, Arguments) throws -> Void

  init(
    _ name: String, aliases: [String] = [], usage: String? = nil, views: [ViewKind],
    abstract: String, discussion: String = "", arity: Arity = .any,
    arguments: ArgumentCompleter = .none, takesText: Bool = false,
    unavailableReason: @escaping @Sendable (Shell) -> String? = { _ in nil },
    run: @escaping @Sendable (Shell, Arguments) throws -> Void
  ) {
    self.name = name
    self.aliases = aliases
    self.usage = usage ?? name
    self.views = views
    self.abstract = abstract
    self.discussion = discussion
    self.arity = arity
    self.arguments = arguments
    self.takesText = takesText
    self.unavailableReason = unavailableReason
    self.run = run
  }

  /// The name and every alias.
  public var allNames: [String] { [name] + aliases }
}

/// How many words a command takes after its name. A command that parses options or words
/// of its own (`share`, `crop`) takes `.any` and says what is wrong itself.
enum Arity: Sendable {
  /// Any number.
  case any
  /// None (`undo`, `quit`).
  case none
  /// At most this many (`help [COMMAND]`, `show [ID]` in a meme's detail).
  case atMost(Int)
  /// Exactly this many; `missing` and `extra` word the error when given (`load PATH`).
  case exactly(Int, missing: String? = nil, extra: String? = nil)

  /// Throws the command's usage error when `arguments` has the wrong number of words; options
  /// (`--force`, which the command itself parses) are not counted.
  func check(_ allArguments: Arguments) throws {
    var arguments = allArguments
    arguments.tokens.removeAll(where: Arguments.isOption)
    switch self {
    case .any:
      return
    case .none:
      if !arguments.isEmpty { throw arguments.usageError() }
    case .atMost(let limit):
      if arguments.count > limit { throw arguments.unexpected(at: limit) }
    case .exactly(let count, let missing, let extra):
      if arguments.count < count { throw arguments.usageError(missing) }
      if arguments.count > count {
        throw extra.map { arguments.usageError($0) } ?? arguments.unexpected(at: count)
      }
    }
  }
}

/// The words after a command's name.
struct Arguments {
  /// The name the user typed (an alias, perhaps).
  var invokedAs: String
  var tokens: [CommandTokenizer.Token]
  /// The usage line, for errors.
  var usage: String

  var words: [String] { tokens.map(\.text) }
  var isEmpty: Bool { tokens.isEmpty }
  var count: Int { tokens.count }
  subscript(index: Int) -> String { tokens[index].text }

  /// The words joined with single spaces (caption text).
  var text: String { words.joined(separator: " ") }

  /// The usage error that blames the word at `index`, the first one too many (`show 3 7`
  /// blames `7`).
  func unexpected(at index: Int) -> ShellError {
    .usage(command: invokedAs, problem: "unexpected '\(self[index])'", firstWord: nil, usage: usage)
  }

  /// A usage error for this command.
  func usageError(_ problem: String? = nil) -> ShellError {
    .usage(command: invokedAs, problem: problem, firstWord: tokens.first?.text, usage: usage)
  }

  /// Whether a word is an option (`--name`, not quoted); `options` says which it takes.
  static func isOption(_ token: CommandTokenizer.Token) -> Bool {
    !token.isLiteral && token.text.hasPrefix("--") && token.text.count > 2
  }

  /// The words that are not options (`isOption`), for commands that take switches only.
  var positional: Arguments {
    var copy = self
    copy.tokens.removeAll(where: Arguments.isOption)
    return copy
  }

  /// Splits off `--flag VALUE` and `--switch` options; returns the remaining words.
  func options(
    switches: Set<String> = [], values: Set<String> = []
  ) throws -> (positional: [String], switches: Set<String>, values: [String: String]) {
    var positional: [String] = []
    var seenSwitches: Set<String> = []
    var seenValues: [String: String] = [:]
    var index = 0
    while index < tokens.count {
      let token = tokens[index]
      index += 1
      guard Arguments.isOption(token) else {
        positional.append(token.text)
        continue
      }
      var name = token.text
      var inlineValue: String?
      if let equals = name.firstIndex(of: "=") {
        inlineValue = String(name[name.index(after: equals)...])
        name = String(name[..<equals])
      }
      if switches.contains(name), inlineValue == nil {
        seenSwitches.insert(name)
      } else if values.contains(name) {
        if let inlineValue {
          seenValues[name] = inlineValue
        } else if index < tokens.count {
          seenValues[name] = tokens[index].text
          index += 1
        } else {
          throw usageError("\(name) needs a value")
        }
      } else {
        let known = (switches.union(values)).sorted()
        throw ShellError.unknownOption(
          command: invokedAs, option: name, suggestion: Suggestions.nearest(to: name, among: known),
          usage: usage)
      }
    }
    return (positional, seenSwitches, seenValues)
  }

  /// The single ID argument (or `fallback`), as a positive integer.
  func id(at index: Int = 0, fallback: Int? = nil) throws -> Int {
    guard index < count else {
      if let fallback { return fallback }
      throw usageError("needs a meme id")
    }
    guard let id = Int(self[index]), id > 0 else {
      throw ShellError.notAMemeID(command: invokedAs, word: self[index])
    }
    return id
  }
}
