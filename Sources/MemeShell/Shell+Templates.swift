import Foundation
import MemeCore
import MemeMedia
import MemeStore

extension Shell {
  /// The templates under the home (`<home>/templates`); nothing is created until the first
  /// change, and the store keeps no state of its own, so each use opens it anew.
  var templateStore: TemplateStore { TemplateStore.open(home: home) }

  /// The words `template` takes before a template's name.
  static let templateSubcommands = ["save", "import", "rm"]

  /// `template save NAME | import DIR [NAME] | rm NAME | NAME [STYLE]`.
  func template(_ arguments: Arguments) throws {
    let words = arguments.words
    guard let first = words.first else {
      throw arguments.usageError("needs a template's NAME, or save, import or rm")
    }
    switch first {
    case "import":
      guard words.count >= 2 else { throw arguments.usageError("import needs a folder") }
      guard words.count <= 3 else { throw arguments.unexpected(at: 3) }
      try importTemplate(folder: words[1], name: words.count == 3 ? words[2] : nil)
    case "rm":
      guard words.count == 2 else {
        throw words.count < 2
          ? arguments.usageError("rm needs a NAME") : arguments.unexpected(at: 2)
      }
      try removeTemplate(named: words[1])
    case "save":
      guard words.count == 2 else {
        throw words.count < 2
          ? arguments.usageError("save needs a NAME") : arguments.unexpected(at: 2)
      }
      try saveTemplate(named: words[1])
    default:
      guard words.count <= 2 else { throw arguments.unexpected(at: 2) }
      try startFromTemplate(named: first, style: words.count == 2 ? words[1] : nil)
    }
  }

  /// The template `name`, or an error naming the templates there are.
  func existingTemplate(_ name: String, command: String) throws -> Template {
    let store = templateStore
    if TemplateName.problem(name) == nil, store.names().contains(name) {
      do {
        return try store.template(named: name)
      } catch {
        throw ShellError.templateStore(command: command, error)
      }
    }
    let names = store.names()
    throw ShellError.noTemplate(
      command: command, name: name, suggestion: Suggestions.nearest(to: name, among: names),
      hasTemplates: !names.isEmpty)
  }

  // MARK: - Import

  /// `template import DIR [NAME]`: a memegen template folder, read and checked whole (its
  /// pictures decoded) before anything is written; the template appears complete or not at all.
  func importTemplate(folder path: String, name given: String?) throws {
    let expanded = OutputFile.expanded(path)
    guard let name = given ?? MemegenFolder.templateName(forFolder: expanded) else {
      throw ShellError.templateNeedsName(folder: path)
    }
    if let problem = TemplateName.problem(name) {
      throw ShellError.badTemplateName(command: "template import", problem: problem)
    }
    let store = templateStore
    guard !store.names().contains(name) else {
      throw ShellError.templateExists(command: "template import", name: name)
    }
    let folder = try MemegenFolder.read(expanded)
    try checkInterrupt("template import", "nothing was imported")
    let picture = try decodeTemplatePicture(folder.picture)
    var styles: [TemplateStyle] = []
    var styleData: [Data] = []
    for (styleName, file) in folder.styles {
      let decoded = try decodeTemplatePicture(file)
      styles.append(TemplateStyle(name: styleName, file: file.file, format: decoded.format))
      styleData.append(file.data)
    }
    let size = picture.image.size
    let (boxes, notes) = try folder.config.textBoxes(pictureSize: size, path: folder.configPath)
    try checkInterrupt("template import", "nothing was imported")
    let template = Template(
      name: name, title: folder.config.name ?? name, recipe: MemeRecipe(boxes: boxes),
      pictureFile: "", format: picture.format, width: size.width, height: size.height,
      styles: styles,
      origin: expanded, created: Date())
    let source = MemeRenderer.sourcePicture(
      path: folder.picture.path, bytes: folder.picture.data, decoded: picture)
    try store.add(
      template, picture: folder.picture.data, styles: styleData,
      thumbnail: templateThumbnail(template.recipe, picture: source))
    for note in notes { console.note("template '\(name)': \(note)") }
    let styleList = styles.isEmpty ? "" : "; styles: " + styles.map(\.name).joined(separator: ", ")
    console.line(
      "imported template '\(name)' (\(Display.cell(template.title, limit: 40))): "
        + "\(Self.boxCount(boxes.count)) on a \(size.width)×\(size.height) "
        + "\(picture.format.name)\(styleList)")
  }

