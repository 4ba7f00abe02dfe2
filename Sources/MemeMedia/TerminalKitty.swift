import Foundation
import MemeCore

/// kitty graphics pictures written by memesh rather than chafa, so they travel compressed.
///
/// chafa sends kitty raw RGBA (f=32): 4 bytes a pixel before base64. A grid of 1,000 thumbnails
/// is 111 MB of escape sequences that way. Here the picture is scaled to the pixels its cells
/// show (never enlarged; kitty scales it to the cells) and sent as PNG (f=100), which the
/// protocol allows for any picture: a thumbnail is a few kilobytes.
public enum TerminalKitty {
  /// Base64 characters per escape sequence: the protocol's limit for one chunk.
  static let chunkSize = 4096

  /// The escape sequences that draw `image` over `cells` cells of `cellPixels` pixels each, or
  /// nil when the picture cannot be encoded.
  static func picture(
    _ image: RGBAImage, cells: TerminalPreview.CellSize, cellPixels: PixelSize
  ) -> String? {
    guard cells.columns > 0, cells.rows > 0 else { return nil }
    let fitted = ImageOps.scaled(
      image, toFit: cells.columns * cellPixels.width, cells.rows * cellPixels.height)
    guard let png = try? ImageCodec.encode(fitted, as: .png) else { return nil }
    return sequences(png: png, cells: cells)
  }

  /// Deletes image `id` and its data (d=I), no reply wanted.
  public static func delete(id: Int) -> String { "\u{1B}_Ga=d,d=I,i=\(id),q=2\u{1B}\\" }

  /// `png` as kitty graphics commands: transmit and display (a=T) a PNG (f=100), stretched over
  /// `cells`, no reply wanted (q=2: a reply would arrive as typed input), in base64 chunks
  /// (m=1 while more follow); under image id `id` when given (the same id replaces a picture),
  /// and over the pictures of lower `layer`s (z).
  static func sequences(
    png: Data, cells: TerminalPreview.CellSize, id: Int? = nil, layer: Int? = nil
  ) -> String {
    let keys = (id.map { "i=\($0)," } ?? "") + (layer.map { "z=\($0)," } ?? "")
    let payload = Array(png.base64EncodedString().utf8)
    var text = ""
    text.reserveCapacity(payload.count + payload.count / chunkSize * 16 + 64)
    var start = 0
    repeat {
      let end = min(start + chunkSize, payload.count)
      let more = end < payload.count ? 1 : 0
      text +=
        start == 0
        ? "\u{1B}_Ga=T,\(keys)f=100,q=2,c=\(cells.columns),r=\(cells.rows),m=\(more);"
        : "\u{1B}_Gm=\(more);"
      text += String(decoding: payload[start..<end], as: UTF8.self)
      text += "\u{1B}\\"
      start = end
    } while start < payload.count
    return text
  }
}
