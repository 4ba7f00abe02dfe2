import Foundation
import MemeCore

/// A template's `template.plist` (XML): the `Template` without what is found on reading, with a
/// schema version. Every value read back is checked as one from a file must be: a number out of
/// range, a file name that leaves the folder, a newer version is damage, reported, never
/// repaired by overwriting.
struct TemplateRecord: Equatable {
  /// The schema this memesh writes; a newer one is refused.
  static let currentVersion = 1
  /// The largest `template.plist` read (64 boxes of 10,000 characters fit many times).
  static let maximumBytes = 4 << 20

  var template: Template

  /// Encodes `template` as XML.
  static func encode(_ template: Template) throws -> Data {
    let encoder = PropertyListEncoder()
    encoder.outputFormat = .xml
    return try encoder.encode(TemplateRecord(template: template))
  }

  /// Decodes and checks the record of the template in folder `folderName`; the error is a few
  /// words saying what is wrong.
  static func decode(_ data: Data, folderName: String) throws(IndexDamage) -> Template {
    guard !data.isEmpty else { throw IndexDamage("the file is empty") }
    guard StoreIndex.nestingDepth(of: data) <= StoreIndex.maximumNesting else {
      throw IndexDamage("nested more than \(StoreIndex.maximumNesting) levels deep")
    }
    if let bad = StoreIndex.malformedNumber(in: data) {
      throw IndexDamage("a <\(bad)> holds something that is not a number")
    }
    let record: TemplateRecord
    do {
      record = try PropertyListDecoder().decode(TemplateRecord.self, from: data)
    } catch let damage as IndexDamage {
      throw damage
    } catch let error as DecodingError {
      throw IndexDamage(StoreIndex.describe(error))
    } catch {
      throw IndexDamage("not a valid plist (truncated or malformed)")
    }
    let template = record.template
    guard template.name == folderName else {
      throw IndexDamage("it names the template '\(template.name)', not '\(folderName)'")
    }
    return template
  }
}

extension TemplateRecord: Codable {
  enum CodingKeys: String, CodingKey {
    case version, name, title, recipe, pictureFile, format, width, height, styles, thumbnailFile
    case origin, created
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let version = try container.decode(Int.self, forKey: .version)
    guard version <= Self.currentVersion else {
      throw IndexDamage(
        "written by a newer memesh (template version \(version); this one reads up to "
          + "\(Self.currentVersion))")
    }
    guard version >= 1 else { throw IndexDamage("version \(version) is not one memesh writes") }
    let name = try container.decode(String.self, forKey: .name)
    if let problem = TemplateName.problem(name) { throw IndexDamage(problem) }
    let title = try container.decode(String.self, forKey: .title)
    // MemeRecipe checks its font, crop and boxes as read from a file.
    let recipe = try container.decode(MemeRecipe.self, forKey: .recipe)
    let pictureFile = try container.decode(String.self, forKey: .pictureFile)
    let format = try container.decode(ImageFormat.self, forKey: .format)
    let width = try container.decode(Int.self, forKey: .width)
    let height = try container.decode(Int.self, forKey: .height)
    let sides = 1...StoreIndex.maximumSide
    guard sides.contains(width), sides.contains(height) else {
      throw IndexDamage("an impossible size \(width)×\(height)")
    }
    let styles = try container.decodeIfPresent([TemplateStyle].self, forKey: .styles) ?? []
    guard styles.count <= MemegenConfig.maximumEntries,
      styles.allSatisfy({ TemplateName.isValidStyle($0.name) })
    else { throw IndexDamage("a style that memesh would not write") }
    let thumbnailFile = try container.decodeIfPresent(String.self, forKey: .thumbnailFile)
    for file in [pictureFile] + styles.map(\.file) + [thumbnailFile].compactMap({ $0 }) {
      guard TemplateStore.isOwnFileName(file) else {
        throw IndexDamage("the file name '\(file.prefix(40))' is not one memesh writes")
      }
    }
    let origin = try container.decode(String.self, forKey: .origin)
    for text in [title, origin] where text.utf8.count > StoreIndex.maximumTextBytes {
      throw IndexDamage("a text longer than memesh writes")
    }
    let created = try container.decode(Date.self, forKey: .created)
    try StoreIndex.checkDate(created, "its creation date")
    template = Template(
      name: name, title: title, recipe: recipe, pictureFile: pictureFile, format: format,
      width: width, height: height, styles: styles, thumbnailFile: thumbnailFile, origin: origin,
      created: created)
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(Self.currentVersion, forKey: .version)
    try container.encode(template.name, forKey: .name)
    try container.encode(template.title, forKey: .title)
    try container.encode(template.recipe, forKey: .recipe)
    try container.encode(template.pictureFile, forKey: .pictureFile)
    try container.encode(template.format, forKey: .format)
    try container.encode(template.width, forKey: .width)
    try container.encode(template.height, forKey: .height)
    if !template.styles.isEmpty { try container.encode(template.styles, forKey: .styles) }
    try container.encodeIfPresent(template.thumbnailFile, forKey: .thumbnailFile)
    try container.encode(template.origin, forKey: .origin)
    try container.encode(template.created, forKey: .created)
  }
}