  /// A picture of a template folder decoded, to check it is one memesh reads.
  private func decodeTemplatePicture(_ picture: MemegenFolder.Picture) throws -> DecodedImage {
    do {
      return try ImageCodec.decode(picture.data, name: picture.path)
    } catch MediaError.cannotLoad(_, let problem) {
      throw StoreError.badTemplate(path: picture.path, problem: problem.reason)
    } catch let error as any UserFacingError {
      throw StoreError.badTemplate(path: picture.path, problem: error.message)
    }
  }

  /// The PNG thumbnail `templates` shows in a graphics terminal: the picture with the boxes'
  /// example texts drawn (as memegen shows its examples), from the preview proxy; the bare
  /// picture when the texts cannot be drawn; nil when not even that can be encoded.
  func templateThumbnail(_ recipe: MemeRecipe, picture: SourcePicture) -> Data? {
    let state = EditorState(picture: picture, recipe: recipe)
    guard
      let image = (try? MemeRendering.preview(state, picture: picture, catalog: catalog).image)
        ?? (try? picture.proxy)
    else { return nil }
    let small = MemeRenderer.reduced(image, toFit: MemeRenderer.thumbnailDimension)
    return try? ImageCodec.encode(small, as: .png)
  }

  static func boxCount(_ count: Int) -> String {
    count == 1 ? "1 box" : "\(count) boxes"
  }

  // MARK: - Save and use

  /// `template save NAME`: the editor's picture (as loaded), crop, font and boxes, the boxes'
  /// texts kept as examples.
  func saveTemplate(named name: String) throws {
    let picture = try requirePicture(for: "template save")
    if let problem = TemplateName.problem(name) {
      throw ShellError.badTemplateName(command: "template save", problem: problem)
    }
    let store = templateStore
    guard !store.names().contains(name) else {
      throw ShellError.templateExists(command: "template save", name: name)
    }
    let size = try picture.size
    let boxes = state.recipe.boxes
    let template = Template(
      name: name, title: name, recipe: state.recipe, pictureFile: "", format: picture.format,
      width: size.width, height: size.height, origin: picture.path, created: Date())
    try store.add(
      template, picture: try picture.originalBytes,
      thumbnail: templateThumbnail(state.recipe, picture: picture))
    console.line(
      "saved template '\(name)': \(Self.boxCount(boxes.count)) on a \(size.width)×\(size.height) "
        + "\(picture.format.name); 'template \(name)' starts a meme from it")
  }

  /// `template NAME [STYLE]`: a new draft on the template's picture (or a style's) with its
  /// boxes, their example texts in them; one undo step.
  func startFromTemplate(named name: String, style: String?) throws {
    let template = try existingTemplate(name, command: "template")
    if let problem = template.problem {
      throw ShellError.templateStore(
        command: "template",
        .damagedTemplate(path: templateStore.directory.path + "/" + name, reason: problem))
    }
    var file = template.pictureFile
    var format = template.format
    if let style {
      guard let found = template.styles.first(where: { $0.name == style }) else {
        throw ShellError.noTemplateStyle(
          name: name, style: style, styles: template.styles.map(\.name))
      }
      file = found.file
      format = found.format
    }
    let data = try templateStore.data(of: file, in: template)
    let displayName = "\(name)\(style.map { "-" + $0 } ?? "").\(format.fileExtension)"
    let decoded = try ImageCodec.decode(data, name: displayName)
    let picture = MemeRenderer.sourcePicture(path: displayName, bytes: data, decoded: decoded)
    try checkInterrupt("template", "the editor is unchanged")
    apply(.edit(id: nil, picture: picture, recipe: template.recipe), label: "template \(name)")
    console.line(
      "new meme from template '\(name)' (\(Display.cell(template.title, limit: 40))): "
        + "\(Self.boxCount(template.recipe.boxes.count)) holding its example texts")
  }

