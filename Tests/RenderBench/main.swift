// memesh-render-bench: one meme from a photo to a file, the way `share file` makes it, for
// `make bench` and for measuring MemeRenderer before the shell calls it.
//
//     memesh-render-bench IN OUT [--top T] [--bottom B] [--font F]
//                         [--png METHOD:LEVEL:FILTER:THREADS[:STRATEGY]]
//                         [--phases] [--slow] [--load-detail] [--preview N]
//                         [--place N] [--window COLUMNSxROWS] [--layout N]
//
// METHOD is zlib or deflate. --phases prints how long each step took to stderr. --slow renders
// the way memesh did before MemeRenderer (decode, proxy, crop, draw on a copy, encode) for
// before/after comparisons. --load-detail times each part of a load alone. --preview N times N
// caption changes followed by a symbols preview (80×20 cells) from the proxy, in-process, and
// prints the median (what the shell's `caption …; preview` costs after load). --place N times N
// frames of `place 1` (box 1 a step right, a step back, turned 5°, turned back, over and over)
// in each terminal mode, in a window
// of --window cells (default 80x24, cells of 10×20 pixels), against drawing each frame whole as a
// preview does, and prints one line a mode. --layout N lays out and rasterizes the captions N
// times at the photo's full size (what a share does before drawing the bands) and prints the
// first time and the median of the others: wall, CPU and page faults.
import Foundation
import MemeCore
import MemeMedia

var arguments = Array(CommandLine.arguments.dropFirst())
@MainActor func option(_ name: String) -> String? {
  guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
  let value = arguments[index + 1]
  arguments.removeSubrange(index...(index + 1))
  return value
}
@MainActor func flag(_ name: String) -> Bool {
  guard let index = arguments.firstIndex(of: name) else { return false }
  arguments.remove(at: index)
  return true
}

let top = option("--top") ?? "one does not simply"
let bottom = option("--bottom") ?? "benchmark memes"
let font = option("--font") ?? "Anton"
let pngSpec = option("--png")
let phases = flag("--phases")
let slow = flag("--slow")
let loadDetail = flag("--load-detail")
let previewRuns = option("--preview").flatMap { Int($0) }
let placeRuns = option("--place").flatMap { Int($0) }
let layoutRuns = option("--layout").flatMap { Int($0) }
let placeWindow = (option("--window") ?? "80x24").split(separator: "x").compactMap { Int($0) }
guard arguments.count == 2 else {
  FileHandle.standardError.write(Data("usage: memesh-render-bench IN OUT [options]\n".utf8))
  exit(2)
}
let (input, output) = (arguments[0], arguments[1])
let format = ImageFormat(fileExtension: URL(fileURLWithPath: output).pathExtension) ?? .jpeg

var compression = EncodeSettings.PNGCompression.standard
if let pngSpec {
  let parts = pngSpec.split(separator: ":").map(String.init)
  guard parts.count == 4 || parts.count == 5, let level = Int(parts[1]),
    let filter = Int(parts[2]), let threads = Int(parts[3]),
    let strategy = parts.count == 5 ? Int(parts[4]) : 0
  else {
    FileHandle.standardError.write(
      Data("error: --png METHOD:LEVEL:FILTER:THREADS[:STRATEGY]\n".utf8))
    exit(2)
  }
  compression = EncodeSettings.PNGCompression(
    useLibdeflate: parts[0] == "deflate", level: level, filter: filter, threads: threads,
    strategy: strategy)
}

/// Peak resident memory so far, from /proc (Linux), for --phases.
func peakMemory() -> String {
  guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
    let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM") })
  else { return "" }
  return "peak " + line.split(whereSeparator: \.isWhitespace).dropFirst().joined(separator: " ")
}

/// This thread's CPU time in milliseconds: steadier than wall time on a shared machine.
func threadCPU() -> Double {
  var time = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
  return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1e6
}

