import CMemeshCoefficients
import Foundation
import MemeCore
import Testing

@testable import MemeMedia

/// A JPEG meme of a JPEG photo is spliced into the photo's coded data: every block outside the
/// rows the captions touch keeps its exact DCT coefficients (read back through libjpeg's
/// jpeg_read_coefficients), so re-captioning never "deep-fries" the photo.
@Suite struct JPEGSpliceTests {
  let renderer = MemeRenderer(catalog: .standard())

  /// A JPEG of a photo-like picture as another program would write it (libjpeg, quality 90,
  /// 4:2:0, standard Huffman tables, no restart markers).
  static func photoJPEG(width: Int, height: Int) throws -> Data {
    let photo = MemeRendererTests.photo(width: width, height: height)
    return try ImageCodec.encode(photo, as: .jpeg, settings: EncodeSettings(quality: 90))
  }

  static func picture(_ bytes: Data, name: String = "photo.jpg") throws -> SourcePicture {
    let decoded = try ImageCodec.decode(bytes, name: name)
    return MemeRenderer.sourcePicture(path: name, bytes: bytes, decoded: decoded)
  }

  /// One component's quantized coefficients, block by block.
  struct Plane {
    var across: Int
    var down: Int
    var h: Int
    var v: Int
    var blocks: [Int16]

    func block(_ x: Int, _ y: Int) -> ArraySlice<Int16> {
      let start = (y * across + x) * 64
      return blocks[start..<start + 64]
    }
  }

  static func coefficients(_ jpeg: Data) throws -> [Plane] {
    var read = memesh_coefficients()
    var message = [CChar](repeating: 0, count: 256)
    let status = jpeg.withUnsafeBytes { raw in
      memesh_read_coefficients(
        raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count, &read, &message,
        message.count)
    }
    defer { memesh_coefficients_free(&read) }
    try #require(status == 0, "libjpeg could not read the coefficients")
    let planes = withUnsafePointer(to: read.planes) { tuple in
      tuple.withMemoryRebound(to: memesh_coefficient_plane.self, capacity: 4) { planes in
        (0..<Int(read.components)).map { index -> Plane in
          let plane = planes[index]
          let count = Int(plane.blocks_across) * Int(plane.blocks_down) * 64
          return Plane(
            across: Int(plane.blocks_across), down: Int(plane.blocks_down), h: Int(plane.h),
            v: Int(plane.v),
            blocks: Array(UnsafeBufferPointer(start: plane.coefficients, count: count)))
        }
      }
    }
    return planes
  }

  /// The MCU rows (of `mcuHeight` pixels) the captions for a meme of `size` are drawn in.
  func touchedRows(size: PixelSize, top: String, bottom: String, mcuHeight: Int) throws
    -> Set<Int>
  {
    let (canvases, _) = try renderer.captions.canvases(
      for: size, top: top, bottom: bottom, font: "Anton")
    var rows = Set<Int>()
    for canvas in canvases where canvas.region.width > 0 && canvas.region.height > 0 {
      let region = canvas.region
      rows.formUnion((region.y / mcuHeight)...((region.y + region.height - 1) / mcuHeight))
    }
    return rows
  }

  /// Compares every block of `meme` with the block of `source` it came from (the crop at
  /// `origin`, in MCUs); returns how many MCU rows were identical and how many differed, and
  /// fails on a difference in a row outside `touched`.
  func compareBlocks(
    source: Data, meme: Data, originMCU: (x: Int, y: Int), touched: Set<Int>
  ) throws -> (same: Int, different: Int) {
    let before = try Self.coefficients(source)
    let after = try Self.coefficients(meme)
    try #require(before.count == after.count)
    var differing = Set<Int>()
    var rows = 0
    for (old, new) in zip(before, after) {
      #expect(old.h == new.h && old.v == new.v)
      rows = max(rows, (new.down + new.v - 1) / new.v)
      for y in 0..<new.down {
        for x in 0..<new.across {
          let from = old.block(originMCU.x * old.h + x, originMCU.y * old.v + y)
          if from != new.block(x, y) { differing.insert(y / new.v) }
        }
      }
    }
    let outside = differing.subtracting(touched)
    #expect(outside.isEmpty, "blocks changed in MCU rows no caption touches: \(outside.sorted())")
    return (rows - differing.count, differing.count)
  }

