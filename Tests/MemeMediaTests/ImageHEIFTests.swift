import Foundation
import MemeCore
import Testing

@testable import MemeMedia

/// HEIC and AVIF through libheif: the pictures phones write (tiled grids, irot/imir, an EXIF
/// orientation that must not be applied twice, 10-bit samples, alpha, a colour profile) give
/// exactly the pixels libheif's own decoder (heif-convert) gives. Fixtures and references from
/// scripts/make-heif-fixtures.py.
@Suite struct ImageHEIFTests {
  static let folder = ImageFixtures.root.appendingPathComponent("heif", isDirectory: true)
  static let references = folder.appendingPathComponent("reference", isDirectory: true)

  static func data(_ name: String) throws -> Data {
    try Data(contentsOf: folder.appendingPathComponent(name))
  }

  /// Decodes `Fixtures/heif/NAME` the way `load` does.
  static func decode(_ name: String, limits: DecodeLimits = .default) throws -> DecodedImage {
    try ImageCodec.decode(try data(name), name: name, limits: limits)
  }

  /// heif-convert's 8-bit PNG of `name`, read by memesh's PNG decoder (opaque when RGB).
  static func reference(_ name: String) throws -> RGBAImage {
    let png = try Data(contentsOf: references.appendingPathComponent(name + ".png"))
    return try ImageCodec.decode(png, name: name + ".png").image
  }

  /// The largest difference of one sample and where it is.
  static func largestDifference(_ a: RGBAImage, _ b: RGBAImage) -> (Int, Int, Int) {
    var worst = (0, 0, 0)
    for y in 0..<a.height {
      for x in 0..<a.width {
        let difference = a[x, y].distance(to: b[x, y])
        if difference > worst.0 { worst = (difference, x, y) }
      }
    }
    return worst
  }

  @Test(arguments: [
    "cat.heic", "cat.avif", "alpha.heic", "alpha.avif", "grid-2x2.heic",
    "grid-irot-exif-6.heic", "exif-6-no-irot.heic", "icc.heic", "orientation-6.avif",
  ] + (1...8).map { "orientation-\($0).heic" })
  func pixelsAreLibheifsOwn(_ name: String) throws {
    let decoded = try Self.decode(name)
    let expected = try Self.reference(name)
    #expect(decoded.image.size == expected.size)
    guard decoded.image.size == expected.size else { return }
    let (difference, x, y) = Self.largestDifference(decoded.image, expected)
    #expect(difference == 0, "\(name): \(decoded.image[x, y]) at \(x),\(y), not \(expected[x, y])")
    #expect(decoded.warnings.isEmpty)
    #expect(decoded.orientation == 1)
  }

  @Test(arguments: ["alpha.heic", "alpha.avif"])
  func alphaIsKept(_ name: String) throws {
    let image = try Self.decode(name).image
    let alphas = Set(image.pixels.enumerated().filter { $0.offset % 4 == 3 }.map(\.element))
    #expect(alphas.contains(0) && alphas.contains(255), "\(alphas.sorted())")
  }

  @Test(arguments: [
    ("cat.heic", ImageFormat.heic), ("cat.avif", .avif), ("grid-2x2.heic", .heic),
    ("cat-10bit.avif", .avif),
  ])
  func theFormatIsTheBrand(_ name: String, _ format: ImageFormat) throws {
    #expect(try Self.decode(name).format == format)
    #expect(ImageCodec.sniff(try Self.data(name)) == format)
    // A HEIC or AVIF photo gives a JPEG meme unless the user asks otherwise.
    #expect(format.memeFormat == .jpeg)
  }

  /// Every EXIF orientation written as irot/imir shows the 96×64 quadrants upright.
  @Test(arguments: 1...8)
  func everyTransformIsAppliedOnce(_ orientation: Int) throws {
    let image = try Self.decode("orientation-\(orientation).heic").image
    #expect(image.size == PixelSize(width: 96, height: 64))
    #expect(Quadrants.matches(image), "\(Quadrants.colours(of: image))")
  }

