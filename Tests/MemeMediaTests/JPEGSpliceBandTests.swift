import CMemeshCodec
import CMemeshCoefficients
import CMemeshSplice
import Foundation
import MemeCore
import Testing

@testable import MemeMedia

/// The rows a caption touches in a spliced JPEG meme look like the meme drawn on the decoded
/// photo (the captions in the colours asked for), and the photo between the letters keeps its
/// pixels: the touched rows are decoded to the JPEG's own Y, Cb, Cr samples, drawn on, and
/// encoded again from them, with no colour conversion or chroma resampling of the photo.
@Suite struct JPEGSpliceBandTests {
  let renderer = MemeRenderer(catalog: .standard())

  /// The samplings a camera or another program writes: luma `h` × `v` against chroma, or grey.
  enum Sampling: String, CaseIterable, CustomTestStringConvertible {
    case s444, s422, s420, grey
    var testDescription: String { rawValue }
    var factors: (h: Int, v: Int) {
      switch self {
      case .s444, .grey: (1, 1)
      case .s422: (2, 1)
      case .s420: (2, 2)
      }
    }
  }

  /// A photo-like JPEG (libjpeg, quality 90, standard Huffman tables) in `sampling`.
  static func photoJPEG(_ sampling: Sampling, width: Int = 800, height: Int = 600) throws -> Data {
    let photo = MemeRendererTests.photo(width: width, height: height)
    var settings = memesh_test_jpeg_settings(
      quality: 90, components: sampling == .grey ? 1 : 3, h: Int32(sampling.factors.h),
      v: Int32(sampling.factors.v), restart_rows: 0, restart_mcus: 0, optimize: 0)
    var out: UnsafeMutablePointer<UInt8>?
    var size = 0
    let status = photo.pixels.withUnsafeBufferPointer { pixels in
      memesh_test_encode_jpeg(
        pixels.baseAddress, UInt32(width), UInt32(height), &settings, &out, &size)
    }
    let bytes = try #require(out, "libjpeg could not write the photo")
    defer { memesh_coefficients_free_jpeg(bytes) }
    try #require(status == 0)
    return Data(bytes: bytes, count: size)
  }

  /// Red letters outlined in black at the top, blue letters outlined in white at the bottom.
  static let boxes: [TextBox] = [
    TextBox(
      text: "red", placement: .top, fill: TextColor(red: 220, green: 30, blue: 40)),
    TextBox(
      text: "blue", placement: .bottom, fill: TextColor(red: 30, green: 80, blue: 220)),
  ]

  /// The spliced meme, the meme drawn on the decoded photo, that drawing encoded whole as memesh
  /// encodes a meme it cannot splice, and the decoded photo, all as RGBA (a grey JPEG's drawing
  /// in grey, as a grey JPEG shows it).
  func memes(_ sampling: Sampling, crop: Crop) throws -> (
    spliced: RGBAImage, drawn: RGBAImage, whole: RGBAImage, photo: RGBAImage
  ) {
    let source = try Self.photoJPEG(sampling)
    let decoded = try ImageCodec.decode(source, name: "photo.jpg")
    let picture = MemeRenderer.sourcePicture(path: "photo.jpg", bytes: source, decoded: decoded)
    let recipe = MemeRecipe(font: "Anton", crop: crop, boxes: Self.boxes)
    let output = try renderer.render(EditorState(picture: picture, recipe: recipe), format: .jpeg)
    #expect(output.report.explanation.contains("spliced"), "\(output.report.explanation)")
    let spliced = try ImageCodec.decode(output.data, name: "meme.jpg").image
    let photo = try ImageOps.crop(decoded.image, crop)
    var drawn = try renderer.captions.render(onto: photo, boxes: Self.boxes, font: "Anton").image
    if sampling == .grey {
      for at in stride(from: 0, to: drawn.pixels.count, by: 4) {
        let grey = Self.grey(drawn.pixels[at..<at + 3].map { Int($0) })
        for channel in 0..<3 { drawn.pixels[at + channel] = UInt8(grey) }
      }
    }
    let whole = try ImageCodec.decode(
      ImageCodec.encode(drawn, as: .jpeg, settings: EncodeSettings()), name: "whole.jpg"
    ).image
    return (spliced, drawn, whole, photo)
  }

  /// JFIF's luma of R, G, B.
  static func grey(_ rgb: [Int]) -> Int {
    (299 * rgb[0] + 587 * rgb[1] + 114 * rgb[2] + 500) / 1000
  }

  static func pixel(_ image: RGBAImage, _ x: Int, _ y: Int) -> [Int] {
    let at = (y * image.width + x) * 4
    return (0..<3).map { Int(image.pixels[at + $0]) }
  }

  /// Peak signal to noise ratio of `a` against `b` over the pixels `where` picks, in dB.
  static func psnr(_ a: RGBAImage, _ b: RGBAImage, where picked: (Int, Int) -> Bool) -> Double {
    var error = 0.0
    var count = 0
    for y in 0..<a.height {
      for x in 0..<a.width where picked(x, y) {
        for (p, q) in zip(pixel(a, x, y), pixel(b, x, y)) {
          error += Double((p - q) * (p - q))
          count += 1
        }
      }
    }
    return count == 0 ? .infinity : 10 * log10(255 * 255 / max(error / Double(count), 1e-12))
  }

