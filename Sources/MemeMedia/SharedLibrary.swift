import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The C libraries memesh opens when it first needs them instead of at every start: text
/// (FreeType, HarfBuzz, fontconfig) when a caption is drawn, terminal pictures (chafa, GLib)
/// when one is drawn, a picture format's library (WebP, GIF, HEIF) when a file of it is read or
/// written (`ImageAdapter.libraries`). Most commands (`quit`, `browse`, `show` in a pipe, completion) need
/// neither, and loading them with their own dependencies costs more than the rest of start-up.
///
/// How: the release build lists none of them among the libraries the dynamic loader opens at
/// start (`scripts/lazy-libraries` removes them after linking). The calls into them stay plain
/// calls through the executable's PLT, which the loader binds on first call; `load(_:)` opens the
/// libraries with `RTLD_GLOBAL` first, so that binding finds them. Every Swift type that calls
/// into one of them calls `load(_:)` before its first call (`FontEngine`,
/// `TerminalChafa.TermInfo`), and the launcher asks `missing()` at start, so a library that is
/// not installed is reported then instead of ending memesh at its first use.
///
/// To add a library: one `case` below (its soname), `load(.thatCase)` in the type that calls it,
/// and its name in `packages`. Debug builds link every library as usual; loading is then a no-op.
public enum SharedLibrary: String, CaseIterable, Sendable {
  case freeType = "libfreetype.so.6"
  case harfBuzz = "libharfbuzz.so.0"
  case fontconfig = "libfontconfig.so.1"
  case chafa = "libchafa.so.0"
  case glib = "libglib-2.0.so.0"
  case webp = "libwebp.so.7"
  case webpDemux = "libwebpdemux.so.2"
  case webpMux = "libwebpmux.so.3"
  case gif = "libgif.so.7"
  case heif = "libheif.so.1"
  case unibreak = "libunibreak.so.1"
  case fribidi = "libfribidi.so.0"

  /// The libraries captions need. (libthai, for Thai word breaks, is not among them: memesh
  /// calls it through versioned symbols, which the loader checks at start, so it stays a
  /// start-up library; it is small.)
  public static let text: [SharedLibrary] = [
    .freeType, .harfBuzz, .fontconfig, .unibreak, .fribidi,
  ]
  /// The libraries terminal pictures need.
  public static let terminalPictures: [SharedLibrary] = [.glib, .chafa]

  /// The Debian package that installs it, for the message when it is missing.
  public var package: String {
    switch self {
    case .freeType: "libfreetype6"
    case .harfBuzz: "libharfbuzz0b"
    case .fontconfig: "libfontconfig1"
    case .chafa: "libchafa0"
    case .glib: "libglib2.0-0"
    case .webp: "libwebp7"
    case .webpDemux: "libwebpdemux2"
    case .webpMux: "libwebpmux3"
    case .gif: "libgif7"
    case .heif: "libheif1"
    case .unibreak: "libunibreak1"
    case .fribidi: "libfribidi0"
    }
  }

  /// A library that could not be opened: its soname, the loader's reason and what installs it.
  public struct Missing: Error, Equatable, Sendable {
    public var soname: String
    public var reason: String
    public var package: String

    /// `libchafa.so.0 cannot be loaded (…); install libchafa0, or run 'make deps'`.
    public var message: String {
      "\(soname) cannot be loaded (\(reason)); install \(package), or run 'make deps'"
    }
  }

  /// What opening each library gave, once per soname for the process.
  private static let opened = Mutex<[String: Result<Void, Missing>]>([:])

  /// Opens `libraries` (each once per process); throws for the first that cannot be opened.
  public static func load(_ libraries: [SharedLibrary]) throws(Missing) {
    for library in libraries { try open(library.rawValue, package: library.package) }
  }

  /// Opens `soname` with `RTLD_GLOBAL` once per process.
  static func open(_ soname: String, package: String) throws(Missing) {
    let result = opened.withLock { opened in
      if let known = opened[soname] { return known }
      let result: Result<Void, Missing>
      if dlopen(soname, RTLD_NOW | RTLD_GLOBAL) != nil {
        result = .success(())
      } else {
        let reason = dlerror().map { String(cString: $0) } ?? "not found"
        result = .failure(Missing(soname: soname, reason: reason, package: package))
      }
      opened[soname] = result
      return result
    }
    try result.get()
  }

  /// The libraries that cannot be loaded, found without loading the ones that are installed.
  public static func missing(environment: [String: String]) -> [Missing] {
    allCases.compactMap { missing($0.rawValue, package: $0.package, environment: environment) }
  }

  /// Why `soname` cannot be loaded, or nil. It is looked for in `LD_LIBRARY_PATH` and the
  /// folders the C library came from (a few `access` calls); only when it is not there is it
  /// opened, to ask the loader itself.
  static func missing(_ soname: String, package: String, environment: [String: String])
    -> Missing?
  {
    let folders = searchFolders(environment: environment)
    if folders.contains(where: { access($0 + "/" + soname, R_OK) == 0 }) { return nil }
    do {
      try open(soname, package: package)
      return nil
    } catch {
      return error
    }
  }

  /// `LD_LIBRARY_PATH`, then Debian's multiarch folders for this architecture, then the usual
  /// ones. A library in none of them is still found by the loader's own search (`missing`).
  static func searchFolders(environment: [String: String]) -> [String] {
    var folders = (environment["LD_LIBRARY_PATH"] ?? "").split(separator: ":").map(String.init)
    #if arch(x86_64)
      folders += ["/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu"]
    #elseif arch(arm64)
      folders += ["/lib/aarch64-linux-gnu", "/usr/lib/aarch64-linux-gnu"]
    #endif
    return folders + ["/usr/local/lib", "/usr/lib", "/lib"]
  }
}
