import CMemeshCodec
import Foundation

/// The recipe as an XMP packet, for formats that carry metadata as XMP (a WebP `XMP ` chunk):
/// one `memesh:recipe` property (`MEMESH_RECIPE_KEYWORD`) holding the same JSON text a PNG's
/// iTXt chunk holds, XML-escaped. Other XMP tools show it as `XMP-memesh:Recipe`.
enum RecipeXMP {
  /// The namespace of the `memesh:` prefix.
  static let namespace = "urn:memesh:1"

  /// The packet holding `recipe` (the recipe's encoded text).
  static func packet(for recipe: String) -> String {
    let keyword = MEMESH_RECIPE_KEYWORD
    return "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\">"
      + "<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">"
      + "<rdf:Description rdf:about=\"\" xmlns:memesh=\"\(namespace)\">"
      + "<\(keyword)>\(escaped(recipe))</\(keyword)>"
      + "</rdf:Description></rdf:RDF></x:xmpmeta>"
  }

  /// The recipe text in an XMP packet memesh wrote, or nil (no such property, or not text).
  static func recipe(in packet: Data) -> String? {
    let keyword = MEMESH_RECIPE_KEYWORD
    guard let text = String(data: packet, encoding: .utf8),
      let open = text.range(of: "<\(keyword)>"),
      let close = text.range(of: "</\(keyword)>", range: open.upperBound..<text.endIndex)
    else { return nil }
    return unescaped(text[open.upperBound..<close.lowerBound])
  }

  private static func escaped(_ text: String) -> String {
    var result = ""
    for character in text {
      switch character {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      default: result.append(character)
      }
    }
    return result
  }

  /// The five named entities; a packet another tool rewrote may use any of them.
  private static func unescaped(_ text: Substring) -> String {
    text.replacingOccurrences(of: "&lt;", with: "<")
      .replacingOccurrences(of: "&gt;", with: ">")
      .replacingOccurrences(of: "&quot;", with: "\"")
      .replacingOccurrences(of: "&apos;", with: "'")
      .replacingOccurrences(of: "&amp;", with: "&")
  }
}
