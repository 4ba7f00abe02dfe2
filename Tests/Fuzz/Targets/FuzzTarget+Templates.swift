import Foundation
import MemeCore
import MemeStore

extension FuzzTarget {
  /// The template targets, in the order `make fuzz` runs them.
  static let templateTargets = [memegenConfig, templateRecord]

  /// A memegen `config.yml`, parsed and turned into boxes the way `template import` does.
  static let memegenConfig = FuzzTarget(
    name: "memegen-config", summary: "a memegen template's config.yml"
  ) { data in
    do {
      let config = try MemegenConfig.parse(data, path: "config.yml")
      _ = try config.textBoxes(pictureSize: PixelSize(width: 640, height: 480), path: "config.yml")
    } catch let error as StoreError {
      precondition(!error.message.contains("\n"), "two-line error")
    } catch {
      preconditionFailure("not a StoreError: \(error)")
    }
  }

  /// A template's `template.plist`, read the way `templates` lists it.
  static let templateRecord = FuzzTarget(
    name: "template-record", summary: "a stored template's template.plist"
  ) { data in
    let home = Scratch.fresh("templates")
    let folder = home.appendingPathComponent("templates/drake")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try? Data(Scratch.pngMagic).write(to: folder.appendingPathComponent("picture.png"))
    try? data.write(to: folder.appendingPathComponent("template.plist"))
    let store = TemplateStore.open(home: home)
    let (templates, problems) = store.list()
    for problem in problems { precondition(!problem.contains("\n"), "two-line problem") }
    for template in templates { _ = try? store.data(of: template.pictureFile, in: template) }
  }
}
