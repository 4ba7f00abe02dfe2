import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The C libraries memesh opens when it first needs them instead of at every start: text
/// (FreeType, HarfBuzz, fontconfig, libunibreak, FriBiDi) when a caption is drawn, terminal
/// pictures (chafa, GLib) when one is drawn, a picture format's library (WebP, GIF, HEIF) when a
/// file of it is read or written (`ImageAdapter.libraries`). Most commands (`quit`, `browse`,
/// `show` in a pipe, completion) need none of them, and loading them all at start would about
/// double memesh's start-up (bench/notes-startup.md).
///
/// How: the release build lists none of them among the libraries the dynamic loader opens at
/// start (`scripts/lazy-libraries` removes them after linking). The calls into them stay plain
/// calls through the executable's PLT, which the loader binds on first call; `load(_:)` opens the
/// libraries with `RTLD_GLOBAL` first, so that binding finds them. Every Swift type that calls
/// into one of them calls `load(_:)` before its first call (`FontEngine`,
/// `TerminalChafa.TermInfo`, `ImageAdapter.libraries`), and the launcher asks `missing()` at
/// start, so a library that is not installed is reported then instead of ending memesh at its
/// first use.
///
/// This rests on lazy binding, which a user can turn off with `LD_BIND_NOW`. The script therefore
/// also marks those calls weak: a loader told to bind every call at start binds them to nothing
/// instead of refusing to start memesh ("undefined symbol"), and `restartForLazyBinding()`, the
/// first thing `main` does, then starts memesh again without `LD_BIND_NOW` (handing the user's
/// value back to the programs memesh runs). The price of weak calls: a call made before
/// `load(_:)` crashes instead of stopping with the loader's message (the transcripts run the
/// release binary). The other way, `dlsym` of every function memesh calls in these libraries
/// into tables behind the Swift types and the C encoders that use them, needs no build step but
/// is a line per function (some 180) and changes every call site.
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

  // MARK: - Immediate binding

  /// Where `restartForLazyBinding` keeps the user's `LD_BIND_NOW` across the restart.
  static let savedBindNow = "MEMESH_SAVED_LD_BIND_NOW"

  /// Makes the calls into these libraries bindable before anything calls them: when the loader
  /// bound every call at start (`LD_BIND_NOW` set) while one of the libraries was not loaded,
  /// starts this executable again (`/proc/self/exe`, same arguments) with `LD_BIND_NOW` moved to
  /// `MEMESH_SAVED_LD_BIND_NOW`; the restarted memesh puts it back for the programs it runs.
  /// Returns only when binding is lazy (or everything is loaded, as in a debug build), or with
  /// the reason memesh could not restart.
  public static func restartForLazyBinding() -> String? {
    let bindNow = getenv("LD_BIND_NOW").map { String(cString: $0) }
    let saved = getenv(savedBindNow).map { String(cString: $0) }
    let unloaded = {
      allCases.first { dlopen($0.rawValue, RTLD_LAZY | RTLD_NOLOAD) == nil }
    }
    switch startAction(bindNow: bindNow, saved: saved, unloaded: unloaded) {
    case .run:
      return nil
    case .handBack(let value):
      setenv("LD_BIND_NOW", value, 1)
      unsetenv(savedBindNow)
      return nil
    case .restart(let value, let library):
      return restart(savingBindNow: value, unloaded: library)
    }
  }

  /// What memesh does at start about `LD_BIND_NOW`.
  enum StartAction: Equatable {
    /// Calls are bound lazily, or every library is loaded already.
    case run
    /// The restarted memesh: binding is lazy; `LD_BIND_NOW` goes back to this value.
    case handBack(String)
    /// The loader bound every call at start and `unloaded` was not loaded: start again.
    case restart(bindNow: String, unloaded: SharedLibrary)
  }

  /// Decides from `LD_BIND_NOW` (`bindNow`), `MEMESH_SAVED_LD_BIND_NOW` (`saved`) and the first
  /// library not loaded (`unloaded`, asked only when it matters). The loader, like this, takes
  /// an empty `LD_BIND_NOW` for unset; a `saved` beside a set `LD_BIND_NOW` was not put there by
  /// a restart and is not trusted.
  static func startAction(
    bindNow: String?, saved: String?, unloaded: () -> SharedLibrary?
  ) -> StartAction {
    if bindNow == nil, let saved { return .handBack(saved) }
    guard let bindNow, !bindNow.isEmpty, let library = unloaded() else { return .run }
    return .restart(bindNow: bindNow, unloaded: library)
  }

  /// Starts this executable again with the same arguments, `LD_BIND_NOW` moved to
  /// `MEMESH_SAVED_LD_BIND_NOW`; returns only with the reason it could not.
  private static func restart(savingBindNow value: String, unloaded first: SharedLibrary) -> String
  {
    var environment: [UnsafeMutablePointer<CChar>?] = [strdup(savedBindNow + "=" + value)]
    var entry = environ
    while let variable = entry.pointee {
      let name = String(cString: variable).prefix { $0 != "=" }
      if name != "LD_BIND_NOW" && name != savedBindNow { environment.append(variable) }
      entry += 1
    }
    environment.append(nil)
    execve("/proc/self/exe", CommandLine.unsafeArgv, environment)
    return "LD_BIND_NOW is set, and memesh opens \(first.rawValue) and other libraries on first "
      + "use, which needs lazy binding: cannot start again without it (/proc/self/exe: "
      + "\(String(cString: strerror(errno)))); unset LD_BIND_NOW"
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