  /// The iPhone's portrait photo: a grid stored sideways, irot to turn it, and EXIF saying
  /// orientation 6 too. Turned once it is 120×100 with the sky on top; turned again by the
  /// EXIF it would be 100×120.
  @Test func anExifOrientationIsNeverAppliedAgain() throws {
    let turned = try Self.decode("grid-irot-exif-6.heic").image
    #expect(turned.size == PixelSize(width: 120, height: 100))
    let sky = turned[60, 5]
    let grass = turned[60, 95]
    #expect(sky.b > 180 && grass.g > sky.g - 60 && grass.b < 100, "\(sky) \(grass)")
    // heif-enc's trap: EXIF 6 with unrotated pixels and no irot shows as stored, 16×24.
    let stored = try Self.decode("exif-6-no-irot.heic").image
    #expect(stored.size == PixelSize(width: 16, height: 24))
  }

  /// The grid's four tiles are put together and cut to the grid's 120×100.
  @Test func gridTilesMakeOnePicture() throws {
    let image = try Self.decode("grid-2x2.heic").image
    #expect(image.size == PixelSize(width: 120, height: 100))
    #expect(
      HEIFBoxes.layout(try Self.data("grid-2x2.heic"))
        == HEIFBoxes.Layout(
          references: 4, isGrid: true,
          grid: HEIFBoxes.Grid(rows: 2, columns: 2, size: PixelSize(width: 120, height: 100)),
          firstTileSize: PixelSize(width: 64, height: 64), itemTypes: ["grid", "hvc1"]))
    #expect(
      HEIFBoxes.layout(try Self.data("cat.heic"))
        == HEIFBoxes.Layout(
          references: 0, isGrid: false, grid: nil, firstTileSize: nil, itemTypes: ["hvc1"]))
    #expect(HEIFBoxes.layout(try Self.data("alpha.avif"))?.itemTypes == ["av01"])
    // heif-enc's own 1×1 grid (a picture under 64 pixels), its description in idat.
    #expect(
      HEIFBoxes.layout(try Self.data("exif-6-no-irot.heic"))?.grid
        == HEIFBoxes.Grid(rows: 1, columns: 1, size: PixelSize(width: 16, height: 24)))
  }

  /// 10-bit samples are scaled to 8 bits with rounding, from the very samples heif-convert
  /// gave (kept as 10-bit numbers in the reference).
  @Test func tenBitSamplesAreRoundedToEightBits() throws {
    let raw = try Data(contentsOf: Self.references.appendingPathComponent("cat-10bit.avif.rgba16"))
    let bytes = [UInt8](raw)
    func word(_ index: Int) -> Int { Int(bytes[index]) << 8 | Int(bytes[index + 1]) }
    let width = word(0) << 16 | word(2)
    let height = word(4) << 16 | word(6)
    let image = try Self.decode("cat-10bit.avif").image
    #expect(image.size == PixelSize(width: width, height: height))
    var roundingMatters = 0
    var mismatches = 0
    for index in 0..<(width * height * 4) {
      let ten = word(8 + 2 * index)
      let expected = (ten * 255 + 511) / 1023
      if expected != ten >> 2 { roundingMatters += 1 }
      if Int(image.pixels[index]) != expected { mismatches += 1 }
    }
    #expect(mismatches == 0)
    // The picture has samples where dropping the low two bits would give another value.
    #expect(roundingMatters > 100)
  }

  @Test func reduceScalesTheWholeRange() {
    let words: [UInt8] = [0, 0, 0xFF, 0x03, 0x00, 0x02, 0x01, 0x00]  // 0, 1023, 512, 1
    var out = [UInt8](repeating: 0, count: 4)
    words.withUnsafeBufferPointer { source in
      out.withUnsafeMutableBufferPointer { target in
        guard let from = source.baseAddress, let to = target.baseAddress else { return }
        HEIFDecoder.reduce(from, to: to, samples: 4, bits: 10)
      }
    }
    #expect(out == [0, 255, 128, 0])
  }

  @Test func theColourProfileIsKept() throws {
    let expected = try Data(contentsOf: Self.references.appendingPathComponent("icc.heic.icc"))
    #expect(ImageCodec.iccProfile(of: try Self.data("icc.heic")) == expected)
    #expect(ImageCodec.iccProfile(of: try Self.data("cat.heic")) == nil)
  }

  /// The profile goes into the meme as JPEG's and PNG's do (MemeRenderer reads it from the
  /// stored original), and the meme is the picture upright with its captions.
  @Test(arguments: [ImageFormat.jpeg, .png])
  func theMemeKeepsTheProfile(_ format: ImageFormat) throws {
    let expected = try Data(contentsOf: Self.references.appendingPathComponent("icc.heic.icc"))
    let path = Self.folder.appendingPathComponent("icc.heic").path
    let (picture, _) = try MemeRenderer.loadPicture(path: path)
    let state = EditorState(picture: picture, top: "Top", bottom: "")
    let output = try MemeRenderer(catalog: .standard()).render(state, format: format)
    #expect(ImageCodec.iccProfile(of: output.data) == expected)
    let meme = try ImageCodec.decode(output.data, name: "meme")
    #expect(meme.image.size == PixelSize(width: 96, height: 64))
    #expect(meme.image[24, 56].distance(to: Quadrants.blue) < 40)
    #expect(meme.image[72, 56].distance(to: Quadrants.yellow) < 40)
  }

  @Test func sniffingReadsTheBrands() throws {
    func ftyp(_ major: String, _ compatible: [String]) -> Data {
      let brands = Data((major + "\0\0\0\0" + compatible.joined()).utf8)
      var size = UInt32(8 + brands.count).bigEndian
      return Data(bytes: &size, count: 4) + Data("ftyp".utf8) + brands + Data(count: 32)
    }
    #expect(HEIFBoxes.isAVIF(ftyp("heic", ["mif1", "heic"])) == false)
    #expect(HEIFBoxes.isAVIF(ftyp("mif1", ["avif", "mif1"])) == true)
    #expect(HEIFBoxes.isAVIF(ftyp("avis", [])) == true)
    #expect(HEIFBoxes.isAVIF(ftyp("msf1", ["hevc"])) == false)
    // MP4 video and QuickTime are not pictures memesh reads.
    #expect(HEIFBoxes.isAVIF(ftyp("isom", ["iso2", "mp41"])) == nil)
    #expect(HEIFBoxes.isAVIF(ftyp("qt  ", [])) == nil)
    // The first 16 bytes (what a sniffer may be given) name the major brand.
    #expect(HEIFBoxes.isAVIF(ftyp("avif", ["mif1"]).prefix(16)) == true)
    #expect(HEIFBoxes.isAVIF(ftyp("heic", ["mif1"]).prefix(12)) == false)
    // A box size too small, or beyond any sane ftyp, is not trusted.
    var broken = ftyp("heic", [])
    broken[1] = 0xFF
    #expect(HEIFBoxes.isAVIF(broken) == nil)
    #expect(HEIFBoxes.isAVIF(Data("\0\0\0\u{8}ftypheic".utf8)) == nil)
  }

  // MARK: - Limits

  @Test func tooManyTilesAreRefusedBeforeDecoding() throws {
    let error = #expect(throws: MediaError.self) { try Self.decode("bomb-4096-tiles.heic") }
    #expect(
      error?.message
        == "cannot load 'bomb-4096-tiles.heic': the picture has 4096 tiles, more than the "
        + "limit of 1024 (a decompression bomb?)")
  }

  @Test func thePixelCapIsTheSameAsForPNGAndJPEG() throws {
    let error = #expect(throws: MediaError.self) { try Self.decode("bomb-30000x30000.heic") }
    #expect(
      error?.message
        == "cannot load 'bomb-30000x30000.heic': the picture is 30000×30000 pixels, more than "
        + "the limit of 100 megapixels (set MEMESH_MAX_MEGAPIXELS to allow more)")
    #expect(throws: MediaError.self) {
      try Self.decode("cat.heic", limits: DecodeLimits(maxPixels: 160 * 120 - 1))
    }
    let fits = try Self.decode("cat.heic", limits: DecodeLimits(maxPixels: 160 * 120))
    #expect(fits.image.width == 160)
  }

  /// Grids libheif 1.15 would crash on (found by `make fuzz`): more tiles asked for than the
  /// file names, a picture larger than the tiles cover. memesh refuses them first.
  @Test(arguments: [
    (3, 109, "the grid has 110 tiles but the file names only 1"),
    (5, 109, "the grid's 1×1 tiles of 64×64 do not cover its 109×24 picture"),
    (7, 116, "the grid's 1×1 tiles of 64×64 do not cover its 16×116 picture"),
  ])
  func gridsLibheifWouldCrashOnAreRefused(_ byte: Int, _ value: UInt8, _ reason: String) throws {
    var data = try Self.data("exif-6-no-irot.heic")
    let grid = try #require(data.firstRange(of: Data([0, 0, 0, 0, 0, 0x10, 0, 0x18])))
    data[grid.lowerBound + byte] = value
    let error = #expect(throws: MediaError.self) { try ImageCodec.decode(data, name: "g.heic") }
    #expect(error?.message == "cannot load 'g.heic': \(reason)")
  }

  @Test func libheifsOwnLimitGivesItsReason() throws {
    let error = #expect(throws: MediaError.self) { try Self.decode("bomb-100000x100000.heic") }
    #expect(
      error?.message
        == "cannot load 'bomb-100000x100000.heic': memory allocation error: Security limit "
        + "exceeded: Image size 100000x100000 exceeds the maximum image size 32768x32768")
  }

  @Test(arguments: [0, 20, 300, 600])
  func aFileCutShortIsRefused(_ length: Int) throws {
    let cut = try Self.data("cat.heic").prefix(length)
    #expect(throws: MediaError.self) { try ImageCodec.decode(cut, name: "cut.heic") }
  }

  /// libde265 prints "SPS error: …" to stderr itself; memesh puts it into the error instead.
  @Test func aDamagedStreamGivesTheDecodersOwnWords() throws {
    let error = #expect(throws: MediaError.self) { try Self.decode("damaged-sps.heic") }
    #expect(
      error?.message
        == "cannot load 'damaged-sps.heic': decoder plugin generated an error: Unspecified "
        + "(the decoder said: SPS error: CB alignment)")
  }

  /// In a separate process: nothing reaches stderr (libde265's own lines included), and no bomb
  /// costs memory.
  @Test func bombsAndDamageStayOffTheTerminal() throws {
    let files = [
      "bomb-4096-tiles.heic", "bomb-30000x30000.heic", "bomb-100000x100000.heic",
      "damaged-sps.heic", "grid-irot-exif-6.heic",
    ]
    let probe = try ImageProbe.run(
      files.map { Self.folder.appendingPathComponent($0).path }, in: Self.folder)
    #expect(probe.standardError == "")
    #expect(probe.lines.filter { $0.hasPrefix("error: ") }.count == 4, "\(probe.lines)")
    #expect(probe.lines.last == "ok 120x100 heic orientation 1")
    #expect(probe.maxResidentKilobytes > 0 && probe.maxResidentKilobytes < 60_000, "\(probe)")
  }
}

