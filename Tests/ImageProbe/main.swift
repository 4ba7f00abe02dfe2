// Loads each file named on the command line the way memesh does, in a separate process, so
// ImageFileTests can check that nothing reaches stderr and how much memory a bomb costs.
//
// Prints one line per file: `ok WIDTHxHEIGHT FORMAT orientation N` (then one `warning: …` line
// per warning) or `error: MESSAGE`; then `maxrss KILOBYTES`. `--write DIR` also saves each
// decoded picture as DIR/NAME.png, to look at. Arguments are taken as raw bytes,
// so file names that are not UTF-8 arrive unchanged.
import Foundation
import MemeMedia
import MemeSystem

#if canImport(Glibc)
  import Glibc
#endif

var limits = DecodeLimits.default
var outputDirectory: String?
var paths: [[UInt8]] = []
var index = 1
while index < Int(CommandLine.argc) {
  guard let argument = CommandLine.unsafeArgv[index] else { break }
  let bytes = Array(UnsafeBufferPointer(start: argument, count: strlen(argument))).map {
    UInt8(bitPattern: $0)
  }
  if bytes == Array("--max-pixels".utf8), index + 1 < Int(CommandLine.argc),
    let value = CommandLine.unsafeArgv[index + 1].flatMap({ Int(String(cString: $0)) })
  {
    limits.maxPixels = value
    index += 2
    continue
  }
  if bytes == Array("--write".utf8), index + 1 < Int(CommandLine.argc),
    let value = CommandLine.unsafeArgv[index + 1].map({ String(cString: $0) })
  {
    outputDirectory = value
    index += 2
    continue
  }
  paths.append(bytes)
  index += 1
}

for path in paths {
  do {
    let (_, decoded) = try ImageFile.load(path: FileSystemName.string(path), limits: limits)
    print(
      "ok \(decoded.image.width)x\(decoded.image.height) \(decoded.format.rawValue) "
        + "orientation \(decoded.orientation)")
    for warning in decoded.warnings { print("warning: \(warning)") }
    if let outputDirectory {
      let name = String(decoding: path, as: UTF8.self).split(separator: "/").last ?? "picture"
      let png = try ImageCodec.encode(decoded.image, as: .png)
      try png.write(to: URL(fileURLWithPath: "\(outputDirectory)/\(name).png"))
    }
  } catch {
    print("error: \(error)")
  }
}
// VmHWM, not getrusage's ru_maxrss: Linux carries ru_maxrss over exec, so a child of the big
// test process would report the test process's size.
let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
let peak =
  status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }?
  .split(separator: " ").dropFirst().first ?? "-1"
print("maxrss \(peak)")