  @Test(arguments: [
    (Crop.off, (x: 0, y: 0)),
    (Crop.rect(PixelRect(x: 48, y: 32, width: 530, height: 371)), (x: 3, y: 2)),
  ])
  func blocksOutsideTheCaptionsAreCarriedOverExactly(
    crop: Crop, origin: (x: Int, y: Int)
  ) throws {
    let source = try Self.photoJPEG(width: 640, height: 480)
    let (top, bottom) = ("one does not simply", "splice a jpeg")
    let state = EditorState(
      picture: try Self.picture(source), top: top, bottom: bottom, crop: crop)
    let output = try renderer.render(state, format: .jpeg)
    #expect(output.report.explanation.contains("jpeg: spliced into the photo's own data"))
    let size = try crop.resolved(in: PixelSize(width: 640, height: 480)).size
    #expect(output.size == size)
    let touched = try touchedRows(size: size, top: top, bottom: bottom, mcuHeight: 16)
    let (same, different) = try compareBlocks(
      source: source, meme: output.data, originMCU: origin, touched: touched)
    // The captions changed their rows, and most of the photo was carried over.
    #expect(different > 0 && different <= touched.count)
    #expect(same >= (size.height / 16) / 3)
    // It decodes to the meme: captions where they belong, the photo elsewhere.
    let decoded = try ImageCodec.decode(output.data, name: "meme")
    #expect(decoded.image.size == size)
    #expect(ImageCodec.iccProfile(of: output.data) == nil)
    let recipe = try #require(decoded.recipe?.embedded?.recipe)
    #expect(recipe.top == top && recipe.bottom == bottom && recipe.crop == crop)
  }

  @Test func fileSizeStaysNearTheSourcePlusTheCaptions() throws {
    let source = try Self.photoJPEG(width: 640, height: 480)
    let picture = try Self.picture(source)
    let captioned = EditorState(picture: picture, top: "one does not simply", bottom: "jpeg")
    let spliced = try renderer.render(captioned, format: .jpeg).data
    // What the captions cost when the whole picture is encoded again at the source's quality.
    let image = try picture.image
    let whole = try renderer.render(
      image, top: "one does not simply", bottom: "jpeg", font: "Anton", format: .jpeg
    ).data
    let plain = try renderer.render(image, top: "", bottom: "", font: "Anton", format: .jpeg)
    let captionsCost = max(0, whole.count - plain.data.count)
    #expect(Double(spliced.count) <= Double(source.count + captionsCost) * 1.05)
    #expect(spliced.count > source.count)
  }

  /// Someone else's meme (captions already in its pixels), loaded and captioned again: the old
  /// caption's rows, no longer under a new caption, keep their exact blocks too.
  @Test(arguments: [false, true])
  func reCaptioningSomeoneElsesMemeKeepsEveryUntouchedBlock(splicedByMemesh: Bool) throws {
    let photo = MemeRendererTests.photo(width: 480, height: 360)
    let theirs = try renderer.captions.render(
      onto: photo, top: "their top text", bottom: "their bottom", font: "DejaVuSans-Bold")
    var foreign = try ImageCodec.encode(theirs.image, as: .jpeg)
    if splicedByMemesh {
      // A meme memesh spliced (a restart marker after every row of blocks), its original lost.
      let state = EditorState(picture: try Self.picture(foreign), top: "memesh was here")
      foreign = try renderer.render(state, format: .jpeg).data
    }
    let state = EditorState(
      picture: try Self.picture(foreign, name: "their-meme.jpg"), top: "", bottom: "again")
    let output = try renderer.render(state, format: .jpeg)
    let size = PixelSize(width: 480, height: 360)
    let touched = try touchedRows(size: size, top: "", bottom: "again", mcuHeight: 16)
    #expect(touched.allSatisfy { $0 > 360 / 16 / 2 })
    let (same, different) = try compareBlocks(
      source: foreign, meme: output.data, originMCU: (0, 0), touched: touched)
    #expect(different > 0)
    #expect(same >= 360 / 16 - touched.count)
  }