extension ImageHEIFTests {
  /// A file libheif decodes with two warnings (an nclx box with unknown values, found by
  /// `make fuzz`): the picture loads and the last warning is shown in libheif's words; the
  /// other's message is not readable in libheif 1.15 and is never touched.
  @Test func libheifsWarningIsShown() throws {
    let decoded = try Self.decode("two-warnings.avif")
    #expect(decoded.image.size == PixelSize(width: 64, height: 48))
    #expect(
      decoded.warnings == [
        "'two-warnings.avif': invalid input: Unknown NCLX matrix coefficients"
      ])
  }
}

// MARK: - Grids tile by tile

extension ImageHEIFTests {
  /// Opens `name` with `HEIFDecoder` directly and decodes it, tile by tile or in one libheif
  /// call.
  static func decodeDirectly(
    _ name: String, tileByTile: Bool, limits: DecodeLimits = .default
  ) throws -> (image: RGBAImage, tiled: Bool) {
    try SharedLibrary.load([.heif])
    return try Self.data(name).withUnsafeBytes { bytes in
      let decoder = try HEIFDecoder(bytes, limits: limits, tileByTile: tileByTile)
      let image = try ImageCodec.read(decoder, format: .heic, watch: nil)
      return (image, decoder.decodesTileByTile)
    }
  }

