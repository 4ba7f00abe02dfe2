import Foundation
import MemeCore
import MemeMedia

extension FuzzTarget {
  /// Small limits, so that a file claiming a legal but huge size is refused instead of spending
  /// the fuzzer's time and memory (the limit checks themselves are exercised all the same).
  static let limits = DecodeLimits(maxPixels: 4_000_000, maxJPEGScans: 200)

  /// PNG bytes through libpng: full decode (with orientation and the embedded recipe) and the
  /// preview path.
  /// The picture decoders' targets, in the order `make fuzz` runs them; a new format's target
  /// is added here.
  static let imageTargets: [FuzzTarget] =
    [png, jpeg, jpegSplice, webp, gif, heif, exif] + animationTargets

  static let png = FuzzTarget(name: "png", summary: "PNG file bytes") { data in
    decodeBothWays(data, name: "fuzz.png")
  }

  /// JPEG bytes through libjpeg-turbo: full decode, then the DCT-scaled preview path.
  static let jpeg = FuzzTarget(name: "jpeg", summary: "JPEG file bytes") { data in
    decodeBothWays(data, name: "fuzz.jpg")
  }

  /// WebP bytes through libwebp (still, lossless, alpha, animated; ICCP, EXIF and XMP chunks).
  static let webp = FuzzTarget(name: "webp", summary: "WebP file bytes") { data in
    decodeBothWays(data, name: "fuzz.webp")
  }

  /// GIF bytes through giflib (extensions, palettes, the first frame).
  static let gif = FuzzTarget(name: "gif", summary: "GIF file bytes") { data in
    decodeBothWays(data, name: "fuzz.gif")
  }

  /// A TIFF structure as found in a JPEG's APP1 `Exif` segment.
  static let exif = FuzzTarget(name: "exif", summary: "EXIF (TIFF) payload") { data in
    let orientation = Exif.orientation(tiff: data)
    precondition((1...8).contains(orientation), "orientation \(orientation) out of range")
  }

  private static func decodeBothWays(_ data: Data, name: String) {
    if let decoded = try? ImageCodec.decode(data, name: name, limits: limits) {
      let image = decoded.image
      precondition(image.pixels.count == image.width * image.height * 4, "pixel count")
      precondition((1...8).contains(decoded.orientation), "orientation")
    }
    if let proxy = try? ImageCodec.decodeProxy(data, name: name, maxDimension: 48, limits: limits) {
      precondition(proxy.pixels.count == proxy.width * proxy.height * 4, "proxy pixel count")
    }
  }
}