var clock = ContinuousClock.now
var cpu = threadCPU()
@MainActor func lap(_ name: String) {
  let now = ContinuousClock.now
  let nowCPU = threadCPU()
  if phases {
    let duration = now - clock
    let milliseconds =
      Double(duration.components.attoseconds) / 1e15 + Double(duration.components.seconds) * 1000
    let line = String(
      format: "%-10@ %7.1f ms wall %7.1f ms cpu  %@\n", name, milliseconds, nowCPU - cpu,
      peakMemory())
    FileHandle.standardError.write(Data(line.utf8))
  }
  clock = now
  cpu = nowCPU
}

/// Milliseconds `body` takes.
func milliseconds(_ body: () throws -> Void) rethrows -> Double {
  let start = ContinuousClock.now
  try body()
  let duration = ContinuousClock.now - start
  return Double(duration.components.attoseconds) / 1e15
    + Double(duration.components.seconds) * 1000
}

/// Minor page faults of the process so far.
func pageFaults() -> Int {
  var usage = rusage()
  getrusage(RUSAGE_SELF.rawValue, &usage)
  return usage.ru_minflt
}

/// --layout: the captions laid out and rasterized at `size`, as a share does, `runs` times.
func timeLayout(size: PixelSize, runs: Int) throws {
  let captions = CaptionRenderer(catalog: .standard())
  let boxes = CaptionRenderer.boxes(top: top, bottom: bottom)
  var times: [(wall: Double, cpu: Double, faults: Int)] = []
  for _ in 0..<max(2, runs) {
    let (startCPU, startFaults) = (threadCPU(), pageFaults())
    let wall = try milliseconds {
      _ = try captions.report(boxes: boxes, font: font, imageSize: size)
    }
    times.append((wall, threadCPU() - startCPU, pageFaults() - startFaults))
  }
  let rest = times.dropFirst()
  func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
  print(
    String(
      format:
        "layout %@: first %.2f ms (cpu %.2f, %d faults), then median %.2f ms (cpu %.2f, %d faults)",
      size.description, times[0].wall, times[0].cpu, times[0].faults, median(rest.map(\.wall)),
      median(rest.map(\.cpu)), Int(median(rest.map { Double($0.faults) }))))
}

/// --place: frames of `place 1` through PlacePreview against whole previews of the same frames.
func timePlace(picture: RGBAImage, runs: Int, window: [Int]) throws {
  let boxes = CaptionRenderer.boxes(top: top, bottom: bottom)
  let environment = ["TERM": "xterm-256color", "COLORTERM": "truecolor"]
  let cell = PixelSize(width: 10, height: 20)
  let (columns, rows) = (window[0], max(4, window[1] - 3))
  let modes: [(String, PreviewMode, ColorDepth)] = [
    ("kitty", .kitty, .truecolor), ("sixel", .sixel, .truecolor),
    ("symbols-truecolor", .symbols, .truecolor), ("symbols-256", .symbols, .indexed256),
  ]
  let captions = CaptionRenderer(catalog: .standard())
  func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
  for (name, mode, depth) in modes {
    guard
      let preview = try PlacePreview(
        picture: picture, boxes: boxes, font: font, index: 0, catalog: .standard(), mode: mode,
        colorDepth: depth, maxColumns: columns, maxRows: rows, environment: environment,
        cellPixelSize: cell)
    else { continue }
    let base = ImageOps.scaled(
      picture, toFit: preview.cells.columns * cell.width, preview.cells.rows * cell.height)
    let frame = boxes[0].placement.frame(in: picture.size)
    _ = preview.frame(boxes[0])
    var place: [Double] = []
    var whole: [Double] = []
    var bytes = 0
    for run in 0..<max(1, runs) {
      var moved = boxes
      var step = frame
      step.x += run % 4 == 0 ? 0.01 : 0
      moved[0].placement = .rect(step)
      moved[0].angle = run % 4 == 2 ? 5 : 0
      place.append(milliseconds { bytes += preview.frame(moved[0]).utf8.count })
      // A whole preview of the same frame: captions on the scaled picture, all of it drawn.
      whole.append(
        try milliseconds {
          let (image, _) = try captions.render(onto: base, boxes: moved, font: font)
          _ = TerminalPreview.draw(
            image, mode: mode, colorDepth: depth, maxColumns: columns, maxRows: rows,
            environment: environment, cellPixelSize: cell)
        })
    }
    print(
      String(
        format: "place %@ %@: median %.1f ms (max %.1f), whole preview %.1f ms, %d bytes a frame",
        name, preview.cells.description, median(place), place.max() ?? 0, median(whole),
        bytes / max(1, runs)))
  }
}

