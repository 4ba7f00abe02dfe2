/// memesh's version, shown by `--version` and `help`.
public enum MemeshVersion {
  public static let current = "0.1.0"
}