  // MARK: - Remove

  /// `template rm NAME`: into the templates' trash; `undo` brings it back, in its place among
  /// the other changes (also after a restart). A template that cannot be read goes there too,
  /// as it is, with a warning saying what is wrong with it.
  func removeTemplate(named name: String) throws {
    let store = templateStore
    guard TemplateName.problem(name) == nil, store.names().contains(name) else {
      _ = try existingTemplate(name, command: "template rm")
      return
    }
    let removal: TemplateStore.Removal
    do {
      removal = try store.remove(named: name)
    } catch StoreError.noTemplate {
      _ = try existingTemplate(name, command: "template rm")
      return
    } catch {
      throw ShellError.templateStore(command: "template rm", error)
    }
    if let damage = removal.damage { console.warning(damage) }
    console.line("removed template '\(name)' ('undo' brings it back)")
  }

  /// `undo` when the last thing done was a `template rm`: brings the template back.
  func undoTemplateRemoval() throws {
    let restored: TemplateStore.Removal?
    do {
      restored = try templateStore.undoRemove()
    } catch StoreError.templateExists(let name) {
      throw ShellError.templateExists(command: "undo", name: name)
    }
    guard let removal = restored else {
      throw ShellError.nothingToUndo(inSentMemes: view != .editor)
    }
    console.line("restored template '\(removal.name)'")
    if let damage = removal.damage { console.warning(damage) }
  }

  // MARK: - List

  /// `templates [table|grid]`: every template with its boxes and size; thumbnails in a graphics
  /// terminal (`grid`, the default there).
  func listTemplates(_ arguments: Arguments) throws {
    let store = templateStore
    let (templates, problems) = store.list()
    for problem in problems { console.warning(problem) }
    guard !templates.isEmpty else {
      console.line(
        "no templates yet: 'template save NAME' keeps the editor's picture and boxes, "
          + "'template import DIR' reads a memegen template folder")
      return
    }
    let choice = arguments.words.first
    if let choice, choice != "table", choice != "grid" {
      throw ShellError.unknownChoice(
        command: "templates", kind: "layout", word: choice,
        suggestion: Suggestions.nearest(to: choice, among: ["table", "grid"]),
        choices: "table or grid")
    }
    if choice != "table", settings.previewMode != .none, drawingWindow != nil {
      drawGrid(
        templates.map { template in
          GridEntry(
            label: template.name,
            load: {
              guard template.problem == nil, let file = template.thumbnailFile,
                let data = try? store.data(of: file, in: template)
              else { return nil }
              return try? ImageCodec.decode(data, name: file).image
            },
            unreadable: {
              "template '\(template.name)': \(template.problem ?? "its thumbnail cannot be read")"
            })
        })
      return
    }
    if choice == "grid" { console.note("\(noPicturesReason); showing the table") }
    let rows = templates.map { template in
      [
        template.name, Display.cell(template.title, limit: 30), String(template.recipe.boxes.count),
        "\(template.width)×\(template.height)",
        template.styles.map(\.name).joined(separator: ", ")
          + (template.problem.map { "  (damaged: \($0))" } ?? ""),
      ]
    }
    for line in Self.table(header: ["NAME", "TITLE", "BOXES", "SIZE", "STYLES"], rows: rows) {
      console.line(line)
    }
  }

  /// Rows of cells padded to the widest cell of each column, two spaces apart; the last column
  /// is not padded, so no line ends in spaces.
  static func table(header: [String], rows: [[String]]) -> [String] {
    var widths = header.map(Display.columns)
    for row in rows {
      for (index, cell) in row.enumerated() where index < widths.count {
        widths[index] = max(widths[index], Display.columns(cell))
      }
    }
    return ([header] + rows).map { row in
      row.enumerated().map { index, cell in
        index == row.count - 1 ? cell : Display.padded(cell, toColumns: widths[index])
      }.joined(separator: "  ").replacingOccurrences(
        of: "\\s+$", with: "", options: .regularExpression)
    }
  }
}
