// memesh-splice-bench: the JPEG splice timed in-process, part by part, for
// `make bench`.
//
//     memesh-splice-bench IN OUT [--layout top-bottom|four] [--runs N]
//
// Each run reads IN, indexes its scan and splices bands where captions would be: `top-bottom`
// the top and bottom sixth (memesh's two captions), `four` four boxes down the picture (the
// top, two in the middle, the bottom), nothing drawn, every touched row decoded and encoded
// again. Prints the medians: the entropy-coded data indexed, the band work, the writing, and
// the whole, in milliseconds, and writes the last result to OUT.
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

let layout = option("--layout") ?? "top-bottom"
let runs = option("--runs").flatMap { Int($0) } ?? 5
guard arguments.count == 2, ["top-bottom", "four", "none"].contains(layout), runs > 0 else {
  FileHandle.standardError.write(
    Data("usage: memesh-splice-bench IN OUT [--layout top-bottom|four] [--runs N]\n".utf8))
  exit(2)
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

var (scan, band, write, whole) = ([Double](), [Double](), [Double](), [Double]())
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
  case .failure(let refusal):
    FileHandle.standardError.write(Data("error: \(refusal.reason)\n".utf8))
    exit(1)
  }
  whole.append(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6)
}
try last.write(to: URL(fileURLWithPath: arguments[1]))
func ms(_ value: Double) -> String { String(format: "%.1f ms", value) }
print(
  "\(layout): scan \(ms(median(scan))), bands \(ms(median(band))) (\(rows.touched) of "
    + "\(rows.all) MCU rows), write \(ms(median(write))), whole \(ms(median(whole)))")
