import CMemeshCodec
import Dispatch
import Foundation
import MemeCore

extension MemeRenderer {
  /// Loads `path` as the editor's picture, like `ImageFile.sourcePicture(path:)`, with the work
  /// spread over two cores: this thread decodes the full picture; a helper thread follows the
  /// decoder (`DecodeWatch`). It first maps in the pages of the decoder's pixel buffer ahead of
  /// it (48 MB for 12 MP: some 12,000 page faults the decoder would otherwise take, ~1.5 µs
  /// each), then hashes the original (SHA-256), then reduces the preview proxy from the rows
  /// the decoder has finished, waiting for the rest: all of it fits inside the decode. Turned (EXIF) or PNG pictures get their proxy reduced after the
  /// decode, in two halves on two cores.
  /// The decoded file comes back too, for its warnings and its embedded recipe. `displayPath`
  /// (default `path`) is what the picture is called in prompts.
  public static func loadPicture(
    path: String, displayPath: String? = nil, limits: DecodeLimits = .default
  ) throws -> (picture: SourcePicture, decoded: DecodedImage) {
    try loadPicture(
      bytes: ImageFile.read(path: path), name: path, displayPath: displayPath, limits: limits)
  }

  /// `loadPicture(path:)` for bytes already read; `name` is the file's name in messages.
  public static func loadPicture(
    bytes: Data, name path: String, displayPath: String? = nil, limits: DecodeLimits = .default
  ) throws -> (picture: SourcePicture, decoded: DecodedImage) {
    let results = LoadResults()
    let watch = DecodeWatch()
    let helperDone = DispatchSemaphore(value: 0)
    let helper = Thread {
      let target = watch.waitForTarget()
      if let target, let base = target.base { memesh_prefault(base, target.byteCount) }
      // An upright JPEG's proxy is made from its rows as they come (other decoders' rows all
      // come at the end, and a turned picture is turned after the decode).
      let follows =
        target.map {
          ImageCodec.publishesRowsInOrder($0.format) && !(2...8).contains($0.orientation)
        } ?? false
      if !follows { watch.release() }
      let digest = Checksum.sha256(bytes)
      results.set { $0.sha256 = digest }
      if follows, let target {
        let proxy = followingProxy(target, watch: watch)
        watch.release()
        if let proxy { results.set { $0.proxy = .success(proxy) } }
      }
      helperDone.signal()
    }
    helper.start()
    let decoding = Result {
      try ImageCodec.decode(bytes, name: path, limits: limits, watch: watch)
    }
    // Lets the helper go when the decoder failed before or without finishing its rows.
    watch.finish(failed: (try? decoding.get()) == nil)
    helperDone.wait()
    let finished = results.take()
    let decoded = try decoding.get()
    let proxy =
      (try? finished.proxy?.get())
      ?? reduced(
        decoded.image, toFit: ImageFile.proxyDimension, isOpaque: ImageCodec.isAlwaysOpaque(decoded.format),
        threads: 2)
    let picture = SourcePicture(
      path: displayPath ?? path, originalBytes: bytes,
      sha256: finished.sha256 ?? Checksum.sha256(bytes), format: decoded.format,
      image: decoded.image, proxy: proxy)
    return (picture, decoded)
  }

  /// The proxy `reduced(_:toFit:isOpaque:)` makes of an opaque picture, made while `target` is
  /// being decoded, each row as soon as its source rows are in; nil when the decode failed.
  static func followingProxy(_ target: DecodeWatch.Target, watch: DecodeWatch) -> RGBAImage? {
    let size = ImageOps.fittedSize(
      of: target.size, toFit: ImageFile.proxyDimension, ImageFile.proxyDimension)
    guard size != target.size, size.width > 0, size.height > 0, let progress = watch.progress,
      let base = target.base.map({ UnsafePointer<UInt8>($0.assumingMemoryBound(to: UInt8.self)) })
    else { return nil }
    let rows = (0..<target.size.height).map { row -> UnsafePointer<UInt8>? in
      base + row * target.size.width * 4
    }
    let count = size.width * size.height * 4
    var complete = false
    let pixels = [UInt8](unsafeUninitializedCapacity: count) { into, initialized in
      rows.withUnsafeBufferPointer { pointers in
        var picture = memesh_rows(
          rows: pointers.baseAddress, width: UInt32(target.size.width),
          height: UInt32(target.size.height), opaque: 1, overlay: nil)
        complete =
          memesh_downscale_following(
            &picture, UInt32(size.width), UInt32(size.height), into.baseAddress, progress) == 1
      }
      // Every byte is written when complete; otherwise the proxy is dropped.
      initialized = complete ? count : 0
    }
    return complete ? RGBAImage(width: size.width, height: size.height, pixels: pixels) : nil
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
          decoded.image, toFit: ImageFile.proxyDimension, isOpaque: ImageCodec.isAlwaysOpaque(decoded.format))
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
  /// already small enough). The C loop is many times faster than `ImageOps.scaled` on 12 MP;
  /// with `threads` 2 the top and bottom halves of the result are made at once (same bytes).
  public static func reduced(
    _ image: RGBAImage, toFit dimension: Int, isOpaque: Bool? = nil, threads: Int = 1
  ) -> RGBAImage {
    let size = ImageOps.fittedSize(of: image.size, toFit: dimension, dimension)
    guard size != image.size, size.width > 0, size.height > 0 else { return image }
    let count = size.width * size.height * 4
    let pixels = [UInt8](unsafeUninitializedCapacity: count) { target, initialized in
      image.pixels.withUnsafeBufferPointer { source in
        guard let base = source.baseAddress, let into = target.baseAddress else { return }
        let rows = (0..<image.height).map { row -> UnsafePointer<UInt8>? in
          base + row * image.width * 4
        }
        rows.withUnsafeBufferPointer { pointers in
          var whole = memesh_rows(
            rows: pointers.baseAddress, width: UInt32(image.width), height: UInt32(image.height),
            opaque: isOpaque.map { $0 ? 1 : 0 } ?? -1, overlay: nil)
          // Looked up once, not by each band.
          whole.opaque = memesh_rows_opaque(&whole)
          let bands = max(1, min(threads, 2, size.height))
          withUnsafePointer(to: whole) { whole in
            // Each band writes its own target rows and only reads the picture.
            nonisolated(unsafe) let (whole, into) = (whole, into)
            DispatchQueue.concurrentPerform(iterations: bands) { band in
              memesh_downscale_band(
                whole, UInt32(size.width), UInt32(size.height),
                UInt32(size.height * band / bands), UInt32(size.height * (band + 1) / bands), into)
            }
          }
        }
      }
      initialized = count
    }
    return RGBAImage(width: size.width, height: size.height, pixels: pixels)
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
