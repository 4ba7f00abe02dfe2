import Foundation
import MemeCore
import MemeMedia

extension FuzzTarget {
  /// JPEG bytes through the splicer (`JPEGSplice`): headers, the entropy-coded scan index, the
  /// copied rows and a re-encoded band at the top and in the middle. Whatever it splices must
  /// decode again.
  static let jpegSplice = FuzzTarget(name: "jpeg-splice", summary: "JPEG file bytes, spliced") {
    data in
    guard case .success(let plan) = JPEGSplice.plan(data, crop: .off) else { return }
    let (width, height) = (plan.size.width, plan.size.height)
    let regions = [
      PixelRect(x: 0, y: 0, width: width, height: max(1, height / 5)),
      PixelRect(x: width / 4, y: height / 2, width: max(1, width / 2), height: 1),
    ]
    guard
      case .success(let spliced) = JPEGSplice.splice(
        data, crop: .off, regions: regions, maxPixels: limits.maxPixels)
    else { return }
    precondition(spliced.touchedRows <= spliced.mcuRows, "touched rows")
    if let preview = spliced.preview {
      precondition(preview.width == (width + 7) / 8 && preview.height == (height + 7) / 8, "preview")
    }
    let decoded = try? ImageCodec.decode(spliced.jpeg, name: "spliced.jpg", limits: limits)
    precondition(decoded?.image.size == plan.size, "a spliced JPEG that does not decode")
  }
}
