import CMemeshShim
import Dispatch
import Foundation
import MemeCore

extension MemeRenderer {
  /// Loads `path` as the editor's picture, like `ImageFile.sourcePicture(path:)`, with the work
  /// spread over two cores: this thread decodes the full picture; a helper thread first maps in
  /// the pages of the decoder's pixel buffer ahead of it (48 MB for 12 MP: some 12,000 page
  /// faults the decoder would otherwise take, ~1.5 µs each), then hashes the original (SHA-256)
  /// and, for a JPEG, makes the preview proxy with a DCT-scaled libjpeg pass (1/4 or 1/8: most
  /// of the inverse transform skipped); together that is shorter than the full decode. A PNG's
  /// proxy is reduced from the decoded pixels in C afterwards.
  /// The decoded file comes back too, for its warnings and its embedded recipe. `displayPath`
  /// (default `path`) is what the picture is called in prompts.
  public static func loadPicture(
    path: String, displayPath: String? = nil, limits: DecodeLimits = .default
  ) throws -> (picture: SourcePicture, decoded: DecodedImage) {
    let bytes = try ImageFile.read(path: path)
    let isJPEG = ImageCodec.sniff(bytes) == .jpeg
    let results = LoadResults()
    let pixels = PixelHandoff()
    let helperDone = DispatchSemaphore(value: 0)
    let helper = Thread {
      pixels.prefault()
      let digest = Checksum.sha256(bytes)
      results.set { $0.sha256 = digest }
      if isJPEG {
        let proxy = Result { try jpegProxy(bytes, name: path, limits: limits) }
        results.set { $0.proxy = proxy }
      }
      helperDone.signal()
    }
    helper.start()
    let decoding = Result {
      try ImageCodec.decode(bytes, name: path, limits: limits) { pixels.hand($0) }
    }
    // Releases the helper when the decoder failed before it had a buffer.
    pixels.hand(nil)
    helperDone.wait()
    results.set { $0.decoded = decoding }
    let finished = results.take()
    guard let decodedResult = finished.decoded else {
      throw MemeError("cannot load '\(path)': the decoder did not run")
    }
    let decoded = try decodedResult.get()
    let proxy =
      (try? finished.proxy?.get())
      ?? reduced(decoded.image, toFit: ImageFile.proxyDimension, isOpaque: decoded.format == .jpeg)
    let picture = SourcePicture(
      path: displayPath ?? path, originalBytes: bytes,
      sha256: finished.sha256 ?? Checksum.sha256(bytes), format: decoded.format,
      image: decoded.image, proxy: proxy)
    return (picture, decoded)
  }

  /// Like `ImageFile.sourcePicture(path:bytes:decoded:)` for a file already read and decoded:
  /// the proxy reduced in C while the SHA-256 runs on a second thread.
  public static func sourcePicture(path: String, bytes: Data, decoded: DecodedImage)
    -> SourcePicture
  {
    let results = LoadResults()
    DispatchQueue.concurrentPerform(iterations: 2) { task in
      if task == 0 {
        let proxy = reduced(
          decoded.image, toFit: ImageFile.proxyDimension, isOpaque: decoded.format == .jpeg)
        results.set { $0.proxy = .success(proxy) }
      } else {
        let digest = Checksum.sha256(bytes)
        results.set { $0.sha256 = digest }
      }
    }
    let finished = results.take()
    let proxy =
      (try? finished.proxy?.get()) ?? reduced(decoded.image, toFit: ImageFile.proxyDimension)
    return SourcePicture(
      path: path, originalBytes: bytes, sha256: finished.sha256 ?? Checksum.sha256(bytes),
      format: decoded.format, image: decoded.image, proxy: proxy)
  }

  /// A preview proxy from a DCT-scaled libjpeg pass: the largest reduction (1/8, 1/4, 1/2) that
  /// keeps the longest side within 1/8 of `ImageFile.proxyDimension` (a 4000-pixel photo gives
  /// 1000 pixels at 1/4), then reduced in C when still larger.
  public static func jpegProxy(_ bytes: Data, name: String, limits: DecodeLimits) throws
    -> RGBAImage
  {
    let limit = ImageFile.proxyDimension
    let raw = try ImageCodec.decodeRaw(bytes, format: .jpeg, name: name, limits: limits) { size in
      let longest = max(size.width, size.height)
      return [8, 4, 2].first { longest / $0 >= limit - limit / 8 } ?? 1
    }
    return reduced(ImageOps.oriented(raw.image, orientation: raw.orientation), toFit: limit)
  }

  /// A box-filtered copy whose longest side is at most `dimension` (the image itself when it is
  /// already small enough). The C loop is many times faster than `ImageOps.scaled` on 12 MP.
  public static func reduced(_ image: RGBAImage, toFit dimension: Int, isOpaque: Bool? = nil)
    -> RGBAImage
  {
    let size = ImageOps.fittedSize(of: image.size, toFit: dimension, dimension)
    guard size != image.size, size.width > 0, size.height > 0 else { return image }
    let count = size.width * size.height * 4
    let pixels = [UInt8](unsafeUninitializedCapacity: count) { target, initialized in
      image.pixels.withUnsafeBufferPointer { source in
        guard let base = source.baseAddress else { return }
        let rows = (0..<image.height).map { row -> UnsafePointer<UInt8>? in
          base + row * image.width * 4
        }
        rows.withUnsafeBufferPointer { pointers in
          var whole = memesh_rows(
            rows: pointers.baseAddress, width: UInt32(image.width), height: UInt32(image.height),
            opaque: isOpaque.map { $0 ? 1 : 0 } ?? -1, overlay: nil)
          memesh_downscale_rows(
            &whole, UInt32(size.width), UInt32(size.height), target.baseAddress)
        }
      }
      initialized = count
    }
    return RGBAImage(width: size.width, height: size.height, pixels: pixels)
  }
}

/// The decoder's pixel buffer, handed once to the load's helper thread, which maps its pages in.
private final class PixelHandoff: @unchecked Sendable {
  private let handed = DispatchSemaphore(value: 0)
  private let lock = NSLock()
  private var done = false
  private var region: (address: UInt, count: Int)?

  /// Hands `buffer` over (nil: there is none); only the first call counts.
  func hand(_ buffer: UnsafeMutableRawBufferPointer?) {
    lock.lock()
    defer { lock.unlock() }
    guard !done else { return }
    done = true
    region = buffer.flatMap { buffer in
      buffer.baseAddress.map { (UInt(bitPattern: $0), buffer.count) }
    }
    handed.signal()
  }

  /// Waits for the buffer and maps its pages in (safe while the decoder writes them).
  func prefault() {
    handed.wait()
    lock.lock()
    let region = self.region
    lock.unlock()
    guard let region, let start = UnsafeMutableRawPointer(bitPattern: region.address) else {
      return
    }
    memesh_prefault(start, region.count)
  }
}

/// What the parallel load tasks hand back, behind a lock.
private final class LoadResults: @unchecked Sendable {
  struct Values {
    var decoded: Result<DecodedImage, any Error>?
    var proxy: Result<RGBAImage, any Error>?
    var sha256: String?
  }

  private let lock = NSLock()
  private var values = Values()

  func set(_ change: (inout Values) -> Void) {
    lock.lock()
    defer { lock.unlock() }
    change(&values)
  }

  func take() -> Values {
    lock.lock()
    defer { lock.unlock() }
    return values
  }
}
