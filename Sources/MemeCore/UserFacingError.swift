/// An error a user reads: `message` is one line, lowercase, naming what failed and why.
///
/// The shell prints it as `error: <message>`. Every module's error type conforms, so nothing
/// above the module needs to know its cases to word it.
public protocol UserFacingError: Error, CustomStringConvertible {
  /// One line, no trailing period, no `error:` prefix.
  var message: String { get }
}

extension UserFacingError {
  public var description: String { message }
}
