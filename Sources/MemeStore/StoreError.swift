import Foundation
import MemeCore
import MemeSystem

/// Why a store operation failed, worded for the user in one line naming the path involved.
public enum StoreError: UserFacingError, Equatable {
  /// No meme (outside the trash) has this id.
  case noMeme(id: Int)
  /// The store cannot be changed; `reason` says why (a damaged index, a newer version…).
  case readOnly(path: String, reason: String)
  /// A file operation failed: `action` is what was being done (`write`, `rename`…).
  case fileSystem(action: String, path: String, reason: String)
  /// A system call failed (`MemeSystem.SystemError`, worded there).
  case system(SystemError)
  /// The index exists but cannot be used.
  case damagedIndex(path: String, reason: String)
  /// The draft document cannot be used.
  case damagedDraft(path: String, reason: String, movedTo: String?)
  /// A draft names an image that is not in the draft store.
  case missingDraftImage(sha256: String)
  /// A template folder that cannot be imported: `path` is the file at fault, `problem` why
  /// (with the line of `config.yml` it is about).
  case badTemplate(path: String, problem: String)
  /// No template has this name.
  case noTemplate(name: String)
  /// A template of this name exists already.
  case templateExists(name: String)
  /// A name that cannot name a template (`TemplateName.problem`).
  case badTemplateName(problem: String)
  /// A stored template that cannot be read; left where it is.
  case damagedTemplate(path: String, reason: String)

  /// One line, lowercase, no trailing period.
  public var message: String {
    switch self {
    case .noMeme(let id):
      return "no meme with id \(id)"
    case .readOnly(let path, let reason):
      return "the store '\(path)' is read-only: \(reason)"
    case .fileSystem(let action, let path, let reason):
      return "cannot \(action) '\(path)': \(reason)"
    case .system(let error):
      return error.message
    case .damagedIndex(let path, let reason):
      return "cannot read the store index '\(path)': \(reason)"
    case .damagedDraft(let path, let reason, let movedTo):
      if let movedTo {
        return "cannot restore the draft '\(path)': \(reason) (moved aside to '\(movedTo)')"
      }
      return "cannot restore the draft '\(path)': \(reason)"
    case .missingDraftImage(let sha256):
      return "the draft's picture \(sha256.prefix(12))… is missing from the draft store"
    case .badTemplate(let path, let problem):
      return "cannot import '\(path)': \(problem)"
    case .noTemplate(let name):
      return "no template named '\(name)'"
    case .templateExists(let name):
      return "a template named '\(name)' exists already"
    case .badTemplateName(let problem):
      return problem
    case .damagedTemplate(let path, let reason):
      return "cannot read the template '\(path)': \(reason)"
    }
  }
}
