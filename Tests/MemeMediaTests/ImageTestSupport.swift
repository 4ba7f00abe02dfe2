import Foundation
#if canImport(Glibc)
  import Glibc
#endif
import MemeCore
import MemeMedia

/// Where the image tests' committed fixtures live (never /work/shared: the tests must run from a
/// fresh clone).
enum ImageFixtures {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures", isDirectory: true)
  static let pngSuite = root.appendingPathComponent("pngsuite", isDirectory: true)
  static let images = root.appendingPathComponent("images", isDirectory: true)

  /// The bytes of `Fixtures/images/NAME`.
  static func data(_ name: String) throws -> Data {
    try Data(contentsOf: images.appendingPathComponent(name))
  }

  /// Decodes `Fixtures/images/NAME` the way `load` does.
  static func decode(_ name: String, limits: DecodeLimits = .default) throws -> DecodedImage {
    try ImageCodec.decode(try data(name), name: name, limits: limits)
  }

  /// Rows of a tab-separated file, without `#` comments and the header row starting `file`.
  static func table(_ url: URL) throws -> [[String]] {
    try String(contentsOf: url, encoding: .utf8).split(separator: "\n").compactMap { line in
      guard !line.hasPrefix("#"), !line.hasPrefix("file\t") else { return nil }
      return line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
    }
  }
}

extension RGBA {
  /// Largest difference of one channel, for colours that went through lossy JPEG.
  func distance(to other: RGBA) -> Int {
    max(
      abs(Int(r) - Int(other.r)), abs(Int(g) - Int(other.g)), abs(Int(b) - Int(other.b)),
      abs(Int(a) - Int(other.a)))
  }
}

/// The quadrant pattern every generated fixture shows (scripts/make-image-fixtures.py).
enum Quadrants {
  static let red = RGBA(220, 30, 30)
  static let green = RGBA(30, 200, 60)
  static let blue = RGBA(40, 60, 220)
  static let yellow = RGBA(240, 220, 40)

  /// Top-left, top-right, bottom-left, bottom-right colours at the middle of each quadrant.
  static func colours(of image: RGBAImage) -> [RGBA] {
    let (width, height) = (image.width, image.height)
    return [
      image[width / 4, height / 4], image[width * 3 / 4, height / 4],
      image[width / 4, height * 3 / 4], image[width * 3 / 4, height * 3 / 4],
    ]
  }

  /// True when each quadrant is within `tolerance` of red, green, blue, yellow.
  static func matches(_ image: RGBAImage, tolerance: Int = 40) -> Bool {
    zip(colours(of: image), [red, green, blue, yellow]).allSatisfy {
      $0.distance(to: $1) <= tolerance
    }
  }
}

/// Runs `memesh-image-probe` (Tests/ImageProbe) on raw-byte paths and collects its output.
enum ImageProbe {
  struct Result {
    /// One line per file (and per warning), without the final `maxrss` line.
    var lines: [String]
    /// Everything the process wrote to fd 2.
    var standardError: String
    /// Peak resident memory in kilobytes.
    var maxResidentKilobytes: Int
  }

  static var executable: URL? {
    let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let folders = [
      URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
      Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent(),
      packageRoot.appendingPathComponent(".build/debug"),
    ]
    return folders.map { $0.appendingPathComponent("memesh-image-probe") }
      .first { FileManager.default.isExecutableFile(atPath: $0.path) }
  }

  /// Runs the probe with `arguments` given as raw bytes (so non-UTF-8 names arrive unchanged).
  static func run(_ arguments: [[UInt8]], in directory: URL) throws -> Result {
    guard let executable else { throw SetupFailure("memesh-image-probe is not built") }
    // Process takes Strings; a shell script passes the exact bytes through printf escapes.
    let quoted = arguments.map { bytes in
      "\"$(printf '" + bytes.map { String(format: "\\%03o", $0) }.joined() + "')\""
    }.joined(separator: " ")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", "exec '\(executable.path)' \(quoted)"]
    process.currentDirectoryURL = directory
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let out = output.fileHandleForReading.readDataToEndOfFile()
    let err = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    var lines = String(decoding: out, as: UTF8.self).split(separator: "\n").map(String.init)
    let last = lines.popLast() ?? ""
    let rss = last.hasPrefix("maxrss ") ? Int(last.dropFirst(7)) ?? -1 : -1
    return Result(
      lines: lines, standardError: String(decoding: err, as: UTF8.self), maxResidentKilobytes: rss)
  }

  static func run(_ arguments: [String], in directory: URL) throws -> Result {
    try run(arguments.map { Array($0.utf8) }, in: directory)
  }
}

/// A fresh directory under the system's temporary folder, removed by `remove()`.
struct ScratchDirectory {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("memesh-image-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  /// Copies fixture `name` into the directory under `newName`'s raw bytes.
  func copy(_ name: String, to newName: [UInt8]) throws {
    let data = try ImageFixtures.data(name)
    let path = Array(url.path.utf8) + [UInt8(ascii: "/")] + newName
    let descriptor = open(
      path.map { CChar(bitPattern: $0) } + [0], O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard descriptor >= 0 else { throw SetupFailure("cannot create \(newName)") }
    defer { close(descriptor) }
    _ = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
  }

  func remove() { try? FileManager.default.removeItem(at: url) }
}

/// Builds PNG chunks for tests that need one the fixtures do not have.
enum PNGChunk {
  /// CRC-32 as PNG uses it (polynomial 0xEDB88320).
  static func crc(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
    }
    return ~crc
  }

  /// Length, type, data and CRC.
  static func make(_ type: String, _ data: [UInt8]) -> Data {
    func bigEndian(_ value: UInt32) -> [UInt8] {
      [
        UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF),
        UInt8(value & 0xFF),
      ]
    }
    let body = Array(type.utf8) + data
    return Data(bigEndian(UInt32(data.count)) + body + bigEndian(crc(body)))
  }

  /// `png` with `chunk` inserted before IEND (the last 12 bytes).
  static func beforeEnd(_ png: Data, _ chunk: Data) -> Data {
    png.dropLast(12) + chunk + png.suffix(12)
  }
}

/// A test's own set-up that could not be done (not memesh's behaviour under test).
struct SetupFailure: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
