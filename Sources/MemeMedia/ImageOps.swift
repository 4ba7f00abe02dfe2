import MemeCore

/// Cropping, scaling and orienting RGBA images.
public enum ImageOps {
  /// The pixels inside `rect`; the part of `rect` outside the image is dropped (an empty
  /// intersection gives a 0×0 image) rather than trapping.
  public static func crop(_ image: RGBAImage, to rect: PixelRect) -> RGBAImage {
    // Saturating: a rectangle near Int.max is clamped, never an overflow trap.
    func end(_ start: Int, _ length: Int) -> Int {
      let (sum, overflow) = start.addingReportingOverflow(max(0, length))
      return overflow ? Int.max : sum
    }
    let left = min(max(0, rect.x), image.width)
    let top = min(max(0, rect.y), image.height)
    let right = max(left, min(image.width, end(rect.x, rect.width)))
    let bottom = max(top, min(image.height, end(rect.y, rect.height)))
    let width = right - left
    let height = bottom - top
    if width == image.width, height == image.height { return image }
    let rowBytes = width * 4
    let pixels = [UInt8](unsafeUninitializedCapacity: rowBytes * height) { target, initialized in
      image.pixels.withUnsafeBufferPointer { source in
        guard let from = source.baseAddress, let into = target.baseAddress else { return }
        for row in 0..<height {
          (into + row * rowBytes).initialize(
            from: from + ((top + row) * image.width + left) * 4, count: rowBytes)
        }
      }
      initialized = rowBytes * height
    }
    return RGBAImage(width: width, height: height, pixels: pixels)
  }

  /// Applies a `Crop` (rectangle or centered aspect ratio), or says why it does not fit.
  public static func crop(_ image: RGBAImage, _ crop: Crop) throws(CropError) -> RGBAImage {
    ImageOps.crop(image, to: try crop.resolved(in: image.size))
  }

  /// The size `scaled(_:toFit:_:)` produces: the aspect ratio kept, never larger than the image.
  public static func fittedSize(of size: PixelSize, toFit maxWidth: Int, _ maxHeight: Int)
    -> PixelSize
  {
    guard size.width > 0, size.height > 0 else { return size }
    let scale = min(
      1, Double(max(1, maxWidth)) / Double(size.width),
      Double(max(1, maxHeight)) / Double(size.height))
    return PixelSize(
      width: min(size.width, max(1, Int((Double(size.width) * scale).rounded()))),
      height: min(size.height, max(1, Int((Double(size.height) * scale).rounded()))))
  }

  /// A good-looking downscale (area average) to fit inside `maxWidth`×`maxHeight`, keeping the
  /// aspect ratio; never upscales.
  public static func scaled(_ image: RGBAImage, toFit maxWidth: Int, _ maxHeight: Int) -> RGBAImage
  {
    let target = fittedSize(of: image.size, toFit: maxWidth, maxHeight)
    guard target != image.size else { return image }
    return areaAverage(image, to: target)
  }

  /// `image` stretched or shrunk to exactly `size` (area average, each axis on its own). When
  /// `size` divides a whole number of source pixels into each of its blocks, every block of the
  /// result comes from its own source pixels alone: a part cropped at block edges scales to the
  /// same pixels as the whole.
  public static func resized(_ image: RGBAImage, to size: PixelSize) -> RGBAImage {
    guard size != image.size, size.width > 0, size.height > 0, image.width > 0, image.height > 0
    else { return image }
    return areaAverage(image, to: size)
  }

  // MARK: - Area average

  /// For each target column (or row), the source columns it covers and how much of each.
  private static func spans(source: Int, target: Int) -> (starts: [Int], weights: [[Float]]) {
    let ratio = Double(source) / Double(target)
    var starts: [Int] = []
    var weights: [[Float]] = []
    starts.reserveCapacity(target)
    weights.reserveCapacity(target)
    for index in 0..<target {
      let begin = Double(index) * ratio
      let end = min(Double(source), Double(index + 1) * ratio)
      let first = Int(begin)
      let last = min(source - 1, Int(end.rounded(.up)) - 1)
      var row: [Float] = []
      for column in first...max(first, last) {
        let overlap = min(end, Double(column + 1)) - max(begin, Double(column))
        row.append(Float(max(0, overlap) / ratio))
      }
      starts.append(first)
      weights.append(row)
    }
    return (starts, weights)
  }