  /// Every sampling memesh's fixtures have (4:4:4, 4:2:2, 4:2:0, 4:1:1, odd sizes), spliced with
  /// no caption: every block comes through.
  @Test(arguments: ["sub411-33x17.jpg", "sub420-33x17.jpg", "sub422-7x5.jpg", "sub444-32x24.jpg",
    "grayscale.jpg", "baseline.jpg", "exif-1.jpg", "icc-rgb.jpg"])
  func everySamplingComesThroughUnchanged(name: String) throws {
    let source = try ImageFixtures.data(name)
    let state = EditorState(picture: try Self.picture(source, name: name))
    let output = try renderer.render(state, format: .jpeg)
    #expect(output.report.explanation.contains("spliced"), "\(output.report.explanation)")
    let (_, different) = try compareBlocks(
      source: source, meme: output.data, originMCU: (0, 0), touched: [])
    #expect(different == 0)
    #expect(ImageCodec.iccProfile(of: output.data) == ImageCodec.iccProfile(of: source))
  }

  @Test(arguments: [
    ("progressive.jpg", JPEGSplice.Refusal.progressive),
    ("arithmetic.jpg", .arithmetic),
    ("cmyk-adobe.jpg", .cmyk),
    ("restart.jpg", .restartMarkers),
    ("exif-6.jpg", .turned(orientation: 6)),
    ("exif-8.jpg", .turned(orientation: 8)),
  ])
  func photosThatCannotBeSplicedAreEncodedWholeAndSaySo(
    name: String, refusal: JPEGSplice.Refusal
  ) throws {
    let source = try ImageFixtures.data(name)
    #expect(JPEGSplice.plan(source, crop: .off) == .failure(refusal))
    let state = EditorState(picture: try Self.picture(source, name: name), bottom: "whole")
    #expect(JPEGSplice.explanation(for: try Self.picture(source), crop: .off) == refusal.explanation)
    let output = try renderer.render(state, format: .jpeg)
    #expect(output.report.explanation.hasSuffix(refusal.explanation))
    #expect(try ImageCodec.decode(output.data, name: "meme").image.size == output.size)
  }

