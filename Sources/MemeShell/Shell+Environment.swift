import Foundation
import MemeMedia

extension Shell {
  /// Warns, once at start, about each environment variable memesh reads whose value it cannot
  /// use, naming the values it accepts: a bad setting is said, never silently ignored.
  func warnAboutEnvironment() {
    for problem in Self.environmentProblems(environment) { startWarning(problem) }
  }

  /// One line per variable that is set to a value memesh ignores.
  static func environmentProblems(_ environment: [String: String]) -> [String] {
    var problems: [String] = []
    func shown(_ value: String) -> String { Display.cell(value, limit: 40) }
    if let value = environment["MEMESH_PREVIEW"], !value.isEmpty,
      let problem = LaunchOptions.previewModeProblem(setting: "MEMESH_PREVIEW", value: value)
    {
      problems.append(problem + "; detecting the terminal instead")
    }
    let megapixels = DecodeLimits.megapixelsVariable
    if let value = environment[megapixels], !value.isEmpty,
      DecodeLimits(megapixelSetting: value).ignoredSetting != nil
    {
      let range = DecodeLimits.megapixelRange
      problems.append(
        "\(megapixels)='\(shown(value))' is not a whole number of megapixels from "
          + "\(range.lowerBound) to \(range.upperBound); the cap stays at "
          + "\(DecodeLimits().maxPixels / 1_000_000) megapixels")
    }
    let seconds = DecodeLimits.secondsVariable
    if let value = environment[seconds], !value.isEmpty, DecodeLimits.seconds(value) == nil {
      let range = DecodeLimits.secondsRange
      problems.append(
        "\(seconds)='\(shown(value))' is not a number of seconds from \(range.lowerBound) to "
          + "\(Int(range.upperBound)); decoding stays limited to "
          + "\(Int(DecodeLimits.defaultDecodeSeconds)) seconds")
    }
    for name in ["COLUMNS", "LINES"] {
      if let value = environment[name], !value.isEmpty, (Int(value) ?? 0) <= 0 {
        problems.append(
          "\(name)='\(shown(value))' is not a positive whole number; it is not used for the "
            + "window size")
      }
    }
    for name in ["XDG_DATA_HOME", "XDG_STATE_HOME"] {
      if let value = environment[name], !value.isEmpty, !value.hasPrefix("/") {
        problems.append(
          "\(name)='\(shown(value))' is not an absolute path; it is not used (the XDG "
            + "specification says to ignore relative paths)")
      }
    }
    if let value = environment["MEMESH_FONTS"], !value.isEmpty {
      var isFolder: ObjCBool = false
      if !FileManager.default.fileExists(atPath: value, isDirectory: &isFolder)
        || !isFolder.boolValue
      {
        problems.append(
          "MEMESH_FONTS='\(shown(value))' is not a folder; the bundled fonts cannot be found "
            + "there")
      }
    }
    return problems
  }
}
