// swift-tools-version:6.0
import PackageDescription

/// A system library found through pkg-config, installed on Debian by `make deps`.
func systemLibrary(_ name: String, pkgConfig: String, apt: [String]) -> Target {
  .systemLibrary(name: name, path: "Sources/\(name)", pkgConfig: pkgConfig, providers: [.apt(apt)])
}

// Linux only (built and tested on Debian 12): the shell uses Linux calls (ppoll, st_mtim,
// /proc) and the release build's start-up relies on ELF lazy binding (scripts/lazy-libraries).
let package = Package(
  name: "memesh",
  products: [
    .executable(name: "memesh", targets: ["memesh"])
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
    // SHA-256 of pictures (Checksum).
    .package(url: "https://github.com/apple/swift-crypto", exact: "4.5.2"),
    // memegen's template config.yml (MemegenConfig); MIT.
    .package(url: "https://github.com/jpsim/Yams", exact: "6.2.2"),
  ],
  targets: [
    // MARK: - C libraries (one module map each)
    systemLibrary("CEdit", pkgConfig: "libedit", apt: ["libedit-dev"]),
    systemLibrary("CPNG", pkgConfig: "libpng16", apt: ["libpng-dev"]),
    systemLibrary("CJPEG", pkgConfig: "libjpeg", apt: ["libjpeg62-turbo-dev"]),
    systemLibrary("CFreeType", pkgConfig: "freetype2", apt: ["libfreetype-dev"]),
    systemLibrary("CHarfBuzz", pkgConfig: "harfbuzz", apt: ["libharfbuzz-dev"]),
    systemLibrary("CChafa", pkgConfig: "chafa", apt: ["libchafa-dev", "libglib2.0-dev"]),
    systemLibrary("CFontconfig", pkgConfig: "fontconfig", apt: ["libfontconfig-dev"]),
    systemLibrary("CDeflate", pkgConfig: "libdeflate", apt: ["libdeflate-dev"]),
    systemLibrary("CWebP", pkgConfig: "libwebpmux", apt: ["libwebp-dev"]),
    systemLibrary("CGif", pkgConfig: "libgif", apt: ["libgif-dev"]),
    systemLibrary("CHeif", pkgConfig: "libheif", apt: ["libheif-dev"]),
    systemLibrary("CUnibreak", pkgConfig: "libunibreak", apt: ["libunibreak-dev"]),
    systemLibrary("CThai", pkgConfig: "libthai", apt: ["libthai-dev"]),
    systemLibrary("CFribidi", pkgConfig: "fribidi", apt: ["libfribidi-dev"]),
    // glibc's <malloc.h> (mallopt), for memesh's entry point.
    .systemLibrary(name: "CMalloc", path: "Sources/CMalloc"),
    // The shell's line-editing C, for MemeShell only: fixed-argument wrappers for libedit's
    // variadic configuration calls, the key reader that lets window resizes through only while
    // waiting for a key, and the Ctrl-C flag (its header says why each is C).
    .target(name: "CMemeshEdit", dependencies: ["CEdit"], path: "Sources/CMemeshEdit"),
    // The codec layer's C, for MemeMedia only: libpng's and libjpeg's setjmp/longjmp glue, and
    // the row-streaming encoders and compositing that touch every pixel (its header says why
    // each function is C).
    .target(
      name: "CMemeshCodec", dependencies: ["CPNG", "CJPEG", "CDeflate", "CWebP"],
      path: "Sources/CMemeshCodec",
      // encode.c streams PNG data through zlib itself (libpng's own dependency).
      linkerSettings: [.linkedLibrary("z")]),

    // Captions spliced into a baseline JPEG's entropy-coded data (memesh_splice.h says why C).
    .target(name: "CMemeshSplice", dependencies: ["CJPEG", "CMemeshCodec"]),

    // MARK: - Swift
    // Plain values: no C, no terminal, no files.
    .target(name: "MemeCore"),
    // The system calls memesh changes the disk with: folders opened once and used without
    // following symlinks, the one atomic write, reading a whole file, errno in words, where
    // the home is.
    .target(name: "MemeSystem"),
    // Every C library but libedit, behind Swift types (pictures, fonts, terminal graphics);
    // the ones most commands never need are opened on first use (SharedLibrary).
    .target(
      name: "MemeMedia",
      dependencies: [
        "MemeCore", "MemeSystem", "CMemeshCodec", "CMemeshSplice", "CWebP", "CGif", "CHeif",
        "CFreeType", "CHarfBuzz", "CChafa", "CFontconfig", "CUnibreak", "CThai", "CFribidi",
        .product(name: "Crypto", package: "swift-crypto"),
      ]
    ),
    // The sent-memes store, the draft and the templates on disk.
    .target(
      name: "MemeStore",
      dependencies: ["MemeCore", "MemeSystem", .product(name: "Yams", package: "Yams")]),
    // The REPL: registry, tokenizer, completion, views, transcripts.
    .target(
      name: "MemeShell",
      dependencies: ["MemeCore", "MemeMedia", "MemeStore", "MemeSystem", "CEdit", "CMemeshEdit"]
    ),
    .executableTarget(
      name: "memesh",
      dependencies: [
        "MemeShell", "MemeSystem", "CMalloc",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      // The release binary's code that everyday commands run, placed together (lld orders the
      // functions scripts/hot-symbols.txt names): fewer pages of the binary resident and
      // faulted in. Names it lacks are skipped; scripts/hot-symbols regenerates it.
      // Its 86,000 relative relocations (the static Swift runtime's and Foundation's pointers)
      // packed as DT_RELR (glibc 2.36, Debian 12): 16 KB the loader reads at every start
      // instead of 2 MB of RELA entries.
      linkerSettings: [
        .unsafeFlags(
          [
            "-use-ld=lld", "-Xlinker",
            "--symbol-ordering-file=\(Context.packageDirectory)/scripts/hot-symbols.txt",
            "-Xlinker", "--no-warn-symbol-ordering",
            "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
          ], .when(configuration: .release))
      ]
    ),

    // MARK: - Tests
    .testTarget(name: "MemeCoreTests", dependencies: ["MemeCore"]),
    .testTarget(name: "MemeSystemTests", dependencies: ["MemeSystem"]),
    .testTarget(
      name: "MemeMediaTests",
      dependencies: ["MemeMedia", "MemeSystem", "memesh-image-probe", "CMemeshCoefficients"],
      resources: [.copy("Fixtures")]
    ),
    // Reads a JPEG's DCT coefficients (libjpeg), for the splice's proof of no loss.
    .target(name: "CMemeshCoefficients", dependencies: ["CJPEG"], path: "Tests/CoefficientReader"),
    // Loads pictures in a separate process for MemeMediaTests (stderr stays empty, bomb memory).
    .executableTarget(
      name: "memesh-image-probe", dependencies: ["MemeMedia", "MemeSystem"], path: "Tests/ImageProbe"),
    .testTarget(
      name: "MemeStoreTests", dependencies: ["MemeStore", "MemeSystem", "memesh-store-torture"]),
    // Drives a store from separate processes for MemeStoreTests (crash loop, two sessions).
    .executableTarget(
      name: "memesh-store-torture", dependencies: ["MemeStore"], path: "Tests/StoreTorture"),
    // The end-to-end test runs the built `memesh` binary with piped input.
    .testTarget(
      name: "MemeShellTests", dependencies: ["MemeShell", "memesh", "line-editor-demo"]),
    // A LineEditor with a fixed completer that MemeShellTests drive through a pseudo-terminal.
    .executableTarget(
      name: "line-editor-demo", dependencies: ["MemeShell"], path: "Tests/LineEditorDemo"),
    // The JPEG splice's parts timed in-process, for `make bench`.
    .executableTarget(
      name: "memesh-splice-bench", dependencies: ["MemeMedia", "MemeStore"],
      path: "Tests/SpliceBench"),
    // One meme from a photo to a file through MemeRenderer, timed by `make bench`.
    .executableTarget(
      name: "memesh-render-bench", dependencies: ["MemeMedia"], path: "Tests/RenderBench"),

    // One animated meme through AnimationRenderer, timed by `make bench` (bench/animation.py).
    .executableTarget(
      name: "memesh-animation-bench", dependencies: ["MemeMedia"], path: "Tests/AnimationBench"),

    // MARK: - Fuzzing (scripts/fuzz, Tests/Fuzz/README.md)
    // What each libFuzzer target feeds to memesh.
    .target(
      name: "MemeFuzzTargets",
      dependencies: ["MemeCore", "MemeMedia", "MemeStore", "MemeSystem", "MemeShell"],
      path: "Tests/Fuzz/Targets"),
    // libFuzzer's entry points when built with -sanitize=fuzzer; otherwise replays files.
    .executableTarget(
      name: "memesh-fuzz", dependencies: ["MemeFuzzTargets"], path: "Tests/Fuzz/Driver"),
    // Every committed crash input and seed, through its target, in `swift test`.
    .testTarget(
      name: "FuzzRegressionTests", dependencies: ["MemeFuzzTargets", "memesh-image-probe"],
      path: "Tests/Fuzz/RegressionTests"),
  ]
)

// Each function of memesh's own code in a section of its own in release builds, so the linker
// can place the ones scripts/hot-symbols.txt names together (the Swift runtime and Foundation
// are built that way already).
let swiftModules: Set = ["MemeCore", "MemeSystem", "MemeMedia", "MemeStore", "MemeShell", "memesh"]
let cModules: Set = ["CMemeshEdit", "CMemeshCodec", "CMemeshSplice"]
for target in package.targets {
  if swiftModules.contains(target.name) {
    target.swiftSettings =
      (target.swiftSettings ?? [])
      + [.unsafeFlags(["-Xfrontend", "-function-sections"], .when(configuration: .release))]
  } else if cModules.contains(target.name) {
    target.cSettings =
      (target.cSettings ?? [])
      + [.unsafeFlags(["-ffunction-sections"], .when(configuration: .release))]
  }
}