  /// A phone's grid is decoded tile by tile, two at a time, straight into place: the same
  /// pixels as libheif's whole-picture decode, the last row and column cut to the picture.
  @Test(arguments: ["grid-2x2.heic", "grid-10x10.heic"])
  func tileByTileGivesLibheifsPixels(_ name: String) throws {
    let tiled = try Self.decodeDirectly(name, tileByTile: true)
    let whole = try Self.decodeDirectly(name, tileByTile: false)
    #expect(tiled.tiled && !whole.tiled)
    #expect(tiled.image.size == whole.image.size)
    #expect(tiled.image.pixels == whole.image.pixels)
  }

  /// Grids with a transform (irot, imir, clap) or alpha, and single pictures, stay with
  /// libheif, which applies the transform to the whole.
  @Test(arguments: ["grid-irot-exif-6.heic", "cat.heic", "alpha.heic", "cat.avif"])
  func otherPicturesAreLeftToLibheif(_ name: String) throws {
    #expect(try Self.decodeDirectly(name, tileByTile: true).tiled == false)
  }

  /// The time limit is checked between tiles: a 100-tile grid cannot be decoded in a
  /// millisecond, and the load stops with the limit and how to change it.
  @Test func aGridOverTheTimeLimitIsStopped() throws {
    let limits = DecodeLimits(maxDecodeSeconds: 0.001)
    let error = #expect(throws: MediaError.self) {
      try Self.decode("grid-10x10.heic", limits: limits)
    }
    #expect(
      error
        == .cannotLoad(
          name: "grid-10x10.heic",
          .undecodable(
            reason: "decoding took longer than the limit of 0.001 seconds",
            hint: "set MEMESH_MAX_DECODE_SECONDS to allow more")))
    #expect(try Self.decode("grid-10x10.heic").image.size == PixelSize(width: 600, height: 600))
  }

  /// A bad MEMESH_MAX_DECODE_SECONDS is named when the limit stops a load (and at start, by
  /// the shell); the default limit is kept meanwhile.
  @Test func aBadTimeSettingIsNamed() throws {
    for bad in ["abc", "0", "-1", "1e9", "5000", " ", "1,5"] {
      let limits = DecodeLimits(megapixelSetting: nil, secondsSetting: bad)
      #expect(limits.ignoredSecondsSetting == bad && limits.maxDecodeSeconds == 20, "\(bad)")
    }
    #expect(DecodeLimits(megapixelSetting: nil, secondsSetting: "0.5").maxDecodeSeconds == 0.5)
    #expect(DecodeLimits(megapixelSetting: nil, secondsSetting: " 60 ").maxDecodeSeconds == 60)
    var limits = DecodeLimits(megapixelSetting: nil, secondsSetting: "soon")
    limits.maxDecodeSeconds = 0.001
    let error = #expect(throws: MediaError.self) {
      try Self.decode("grid-10x10.heic", limits: limits)
    }
    #expect(
      error?.message
        == "cannot load 'grid-10x10.heic': decoding took longer than the limit of 0.001 seconds "
        + "(MEMESH_MAX_DECODE_SECONDS='soon' was ignored: not a number of seconds from 0.001 "
        + "to 3600)")
  }

  /// A damaged tile fails the load with libheif's reason, the same as libheif's whole decode
  /// gives, whichever thread decoded it.
  @Test func aDamagedTileFailsTheLoad() throws {
    var data = try Self.data("grid-10x10.heic")
    // The tiles' coded data is at the end of the file (mdat): damage one in the middle.
    let middle = data.count - data.count / 4
    for offset in middle..<(middle + 64) { data[offset] ^= 0x5A }
    try SharedLibrary.load([.heif])
    func reason(tileByTile: Bool) -> String? {
      data.withUnsafeBytes { bytes in
        do throws(MemeDecodeFailure) {
          let decoder = try HEIFDecoder(bytes, limits: .default, tileByTile: tileByTile)
          _ = try ImageCodec.read(decoder, format: .heic, watch: nil)
          return nil
        } catch {
          return error.reason
        }
      }
    }
    let tiled = reason(tileByTile: true)
    // (What is printed to stderr meanwhile joins the reason: in a test run, the runner's own
    // lines from other threads too, so only the start is compared.)
    let whole = reason(tileByTile: false)
    let expected = "Decoder plugin generated an error: Unexpected end of file"
    #expect(tiled?.hasPrefix(expected) == true, "\(tiled ?? "none")")
    #expect(whole?.hasPrefix(expected) == true, "\(whole ?? "none")")
  }
}
