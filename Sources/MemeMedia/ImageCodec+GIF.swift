import CGif
import CMemeshCodec
import Foundation
import MemeCore

/// GIF through giflib, as a still picture: the first frame (`GIFAnimationReader` reads them
/// all), on the logical screen as a browser shows it, transparent where the frame does not reach or its transparent index
/// is; the frame's own palette or the global one; an ICC profile from the `ICCRGBG1012`
/// application extension; the recipe from a `memesh:recipe` comment. giflib reports failures as codes, so it is called from Swift. Only
/// the records up to the first image are read: later frames cost nothing.
struct GIFAdapter: ImageAdapter {
  var format: ImageFormat { .gif }
  var libraries: [SharedLibrary] { [.gif] }

  func recognises(_ head: [UInt8]) -> Bool {
    head.starts(with: Array("GIF87a".utf8)) || head.starts(with: Array("GIF89a".utf8))
  }

  func open(
    _ bytes: UnsafeRawBufferPointer, limits: DecodeLimits
  ) throws(MemeDecodeFailure) -> any ImageDecoder {
    try GIFFile(bytes, limits: limits)
  }
}

/// One GIF file, read up to its first image descriptor.
final class GIFFile: ImageDecoder {
  /// Where giflib's read callback takes its bytes from.
  final class Source {
    let bytes: UnsafeRawBufferPointer
    var offset = 0
    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }
  }

  /// The largest ICC profile kept (as the PNG and JPEG decoders do).
  private static let maxProfileSize = 4 << 20

  private let source: Source
  private let limits: DecodeLimits
  private let gif: UnsafeMutablePointer<GifFileType>
  private(set) var size = PixelSize(width: 0, height: 0)
  let orientation = 1
  private(set) var iccProfile: Data?
  /// The recipe from a `memesh:recipe` comment before the first image (memesh writes it there).
  private(set) var recipeText: String?
  private(set) var warnings: [String] = []
  /// The palette index drawn as transparent, from the frame's graphic control extension.
  private var transparentIndex = -1

  init(_ bytes: UnsafeRawBufferPointer, limits: DecodeLimits) throws(MemeDecodeFailure) {
    source = Source(bytes)
    self.limits = limits
    var error: Int32 = 0
    let context = Unmanaged.passUnretained(source).toOpaque()
    guard let gif = DGifOpen(context, GIFFile.readBytes, &error) else {
      throw source.failure(error)
    }
    // From here every stored property is set: a throw frees `gif` in deinit.
    self.gif = gif
    var profile = Data()
    var first: GifImageDesc?
    // The records before the first image: extensions (its transparency, a colour profile).
    while first == nil {
      var type = UNDEFINED_RECORD_TYPE
      guard DGifGetRecordType(gif, &type) == GIF_OK else {
        throw source.failure(gif.pointee.Error)
      }
      switch type {
      case IMAGE_DESC_RECORD_TYPE:
        guard DGifGetImageDesc(gif) == GIF_OK else { throw source.failure(gif.pointee.Error) }
        first = gif.pointee.Image
      case EXTENSION_RECORD_TYPE:
        try readExtension(into: &profile)
      case TERMINATE_RECORD_TYPE:
        throw MemeDecodeFailure("the GIF has no image")
      default:
        throw MemeDecodeFailure("the GIF is damaged (an unknown record)")
      }
    }
    guard let frame = first else { throw MemeDecodeFailure("the GIF has no image") }
    // The logical screen; a GIF that leaves it unset is as large as its frame.
    var width = Int(gif.pointee.SWidth)
    var height = Int(gif.pointee.SHeight)
    if width == 0 || height == 0 {
      width = Int(frame.Left) + Int(frame.Width)
      height = Int(frame.Top) + Int(frame.Height)
    }
    try limits.check(width: width, height: height)
    // Every row of the frame is decoded, even where it lies off the screen.
    try limits.check(width: Int(frame.Width), height: Int(frame.Height))
    size = PixelSize(width: width, height: height)
    if !profile.isEmpty {
      let rgb = profile.withUnsafeBytes { bytes in
        memesh_icc_is_rgb(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count)
      }
      if rgb == 1 { iccProfile = profile }
    }
  }

  deinit { DGifCloseFile(gif, nil) }

  /// giflib's input callback: the next `count` bytes of the file, or fewer at its end.
  static let readBytes: InputFunc = { gif, target, count in
    guard let gif, let target, count > 0, let context = gif.pointee.UserData else { return 0 }
    let source = Unmanaged<Source>.fromOpaque(context).takeUnretainedValue()
    let available = min(Int(count), source.bytes.count - source.offset)
    guard available > 0, let base = source.bytes.baseAddress else { return 0 }
    target.update(
      from: (base + source.offset).assumingMemoryBound(to: UInt8.self), count: available)
    source.offset += available
    return Int32(available)
  }

  /// One extension: a graphic control block sets the transparent index for the next image;
  /// `ICCRGBG1012` application data is a colour profile.
  private func readExtension(into profile: inout Data) throws(MemeDecodeFailure) {
    var code: Int32 = 0
    var block: UnsafeMutablePointer<GifByteType>?
    guard DGifGetExtension(gif, &code, &block) == GIF_OK else {
      throw source.failure(gif.pointee.Error)
    }
    var isProfile = false
    var firstBlock = true
    var comment: [UInt8] = []
    while let current = block {
      let length = Int(current[0])
      if code == GRAPHICS_EXT_FUNC_CODE, firstBlock {
        var control = GraphicsControlBlock()
        if DGifExtensionToGCB(length, current + 1, &control) == GIF_OK {
          transparentIndex = Int(control.TransparentColor)
        }
      } else if code == APPLICATION_EXT_FUNC_CODE, firstBlock {
        isProfile = length == 11 && Array(UnsafeBufferPointer(start: current + 1, count: 11))
          == Array("ICCRGBG1012".utf8)
      } else if isProfile, profile.count + length <= GIFFile.maxProfileSize {
        profile.append(current + 1, count: length)
      } else if code == COMMENT_EXT_FUNC_CODE, comment.count + length <= GIFFile.maxProfileSize {
        comment += UnsafeBufferPointer(start: current + 1, count: length)
      }
      firstBlock = false
      guard DGifGetExtensionNext(gif, &block) == GIF_OK else {
        throw source.failure(gif.pointee.Error)
      }
    }
    if let recipe = GIFRecords.recipe(inComment: comment) { recipeText = recipe }
  }

  func read(
    into pixels: UnsafeMutablePointer<UInt8>, progress: OpaquePointer?
  ) throws(MemeDecodeFailure) {
    let frame = gif.pointee.Image
    let canvasBytes = size.width * size.height * 4
    // Transparent wherever the frame does not reach.
    pixels.initialize(repeating: 0, count: canvasBytes)
    guard let map = frame.ColorMap ?? gif.pointee.SColorMap, let colors = map.pointee.Colors
    else { throw MemeDecodeFailure("the GIF has no colour table") }
    let colorCount = Int(map.pointee.ColorCount)
    let width = Int(frame.Width)
    let height = Int(frame.Height)
    let (left, top) = (Int(frame.Left), Int(frame.Top))
    var line = [GifPixelType](repeating: 0, count: max(1, width))
    // Interlaced frames come in four passes: every 8th row from 0, every 8th from 4, every 4th
    // from 2, every 2nd from 1.
    let passes: [(start: Int, step: Int)] =
      frame.Interlace ? [(0, 8), (4, 8), (2, 4), (1, 2)] : [(0, 1)]
    var decodedRows = 0
    let deadline = limits.deadline
    for pass in passes {
      for row in stride(from: pass.start, to: height, by: pass.step) {
        try limits.checkTime(deadline)
        let status = line.withUnsafeMutableBufferPointer { buffer in
          DGifGetLine(gif, buffer.baseAddress, Int32(width))
        }
        guard status == GIF_OK else {
          let failure = source.failure(gif.pointee.Error)
          guard decodedRows > 0 else { throw failure }
          // What was decoded stays; the rest is transparent, as browsers show a cut GIF.
          warnings.append(
            "the image data is damaged (\(failure.reason)); "
              + "the rest of the picture is left transparent")
          return
        }
        decodedRows += 1
        let y = top + row
        guard y < size.height else { continue }
        let target = pixels + y * size.width * 4
        for column in 0..<min(width, max(0, size.width - left)) {
          let index = Int(line[column])
          guard index != transparentIndex, index < colorCount else { continue }
          let color = colors[index]
          let pixel = target + (left + column) * 4
          pixel[0] = color.Red
          pixel[1] = color.Green
          pixel[2] = color.Blue
          pixel[3] = 255
        }
      }
    }
  }

}

extension GIFFile.Source {
  /// giflib's error code as a reason; any failure once every byte is read is the file's end
  /// (giflib calls a colour table cut short "no screen descriptor").
  func failure(_ code: Int32) -> MemeDecodeFailure {
    if offset >= bytes.count || code == D_GIF_ERR_READ_FAILED || code == D_GIF_ERR_EOF_TOO_SOON {
      return MemeDecodeFailure("the file ends early")
    }
    if code == D_GIF_ERR_NOT_ENOUGH_MEM { return MemeDecodeFailure("out of memory") }
    let reason = GifErrorString(code).map { String(cString: $0) } ?? "error \(code)"
    return MemeDecodeFailure("giflib: \(reason)")
  }
}
