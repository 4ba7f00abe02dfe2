import Foundation
import MemeCore
import MemeMedia

extension FuzzTarget {
  /// HEIC and AVIF bytes through memesh's box checks (brands, tile count) and libheif with
  /// libde265 and libaom: the whole decode, as `load` does it.
  static let heif = FuzzTarget(name: "heif", summary: "HEIC or AVIF file bytes") { data in
    guard let decoded = try? ImageCodec.decode(data, name: "fuzz.heic", limits: limits) else {
      return
    }
    let image = decoded.image
    precondition(image.pixels.count == image.width * image.height * 4, "pixel count")
    precondition(decoded.orientation == 1, "a HEIF picture is upright when decoded")
  }
}