  @Test func anUnalignedCropOrAnExplicitQualityEncodesWhole() throws {
    let source = try Self.photoJPEG(width: 320, height: 240)
    let picture = try Self.picture(source)
    let unaligned = EditorState(
      picture: picture, bottom: "crop", crop: .rect(PixelRect(x: 5, y: 0, width: 200, height: 200)))
    let refusal = JPEGSplice.Refusal.unalignedCrop(mcuWidth: 16, mcuHeight: 16)
    #expect(try renderer.render(unaligned, format: .jpeg).report.explanation
      .hasSuffix(refusal.explanation))
    let explicit = EditorState(picture: picture, bottom: "q")
    let lower = MemeRenderer(catalog: .standard(), settings: EncodeSettings(quality: 70))
    #expect(try lower.render(explicit, format: .jpeg).report.explanation
      .hasSuffix(JPEGSplice.Refusal.explicitQuality.explanation))
  }

  /// `load` of a JPEG that can be spliced indexes it and does not decode it; a meme memesh
  /// spliced reopens with its recipe; a damaged one is decoded at once (and its problem said).
  @Test func loadIndexesASpliceableJPEGWithoutDecodingIt() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("memesh-splice-load-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("photo.jpg").path
    // Wide enough for the thumbnail to come from the DC coefficients (8 × 256), low enough for
    // memesh's encoder to write it in one part (no restart markers).
    let source = try Self.photoJPEG(width: 2048, height: 480)
    try source.write(to: URL(fileURLWithPath: path))
    let (picture, facts) = try MemeRenderer.loadForEditing(path: path)
    #expect(!picture.isDecoded)
    #expect(try picture.size == PixelSize(width: 2048, height: 480))
    #expect(facts.recipe == nil && facts.warnings.isEmpty && facts.orientation == 1)
    // The preview's proxy comes from a reduced DCT decode (1/2 here), never the whole photo.
    let proxy = try picture.proxy
    #expect(proxy.size == PixelSize(width: 1024, height: 240))
    #expect(!picture.isDecoded)
    let state = EditorState(picture: picture, top: "reopen", bottom: "me")
    let meme = try renderer.render(state, format: .jpeg)
    #expect(!picture.isDecoded)
    #expect(meme.thumbnailSize == PixelSize(width: 256, height: 60))
    let memePath = directory.appendingPathComponent("meme.jpg").path
    try meme.data.write(to: URL(fileURLWithPath: memePath))
    let (reopened, memeFacts) = try MemeRenderer.loadForEditing(path: memePath)
    let reopenedRecipe = memeFacts.recipe?.embedded?.recipe
    #expect(reopenedRecipe?.top == "reopen" && reopenedRecipe?.bottom == "me")
    #expect(!reopened.isDecoded)
    // A photo too small for a DC thumbnail gets it from the proxy: still no full decode.
    let smallPath = directory.appendingPathComponent("small.jpg").path
    try Self.photoJPEG(width: 640, height: 480).write(to: URL(fileURLWithPath: smallPath))
    let (small, _) = try MemeRenderer.loadForEditing(path: smallPath)
    let smallMeme = try renderer.render(EditorState(picture: small, bottom: "small"), format: .jpeg)
    #expect(smallMeme.thumbnailSize == PixelSize(width: 256, height: 192))
    #expect(!small.isDecoded)
    // Cut short: decoded at once, as before, with libjpeg's warning.
    let cut = directory.appendingPathComponent("cut.jpg").path
    try source.prefix(source.count * 2 / 3).write(to: URL(fileURLWithPath: cut))
    let (truncated, truncatedFacts) = try MemeRenderer.loadForEditing(path: cut)
    #expect(truncated.isDecoded)
    #expect(!truncatedFacts.warnings.isEmpty)
  }

  /// Damaged coded data never crashes the splicer: it splices or refuses.
  @Test func damagedDataIsRefusedNotTrusted() throws {
    let source = try Self.photoJPEG(width: 320, height: 240)
    var generator = SystemRandomNumberGenerator()
    var refused = 0
    for round in 0..<200 {
      var bytes = [UInt8](source)
      let scanStart = bytes.count / 3
      for _ in 0..<(1 + round % 4) {
        bytes[Int.random(in: scanStart..<bytes.count, using: &generator)] = UInt8.random(
          in: 0...255, using: &generator)
      }
      if round % 10 == 0 { bytes.removeLast(Int.random(in: 1..<bytes.count / 2)) }
      let result = JPEGSplice.splice(
        Data(bytes), crop: .off, regions: [PixelRect(x: 0, y: 100, width: 320, height: 40)],
        maxPixels: 1_000_000)
      if case .failure = result { refused += 1 }
    }
    #expect(refused > 0)
  }
}

/// A photo large enough to be indexed on two threads (the second starting mid-scan on a guess):
/// what the second thread found is used, and it is exactly what one thread finds.
@Suite struct JPEGSpliceTwoThreadTests {
  let renderer = MemeRenderer(catalog: .standard())

