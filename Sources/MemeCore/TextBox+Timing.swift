/// When a box shows in an animation.
extension TextBox {
  /// Whether a frame that starts at `fraction` of one play (0…1) shows this box: from `start`
  /// up to, not including, `stop` (a `stop` of 1 reaches the end, the last frame included).
  public func shows(at fraction: Double) -> Bool {
    fraction >= start && (fraction < stop || stop >= 1)
  }
}