  /// Box filter with exact fractional coverage, alpha-weighted so transparent pixels do not
  /// darken their neighbours. Separable: each source row is reduced horizontally once, then
  /// added into the one or two target rows it covers.
  private static func areaAverage(_ image: RGBAImage, to target: PixelSize) -> RGBAImage {
    let columns = spans(source: image.width, target: target.width)
    let rows = spans(source: image.height, target: target.height)
    // Target rows each source row contributes to, with weights.
    var contributions = [[(row: Int, weight: Float)]](repeating: [], count: image.height)
    for (targetRow, start) in rows.starts.enumerated() {
      for (offset, weight) in rows.weights[targetRow].enumerated() where weight > 0 {
        contributions[start + offset].append((targetRow, weight))
      }
    }
    let targetWidth = target.width
    var horizontal = [Float](repeating: 0, count: targetWidth * 4)
    var accumulator = [Float](repeating: 0, count: targetWidth * 4 * target.height)
    image.pixels.withUnsafeBufferPointer { source in
      horizontal.withUnsafeMutableBufferPointer { line in
        accumulator.withUnsafeMutableBufferPointer { sums in
          for sourceRow in 0..<image.height where !contributions[sourceRow].isEmpty {
            let rowStart = sourceRow * image.width * 4
            for column in 0..<targetWidth {
              var red: Float = 0
              var green: Float = 0
              var blue: Float = 0
              var alpha: Float = 0
              var index = rowStart + columns.starts[column] * 4
              for weight in columns.weights[column] {
                let coverage = weight * Float(source[index + 3])
                red += coverage * Float(source[index])
                green += coverage * Float(source[index + 1])
                blue += coverage * Float(source[index + 2])
                alpha += coverage
                index += 4
              }
              line[column * 4] = red
              line[column * 4 + 1] = green
              line[column * 4 + 2] = blue
              line[column * 4 + 3] = alpha
            }
            for (targetRow, weight) in contributions[sourceRow] {
              let base = targetRow * targetWidth * 4
              for index in 0..<targetWidth * 4 { sums[base + index] += weight * line[index] }
            }
          }
        }
      }
    }
    let count = targetWidth * target.height * 4
    let pixels = [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
      accumulator.withUnsafeBufferPointer { sums in
        for pixel in 0..<(targetWidth * target.height) {
          let index = pixel * 4
          let alpha = sums[index + 3]
          if alpha <= 0 {
            out[index] = 0
            out[index + 1] = 0
            out[index + 2] = 0
            out[index + 3] = 0
            continue
          }
          for channel in 0..<3 {
            out[index + channel] = UInt8(
              min(255, max(0, (sums[index + channel] / alpha).rounded())))
          }
          out[index + 3] = UInt8(min(255, max(0, alpha.rounded())))
        }
      }
      initialized = count
    }
    return RGBAImage(width: target.width, height: target.height, pixels: pixels)
  }

  // MARK: - Orientation

  /// The image as a photo viewer shows it for EXIF `orientation` 1–8 (others leave it as is).
  public static func oriented(_ image: RGBAImage, orientation: Int) -> RGBAImage {
    guard (2...8).contains(orientation) else { return image }
    let (width, height) = (image.width, image.height)
    let swapsSides = orientation >= 5
    let outWidth = swapsSides ? height : width
    let outHeight = swapsSides ? width : height
    let byteCount = width * height * 4
    let pixels = [UInt8](unsafeUninitializedCapacity: byteCount) { buffer, initialized in
      image.pixels.withUnsafeBytes { source in
        guard let target = UnsafeMutableRawPointer(buffer.baseAddress) else { return }
        for row in 0..<outHeight {
          // Where the walk through the source for this output row starts, and its stride.
          let (start, step): (Int, Int)
          switch orientation {
          case 2: (start, step) = (row * width + width - 1, -1)
          case 3: (start, step) = ((height - 1 - row) * width + width - 1, -1)
          case 4: (start, step) = ((height - 1 - row) * width, 1)
          case 5: (start, step) = (row, width)
          case 6: (start, step) = ((height - 1) * width + row, -width)
          case 7: (start, step) = ((height - 1) * width + width - 1 - row, -width)
          default: (start, step) = (width - 1 - row, width)
          }
          var index = start
          let base = row * outWidth
          for column in 0..<outWidth {
            let pixel = source.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self)
            target.storeBytes(of: pixel, toByteOffset: (base + column) * 4, as: UInt32.self)
            index += step
          }
        }
      }
      initialized = byteCount
    }
    return RGBAImage(width: outWidth, height: outHeight, pixels: pixels)
  }
}
