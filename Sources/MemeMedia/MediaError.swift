import MemeCore
import MemeSystem

/// Why a picture cannot be loaded, rendered or encoded, as data: which file or format, and why
/// (the library's reason, the limit that was met). Worded here and nowhere else; callers build
/// cases, never sentences. Fonts fail as `FontError`; a file that cannot be read carries its
/// `SystemError`, worded by MemeSystem.
public enum MediaError: UserFacingError, Equatable {
  // MARK: - Loading

  /// A picture file that cannot be loaded: its name as displayed, and why.
  case cannotLoad(name: String, LoadProblem)

  /// Why a file is not a picture memesh can load.
  public enum LoadProblem: Equatable, Sendable {
    /// The file cannot be read (missing, a folder, a FIFO, too large…).
    case unreadable(SystemError)
    /// The file has no bytes.
    case emptyFile
    /// The first bytes of a PNG or JPEG signature, then nothing.
    case endsEarly
    /// A format memesh recognises but does not read (`BMP`, `TIFF` …).
    case unsupportedFormat(name: String)
    /// Bytes that do not start as `expected` says (`PNG`, or every readable format):
    /// `start` is their first bytes, escaped.
    case notA(expected: String, start: String)
    /// The decoder refused the file: its reason in memesh's casing, and what helps (how to raise
    /// the pixel cap) when something does.
    case undecodable(reason: String, hint: String?)
    /// An animation frame (counted from 1) the decoder refused.
    case damagedFrame(number: Int, reason: String)
    /// `format` has no animations memesh reads frame by frame.
    case notAnAnimation(format: ImageFormat)
    /// The format's library is not installed.
    case libraryMissing(SharedLibrary.Missing)

    /// The words after `cannot load 'NAME': `.
    public var reason: String {
      switch self {
      case .unreadable(let error): error.reason
      case .emptyFile: "the file is empty"
      case .endsEarly: "the file ends early"
      case .unsupportedFormat(let name): "unsupported format '\(name)'"
      case .notA(let expected, let start): "not a \(expected) file (starts with \"\(start)\")"
      case .undecodable(let reason, let hint): reason + (hint.map { " (\($0))" } ?? "")
      case .damagedFrame(let number, let reason): "frame \(number): \(reason)"
      case .notAnAnimation(let format): "a \(format.name) is not an animation"
      case .libraryMissing(let missing): missing.message
      }
    }
  }

  // MARK: - Rendering

  /// A render asked for before a picture was loaded.
  case noPicture
  /// A picture (or its crop) with no pixels.
  case emptyPicture
  /// An animation whose frames all failed to arrive.
  case noFrames
  /// A meme larger than `format` can hold on a side; `animated` when PNG (no such limit) is
  /// not a way out because the meme moves.
  case tooLarge(format: ImageFormat, size: PixelSize, limit: Int, animated: Bool)

  // MARK: - Encoding

  /// Pixels that cannot be encoded as `format`, and why.
  case cannotEncode(format: ImageFormat, EncodeProblem)
  /// An animation asked for in a format that does not move.
  case notAnimatable(format: ImageFormat)
  /// An image with no pixels handed to the encoder.
  case emptyEncode
  /// The encoding task ended without a result.
  case encoderDidNotRun

  /// Why an encoder failed.
  public enum EncodeProblem: Equatable, Sendable {
    /// memesh reads the format but does not write it.
    case notWritten
    case outOfMemory
    /// The installed `library` is not the version memesh was compiled against.
    case versionMismatch(library: String)
    /// The library's own reason, in memesh's casing (`giflib: …`).
    case library(reason: String)
    /// The format's library is not installed.
    case libraryMissing(SharedLibrary.Missing)
  }

  /// One line, lowercase, no trailing period.
  public var message: String {
    switch self {
    case .cannotLoad(let name, let problem):
      return "cannot load '\(name)': \(problem.reason)"
    case .noPicture:
      return "cannot render: no picture loaded (try 'load FILE')"
    case .emptyPicture:
      return "cannot render: the picture is empty"
    case .noFrames:
      return "cannot render: the animation has no frames"
    case .tooLarge(let format, let size, let limit, let animated):
      return "cannot write a \(format.name) of \(size.width)×\(size.height) pixels: a "
        + "\(format.name) is at most \(limit) pixels on a side"
        + (animated ? "" : "; PNG has no such limit")
    case .cannotEncode(let format, let problem):
      let reason: String
      switch problem {
      case .notWritten: reason = "memesh does not write \(format.name)"
      case .outOfMemory: reason = "out of memory"
      case .versionMismatch(let library):
        reason = "\(library) is not the version memesh was built with"
      case .library(let text): reason = text
      case .libraryMissing(let missing): reason = missing.message
      }
      return "cannot encode \(format.name): \(reason)"
    case .notAnimatable(let format):
      return "cannot encode an animation as \(format.name): only GIF and WebP move"
    case .emptyEncode:
      return "cannot encode an empty picture"
    case .encoderDidNotRun:
      return "cannot encode: the encoder did not run"
    }
  }
}