do {
  if loadDetail {
    // Each part of a load alone, one after another, to see which dominates.
    let bytes = try ImageFile.read(path: input)
    lap("read")
    let decoded = try ImageCodec.decode(bytes, name: input)
    lap("decode")
    _ = MemeRenderer.reduced(decoded.image, toFit: ImageFile.proxyDimension)
    lap("reduce")
    _ = try ImageCodec.decodeProxy(bytes, name: input, maxDimension: ImageFile.proxyDimension)
    lap("proxy-old")
    _ = try MemeRenderer.jpegProxy(bytes, name: input, limits: .default)
    lap("proxy-new")
    _ = Checksum.sha256(bytes)
    lap("sha256")
  }
  let picture: SourcePicture
  if slow {
    picture = try ImageFile.sourcePicture(path: input).picture
  } else {
    picture = try MemeRenderer.loadPicture(path: input).picture
  }
  lap("load")
  if let previewRuns {
    let captions = CaptionRenderer(catalog: .standard())
    var times: [Double] = []
    var drawn = 0
    for run in 0..<max(1, previewRuns) {
      let start = ContinuousClock.now
      let (image, _) = try captions.render(
        onto: picture.proxy, top: "take \(run)", bottom: bottom, font: font)
      let preview = TerminalPreview.draw(
        image, mode: .symbols, colorDepth: .truecolor, maxColumns: 80, maxRows: 20,
        environment: ["TERM": "xterm-256color", "COLORTERM": "truecolor"])
      drawn += preview.text.utf8.count
      let duration = ContinuousClock.now - start
      times.append(
        Double(duration.components.attoseconds) / 1e15 + Double(duration.components.seconds) * 1000)
    }
    let sorted = times.sorted()
    print(
      String(
        format: "caption → preview: median %.1f ms (min %.1f, max %.1f) over %d, %d bytes drawn",
        sorted[sorted.count / 2], sorted[0], sorted[sorted.count - 1], sorted.count, drawn))
  }
  if let layoutRuns {
    try timeLayout(size: picture.size, runs: layoutRuns)
  }
  if let placeRuns, placeWindow.count == 2 {
    try timePlace(picture: try picture.proxy, runs: placeRuns, window: placeWindow)
  }
  let state = EditorState(
    picture: picture, recipe: MemeRecipe(top: top, bottom: bottom, font: font))
  let renderer = MemeRenderer(catalog: .standard(), settings: EncodeSettings(png: compression))
  if slow {
    var image = try picture.image
    _ = try renderer.captions.draw(into: &image, top: top, bottom: bottom, font: font)
    lap("captions")
    let recipe = EmbeddedRecipe(recipe: state.recipe, originalSHA256: picture.sha256)
    let data = try ImageCodec.encode(image, as: format, settings: EncodeSettings(recipe: recipe))
    lap("encode")
    let thumbnail = try ImageCodec.encode(ImageOps.scaled(image, toFit: 256, 256), as: .png)
    lap("thumbnail")
    try data.write(to: URL(fileURLWithPath: output))
    try thumbnail.write(to: URL(fileURLWithPath: output + ".thumb.png"))
  } else {
    let rendered = try renderer.render(state, format: format)
    lap("render")
    try rendered.data.write(to: URL(fileURLWithPath: output))
    try rendered.thumbnail.write(to: URL(fileURLWithPath: output + ".thumb.png"))
  }
  lap("write")
} catch {
  FileHandle.standardError.write(Data("error: \(error)\n".utf8))
  exit(1)
}