  @Test func aLargePhotoIsIndexedOnTwoThreadsAndSplicedExactly() throws {
    let source = try JPEGSpliceTests.photoJPEG(width: 2560, height: 496)
    let opened = try JPEGSplice.Source.open(source, maxPixels: 1 << 30, waitForSecondThread: true)
      .get()
    // 160 × 31 MCUs (under 512 rows, so memesh's encoder wrote no restart markers): the second
    // thread met the first and indexed the rest.
    #expect(opened.tailMCU > 0 && opened.tailMCU < 160 * 31)
    JPEGSplice.remember(opened, sha256: Checksum.sha256(source))
    let state = EditorState(
      picture: try JPEGSpliceTests.picture(source), top: "two threads", bottom: "one index")
    let output = try renderer.render(state, format: .jpeg)
    #expect(output.report.explanation.contains("jpeg: spliced into the photo's own data"))
    let touched = try JPEGSpliceTests().touchedRows(
      size: output.size, top: "two threads", bottom: "one index", mcuHeight: 16)
    let (same, different) = try JPEGSpliceTests().compareBlocks(
      source: source, meme: output.data, originMCU: (0, 0), touched: touched)
    #expect(different > 0 && same >= 31 - touched.count)
  }

  /// The index `load` made is handed to the first share and freed after it; a second share of
  /// the same photo (after a failed save) indexes it again and makes the same meme.
  @Test func aSecondShareOfTheSamePhotoIndexesItAgainAndMatches() throws {
    let source = try JPEGSpliceTests.photoJPEG(width: 2560, height: 496)
    let sha256 = Checksum.sha256(source)
    JPEGSplice.remember(try JPEGSplice.Source.open(source, maxPixels: 1 << 30), sha256: sha256)
    let state = EditorState(
      picture: try JPEGSpliceTests.picture(source), top: "twice", bottom: "the same")
    let first = try renderer.render(state, format: .jpeg)
    let second = try renderer.render(state, format: .jpeg)
    #expect(second.report.explanation.contains("jpeg: spliced into the photo's own data"))
    #expect(first.data == second.data && first.thumbnail == second.thumbnail)
  }

  /// A meme memesh spliced (a restart marker after every row of blocks) is indexed on two
  /// threads in rows claimed from both ends, nothing guessed; captioned again, every block
  /// outside the new caption's rows still comes through.
  @Test func aSplicedMemeIsIndexedOnTwoThreadsSplitAtARestartMarker() throws {
    let photo = try JPEGSpliceTests.photoJPEG(width: 2560, height: 496)
    let first = try renderer.render(
      EditorState(picture: try JPEGSpliceTests.picture(photo), top: "first"), format: .jpeg
    ).data
    #expect(first.contains(Data([0xFF, 0xD0])))
    let opened = try JPEGSplice.Source.open(first, maxPixels: 1 << 30, waitForSecondThread: true)
      .get()
    // 31 rows of 160 MCUs, 30 restart markers: waited for, the second thread indexed the rows
    // after the 16th.
    #expect(opened.tailMCU == 16 * 160)
    JPEGSplice.remember(opened, sha256: Checksum.sha256(first))
    let again = try renderer.render(
      EditorState(picture: try JPEGSpliceTests.picture(first, name: "first.jpg"), bottom: "again"),
      format: .jpeg)
    let touched = try JPEGSpliceTests().touchedRows(
      size: again.size, top: "", bottom: "again", mcuHeight: 16)
    let (same, different) = try JPEGSpliceTests().compareBlocks(
      source: first, meme: again.data, originMCU: (0, 0), touched: touched)
    #expect(different > 0 && same >= 31 - touched.count)
  }