  /// Every sampling whole, and a crop (on MCU boundaries) of a subsampled and a full one.
  static let cases: [(Sampling, Crop)] =
    Sampling.allCases.map { ($0, Crop.off) } + [
      (.s420, .rect(PixelRect(x: 48, y: 32, width: 737, height: 561))),
      (.s444, .rect(PixelRect(x: 8, y: 8, width: 785, height: 590))),
    ]

  @Test(arguments: cases)
  func captionsComeOutInTheColoursAsked(sampling: Sampling, crop: Crop) throws {
    let (spliced, drawn, whole, photo) = try memes(sampling, crop: crop)
    let caption = { (x: Int, y: Int) in Self.pixel(drawn, x, y) != Self.pixel(photo, x, y) }
    // Over every caption pixel, edges included, the splice is as close to the drawing as the
    // whole encode memesh would otherwise make.
    let splicedCaption = Self.psnr(spliced, drawn, where: caption)
    let wholeCaption = Self.psnr(whole, drawn, where: caption)
    #expect(splicedCaption >= wholeCaption - 1)
    // Inside the letters, away from their edges, the fill is the colour asked for (its grey
    // in a grey JPEG): on average over the letters, as the eye sees a colour.
    for box in Self.boxes {
      let fill = [Int(box.fill.red), Int(box.fill.green), Int(box.fill.blue)]
      let expected = sampling == .grey ? [Int](repeating: Self.grey(fill), count: 3) : fill
      var inside = 0
      var sums = [0, 0, 0]
      let around = [-6, 0, 6].flatMap { dx in [-6, 0, 6].map { dy in (dx, dy) } }
      for y in stride(from: 6, to: drawn.height - 6, by: 2) {
        for x in stride(from: 6, to: drawn.width - 6, by: 2) {
          guard around.allSatisfy({ Self.pixel(drawn, x + $0.0, y + $0.1) == expected }) else {
            continue
          }
          inside += 1
          for (channel, value) in Self.pixel(spliced, x, y).enumerated() { sums[channel] += value }
        }
      }
      try #require(inside > 100, "too few letter pixels found for \(fill)")
      let mean = sums.map { Double($0) / Double(inside) }
      #expect(
        zip(mean, expected).allSatisfy { abs($0 - Double($1)) <= 3 },
        "letters of \(fill) came out \(mean)")
    }
  }

  @Test(arguments: cases)
  func thePhotoBetweenTheLettersKeepsItsPixels(sampling: Sampling, crop: Crop) throws {
    let (spliced, drawn, _, photo) = try memes(sampling, crop: crop)
    let (h, v) = sampling.factors
    let (mcuWidth, mcuHeight) = (8 * h, 8 * v)
    let across = (photo.width + mcuWidth - 1) / mcuWidth
    let down = (photo.height + mcuHeight - 1) / mcuHeight
    var captioned = [Bool](repeating: false, count: across * down)
    for y in 0..<photo.height {
      for x in 0..<photo.width where Self.pixel(drawn, x, y) != Self.pixel(photo, x, y) {
        captioned[y / mcuHeight * across + x / mcuWidth] = true
      }
    }
    let rowsWithCaptions = (0..<down).filter { row in
      (0..<across).contains { captioned[row * across + $0] }
    }
    try #require(rowsWithCaptions.count >= 4)
    // The MCUs of the re-encoded rows that hold no caption pixel went through one inverse and
    // one forward DCT: next to no change (a colour round trip with chroma resampling costs a
    // subsampled photo 15 dB and more there; a whole encode about 40). An MCU next to a caption
    // shares chroma with it in the decoder's upsampling: left out, as are the MCUs on a crop's
    // edges (the photo's decoder saw the neighbours the crop cut off).
    let apart = { (x: Int, y: Int) -> Bool in
      let (column, row) = (x / mcuWidth, y / mcuHeight)
      guard rowsWithCaptions.contains(row) else { return false }
      if crop != .off && (column == 0 || row == 0 || column == across - 1 || row == down - 1) {
        return false
      }
      for r in max(0, row - 1)...min(down - 1, row + 1) {
        for c in max(0, column - 1)...min(across - 1, column + 1) where captioned[r * across + c] {
          return false
        }
      }
      return true
    }
    let beside = Self.psnr(spliced, photo, where: apart)
    #expect(beside >= 70, "untouched pixels of the touched rows: \(beside) dB")
  }

  /// A box's region is taller than its letters (line spacing, the box's own rectangle): only the
  /// MCU rows a letter reaches are decoded and encoded again; a layer without any glyph marks its
  /// whole region (what memesh-splice-bench times).
  @Test func onlyTheRowsTheLettersReachAreEncodedAgain() throws {
    let bytes = try Self.photoJPEG(.s420, width: 320, height: 240)
    let source = try JPEGSplice.Source.open(bytes, maxPixels: 1_000_000).get()
    let coverage = [UInt8](repeating: 255, count: 40 * 20)
    func touchedRows(withGlyph: Bool) throws -> Int {
      try coverage.withUnsafeBufferPointer { pixels in
        var glyph = memesh_overlay_bitmap(
          pixels: pixels.baseAddress, x: 100, y: 100, width: 40, height: 20)
        return try withUnsafePointer(to: &glyph) { glyph in
          var layer = memesh_caption_layer(
            outlines: nil, outline_count: 0, fills: withGlyph ? glyph : nil,
            fill_count: withGlyph ? 1 : 0, colors: nil, color_count: 0, left: 0, top: 0,
            right: 320, bottom: 240, fill_color: 0xFFFFFF, outline_color: 0)
          return try withUnsafePointer(to: &layer) { layer in
            var overlay = memesh_overlay(layers: layer, count: 1)
            return try withUnsafePointer(to: &overlay) { overlay in
              try source.write(
                memesh_splice_request(
                  crop_x: 0, crop_y: 0, crop_width: 320, crop_height: 240, overlay: overlay,
                  recipe: nil, max_pixels: 0)
              ).get().touchedRows
            }
          }
        }
      }
    }
    // Rows 100 ..< 120 are in the MCU rows 6 and 7 (16 pixels each).
    #expect(try touchedRows(withGlyph: true) == 2)
    #expect(try touchedRows(withGlyph: false) == 15)
  }

  /// Letters drawn on a JPEG's own samples blend exactly as on RGB pixels, for every pair of
  /// outline and letter coverage: the outline colour at its coverage, then the fill at its
  /// coverage, each rounded to the nearest sample, in runs that no letter reaches (left as
  /// they were), runs inside a letter (the fill), inside the outline, and a ragged end. Grey colours are the same in
  /// Y, Cb and Cr (their chroma is 128), so the expected samples are plain arithmetic.
  @Test func lettersBlendExactlyOnTheSamples() {
    var edges =
      [UInt8](repeating: 0, count: 40) + (0..<40).map { UInt8($0 * 6) }
      + [UInt8](repeating: 255, count: 32)
    var letters =
      [UInt8](repeating: 0, count: 40) + [UInt8](repeating: 255, count: 40)
      + (0..<32).map { UInt8($0 * 8) }
    for pair in 0..<65_536 {
      edges.append(UInt8(pair & 255))
      letters.append(UInt8(pair >> 8))
    }
    edges += [0, 255, 3, 0, 128, 255, 7]
    letters += [0, 0, 255, 9, 128, 254, 1]
    let width = edges.count
    let before = (0..<3).map { channel in
      (0..<width).map { UInt8(truncatingIfNeeded: $0 &* (7 + 6 * channel) &+ 50 * channel) }
    }
    let (outlineGrey, fillGrey) = (40, 200)
    func over(_ value: Int, _ color: Int, _ cover: UInt8) -> Int {
      (color * Int(cover) + value * (255 - Int(cover)) + 127) / 255
    }
    var samples = before[0] + before[1] + before[2]
    var masks = [UInt8](repeating: 0, count: 2 * width)
    edges.withUnsafeBufferPointer { edges in
      letters.withUnsafeBufferPointer { letters in
        let bitmaps = [
          memesh_overlay_bitmap(
            pixels: edges.baseAddress, x: 0, y: 3, width: Int32(width), height: 1),
          memesh_overlay_bitmap(
            pixels: letters.baseAddress, x: 0, y: 3, width: Int32(width), height: 1),
        ]
        bitmaps.withUnsafeBufferPointer { bitmaps in
          let layers = [
            memesh_caption_layer(
              outlines: bitmaps.baseAddress, outline_count: 1,
              fills: bitmaps.baseAddress.map { $0 + 1 },
              fill_count: 1, colors: nil, color_count: 0, left: 0, top: 0,
              right: Int32(width), bottom: 10, fill_color: UInt32(fillGrey * 0x010101),
              outline_color: UInt32(outlineGrey * 0x010101))
          ]
          layers.withUnsafeBufferPointer { layers in
            var overlay = memesh_overlay(layers: layers.baseAddress, count: 1)
            samples.withUnsafeMutableBufferPointer { samples in
              guard let base = samples.baseAddress else { return }
              let rows: [UnsafeMutablePointer<UInt8>?] = [base, base + width, base + 2 * width]
              rows.withUnsafeBufferPointer { rows in
                memesh_overlay_draw_row_ycc(
                  &overlay, 3, rows.baseAddress, 3, UInt32(width), &masks)
              }
            }
          }
        }
      }
    }
    for channel in 0..<3 {
      let (outlineValue, fillValue) =
        channel == 0 ? (outlineGrey, fillGrey) : (128, 128)
      let wrong = (0..<width).filter { x in
        let expected = over(
          over(Int(before[channel][x]), outlineValue, edges[x]), fillValue, letters[x])
        return Int(samples[channel * width + x]) != expected
      }
      #expect(
        wrong.count == 0,
        "channel \(channel): \(wrong.count) samples differ, first at \(wrong.first ?? 0)")
    }
  }
}
