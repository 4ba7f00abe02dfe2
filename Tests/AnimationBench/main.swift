// memesh-animation-bench: one animated meme from a GIF or WebP to a file, the way `share` makes
// it, for `make bench` (bench/animation.py) and for measuring AnimationRenderer alone.
//
//     memesh-animation-bench IN OUT [--top T] [--bottom B] [--font F] [--dither N]
//                            [--tolerance N] [--global-palette] [--no-exact] [--colours N] [--lossless]
//
// OUT's extension picks GIF or WebP. Prints the frame count and the render's wall time to
// stderr. `--lossless` writes a lossless WebP: the captioned frames in true colour, the truth
// the bench measures every GIF's PSNR against; `--truth DIR` writes the same frames as PNG files
// DIR/NNN.png instead (faster for big frames) and no animation.
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
var gif = GIFOptions()
if let dither = option("--dither").flatMap({ Int($0) }) { gif.dither = dither }
if let tolerance = option("--tolerance").flatMap({ Int($0) }) { gif.tolerance = tolerance }
gif.globalPalette = flag("--global-palette")
if flag("--no-exact") { gif.exactColours = false }
if let colours = option("--colours").flatMap({ Int($0) }) { gif.maxColours = colours }
let lossless = flag("--lossless")
let truth = option("--truth")
guard arguments.count == 2 else {
  FileHandle.standardError.write(Data("usage: memesh-animation-bench IN OUT [options]\n".utf8))
  exit(2)
}
let (input, output) = (arguments[0], arguments[1])
let format = ImageFormat(fileExtension: URL(fileURLWithPath: output).pathExtension) ?? .gif

/// The captioned frames in true colour, as PNG files.
func writeTruth(_ input: String, to folder: String) throws {
  let data = try ImageFile.read(path: input)
  let decoder = try ImageCodec.openAnimation(data, name: input)
  let captions = CaptionRenderer(catalog: .standard())
  while let frame = try decoder.next() {
    let (image, _) = try captions.render(onto: frame.image, top: top, bottom: bottom, font: font)
    let name = String(format: "%03d.png", frame.index)
    try ImageCodec.encode(image, as: .png).write(to: URL(fileURLWithPath: folder + "/" + name))
  }
}

do {
  if let truth {
    try writeTruth(input, to: truth)
    exit(0)
  }
  let start = Date()
  let data = try ImageFile.read(path: input)
  let renderer = AnimationRenderer(
    catalog: .standard(), settings: EncodeSettings(lossless: lossless), gif: gif)
  let meme = try renderer.render(
    data, name: input,
    boxes: [TextBox(text: top, placement: .top), TextBox(text: bottom, placement: .bottom)],
    font: font, format: format)
  try meme.data.write(to: URL(fileURLWithPath: output))
  let seconds = Date().timeIntervalSince(start)
  FileHandle.standardError.write(
    Data(String(format: "%@: %d bytes in %.3f s\n", output, meme.data.count, seconds).utf8))
} catch {
  FileHandle.standardError.write(Data("error: \(error)\n".utf8))
  exit(1)
}