  /// The DC values the second thread found (relative to its guess, then shifted) make the same
  /// 1/8-scale picture as a full decode reduced by 8, in the bottom half as in the top.
  @Test func theSecondHalfsDCValuesAreTheFullDecodes() throws {
    let source = try JPEGSpliceTests.photoJPEG(width: 2560, height: 496)
    let spliced = try JPEGSplice.splice(
      source, crop: .off, regions: [], maxPixels: 1 << 30, waitForSecondThread: true
    ).get()
    let preview = try #require(spliced.preview)
    #expect(preview.size == PixelSize(width: 320, height: 62))
    let full = try ImageCodec.decode(source, name: "photo.jpg").image
    for half in [0..<31, 31..<62] {
      var total = 0
      var count = 0
      for y in half {
        for x in 0..<320 {
          var sum = [0, 0, 0]
          for dy in 0..<min(8, 496 - y * 8) {
            for dx in 0..<8 {
              let pixel = full[x * 8 + dx, y * 8 + dy]
              sum[0] += Int(pixel.r)
              sum[1] += Int(pixel.g)
              sum[2] += Int(pixel.b)
            }
          }
          let dc = preview[x, y]
          let n = 8 * min(8, 496 - y * 8)
          total += abs(sum[0] / n - Int(dc.r)) + abs(sum[1] / n - Int(dc.g))
            + abs(sum[2] / n - Int(dc.b))
          count += 3
        }
      }
      #expect(Double(total) / Double(count) < 8, "rows \(half): mean error \(total / count)")
    }
  }

  /// Damage in the second half, where the second thread starts, is found as one thread finds
  /// it: refused (or, where the damage still decodes, spliced), never a crash.
  @Test func damageInTheSecondHalfIsRefused() throws {
    let source = try JPEGSpliceTests.photoJPEG(width: 2560, height: 496)
    var generator = SystemRandomNumberGenerator()
    var refused = 0
    for _ in 0..<20 {
      var bytes = [UInt8](source)
      let spot = Int.random(in: bytes.count / 2..<bytes.count - 2, using: &generator)
      bytes[spot] ^= UInt8.random(in: 1...255, using: &generator)
      let result = JPEGSplice.splice(
        Data(bytes), crop: .off, regions: [], maxPixels: 1 << 30, waitForSecondThread: true)
      if case .failure = result { refused += 1 }
    }
    #expect(refused > 0)
  }
}

/// A JPEG whose coded data libjpeg recovers from loads with libjpeg's warning, though
/// spliceable JPEGs are indexed rather than decoded: the index refuses what libjpeg warns about,
/// so such a file is decoded (and its warning seen), and its share is encoded whole.
@Suite struct JPEGSpliceDamageTests {
  @Test func extraneousBytesBeforeTheEndMarkerLoadWithLibjpegsWarning() throws {
    // transcripts/images/photo.jpg with 40 bytes no block claims before its EOI marker.
    let bytes = try ImageFixtures.data("damaged-extraneous.jpg")
    #expect((try? JPEGSplice.plan(bytes, crop: .off).get()) != nil)
    #expect(JPEGSplice.Source.open(bytes, maxPixels: 1 << 30).failureValue == .damaged)
    let (picture, facts) = try MemeRenderer.loadForEditing(bytes: bytes, name: "damaged.jpg")
    #expect(
      facts.warnings == ["'damaged.jpg': corrupt JPEG data: 33 extraneous bytes before marker 0xd9"])
    #expect(picture.isDecoded)
    #expect(
      JPEGSplice.explanation(for: picture, crop: .off) == JPEGSplice.Refusal.damaged.explanation)
    let renderer = MemeRenderer(catalog: .standard())
    let output = try renderer.render(EditorState(picture: picture, bottom: "whole"), format: .jpeg)
    #expect(output.report.explanation.hasSuffix(JPEGSplice.Refusal.damaged.explanation))
  }

  @Test func aScanCutShortLoadsWithLibjpegsWarning() throws {
    let whole = try JPEGSpliceTests.photoJPEG(width: 640, height: 480)
    let cut = whole.prefix(whole.count * 3 / 4)
    let (picture, facts) = try MemeRenderer.loadForEditing(bytes: cut, name: "cut.jpg")
    #expect(facts.warnings.first == "'cut.jpg': premature end of JPEG file")
    #expect(picture.isDecoded)
  }
}

extension Result {
  /// The error, or nil for a success.
  fileprivate var failureValue: Failure? {
    if case .failure(let failure) = self { return failure }
    return nil
  }
}
