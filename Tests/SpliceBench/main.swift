// memesh-splice-bench: the JPEG splice timed in-process, part by part, for
// `make bench`.
//
//     memesh-splice-bench IN OUT [--layout top-bottom|four] [--runs N]
//
// Each run reads IN, indexes its scan and splices bands where captions would be: `top-bottom`
// the top and bottom sixth (memesh's two captions), `four` four boxes down the picture (the
// top, two in the middle, the bottom), nothing drawn, every touched row decoded and encoded
// again. Prints the medians: the entropy-coded data indexed, the band work, the writing, and
// the whole, in milliseconds, then the store's part: the spliced meme added to a new store in a
// scratch folder beside OUT as `share` adds it (its thumbnail, and the photo linked from a copy
// written first, as the draft's is), fsyncs and all. Writes the last result to OUT.
import Foundation
import MemeCore
import MemeMedia
import MemeStore

var arguments = Array(CommandLine.arguments.dropFirst())
@MainActor func option(_ name: String) -> String? {
  guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
  let value = arguments[index + 1]
  arguments.removeSubrange(index...(index + 1))
  return value
}

let layout = option("--layout") ?? "top-bottom"
let runs = option("--runs").flatMap { Int($0) } ?? 5
guard arguments.count == 2, ["top-bottom", "four", "none"].contains(layout), runs > 0 else {
  FileHandle.standardError.write(
    Data("usage: memesh-splice-bench IN OUT [--layout top-bottom|four] [--runs N]\n".utf8))
  exit(2)
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

var (scan, band, write, whole, store) = ([Double](), [Double](), [Double](), [Double](), [Double]())
var last = Data()
var rows = (touched: 0, all: 0)
for _ in 0..<runs {
  let started = DispatchTime.now().uptimeNanoseconds
  let bytes = try Data(contentsOf: URL(fileURLWithPath: arguments[0]))
  guard case .success(let plan) = JPEGSplice.plan(bytes, crop: .off) else {
    FileHandle.standardError.write(Data("error: \(arguments[0]) cannot be spliced\n".utf8))
    exit(1)
  }
  let (width, height) = (plan.size.width, plan.size.height)
  let box = height / 6
  let regions: [PixelRect] =
    layout == "four"
    ? [0, 2, 3, 5].map { PixelRect(x: width / 10, y: $0 * box, width: width * 8 / 10, height: box) }
    : layout == "none" ? [] : [0, 5].map { PixelRect(x: width / 10, y: $0 * box, width: width * 8 / 10, height: box) }
  switch JPEGSplice.splice(bytes, crop: .off, regions: regions, maxPixels: 100_000_000) {
  case .success(let spliced):
    scan.append(spliced.scanMilliseconds)
    band.append(spliced.bandMilliseconds)
    write.append(spliced.writeMilliseconds)
    last = spliced.jpeg
    rows = (spliced.touchedRows, spliced.mcuRows)
    whole.append(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6)
    store.append(
      try timeStore(
        spliced, original: bytes, size: plan.size,
        scratch: URL(fileURLWithPath: arguments[1]).deletingLastPathComponent()))
  case .failure(let refusal):
    FileHandle.standardError.write(Data("error: \(refusal.reason)\n".utf8))
    exit(1)
  }
}

/// Milliseconds `MemeStore.add` takes for `spliced` in a new store in `scratch` (made and
/// removed untimed).
func timeStore(_ spliced: JPEGSplice.Spliced, original: Data, size: PixelSize, scratch: URL)
  throws -> Double
{
  let home = scratch.appendingPathComponent(".splice-bench-store-\(getpid())")
  defer { try? FileManager.default.removeItem(at: home) }
  let drafts = home.appendingPathComponent("draft")
  try FileManager.default.createDirectory(at: drafts, withIntermediateDirectories: true)
  let sha256 = Checksum.sha256(original)
  let copy = drafts.appendingPathComponent(sha256)
  // Synced, as the draft's copy is by the time a share links it.
  try original.write(to: copy)
  let handle = try FileHandle(forWritingTo: copy)
  try handle.synchronize()
  try handle.close()
  // The thumbnail as share makes it: the DC picture reduced to fit 256 × 256, as PNG.
  let side = MemeRenderer.thumbnailDimension
  let thumbnail =
    try spliced.preview.map {
      try ImageCodec.encode(ImageOps.scaled($0, toFit: side, side), as: .png)
    } ?? Data()
  let meme = NewMeme(
    recipe: MemeRecipe(top: "top", bottom: "bottom"), format: .jpeg, width: size.width,
    height: size.height, sourceName: "photo.jpg", originalSHA256: sha256, original: original,
    rendered: spliced.jpeg, thumbnail: thumbnail, originalFile: copy.path)
  // Opened first, as memesh opens its store at start-up.
  let store = try MemeStore(directory: home.appendingPathComponent("memes"))
  let started = DispatchTime.now().uptimeNanoseconds
  _ = try store.add(meme)
  return Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
}
try last.write(to: URL(fileURLWithPath: arguments[1]))
func ms(_ value: Double) -> String { String(format: "%.1f ms", value) }
print(
  "\(layout): scan \(ms(median(scan))), bands \(ms(median(band))) (\(rows.touched) of "
    + "\(rows.all) MCU rows), write \(ms(median(write))), whole \(ms(median(whole))); "
    + "store \(ms(median(store)))")
