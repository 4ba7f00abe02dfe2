// memesh-store-torture: drives a MemeStore from a separate process, for the crash-loop and
// two-process tests (MemeStoreTests launch it) and for measuring big stores by hand.
//
//   memesh-store-torture share DIR COUNT TAG   add COUNT fake memes, printing "added ID" after each
//   memesh-store-torture mix DIR COUNT TAG     add, edit, delete and undo, printing each step
//   memesh-store-torture generate DIR COUNT    write an index of COUNT memes (no image files)
//   memesh-store-torture list DIR              print every meme as a TSV line
//   memesh-store-torture get DIR ID            print one meme
import Foundation
import MemeCore
import MemeStore

/// Bytes a test can check against the record: they name the captions they were made for.
enum FakeMeme {
  static let pngMagic: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
  static let jpegMagic: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0]

  static func make(top: String, bottom: String) -> NewMeme {
    let original = Data(
      jpegMagic + Array("original|\(top)".utf8) + [UInt8](repeating: 7, count: 3000))
    let rendered = Data(
      pngMagic + Array("meme|\(top)|\(bottom)".utf8) + [UInt8](repeating: 9, count: 9000))
    let thumbnail = Data(pngMagic + Array("thumb|\(top)|\(bottom)".utf8))
    return NewMeme(
      recipe: MemeRecipe(top: top, bottom: bottom, crop: .aspect(width: 1, height: 1)),
      format: .png,
      width: 600, height: 600, sourceName: "\(top).jpg",
      originalSHA256: String(repeating: "a", count: 64),
      original: original, rendered: rendered, thumbnail: thumbnail)
  }
}

func say(_ line: String) {
  FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func fail(_ line: String) -> Never {
  FileHandle.standardError.write(Data(("error: " + line + "\n").utf8))
  exit(1)
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 2 else {
  fail("usage: memesh-store-torture share|mix|generate|list|get DIR …")
}
let directory = URL(fileURLWithPath: arguments[1])
let count = arguments.count > 2 ? Int(arguments[2]) ?? 0 : 0
let tag = arguments.count > 3 ? arguments[3] : "t"

do {
  switch arguments[0] {
  case "share":
    let store = try MemeStore(directory: directory)
    for number in 0..<count {
      let meme = try store.add(FakeMeme.make(top: "\(tag) \(number)", bottom: "bottom \(number)"))
      say("added \(meme.id)")
    }
  case "mix":
    let store = try MemeStore(directory: directory)
    var generator = SystemRandomNumberGenerator()
    for number in 0..<count {
      let memes = try store.memes()
      switch (number % 4, memes.randomElement(using: &generator)) {
      case (1, let meme?):
        let edited = try store.update(
          id: meme.id, with: FakeMeme.make(top: meme.recipe.top, bottom: "edited \(number)"))
        say("updated \(edited.id)")
      case (2, let meme?):
        try store.delete(id: meme.id)
        say("deleted \(meme.id)")
      case (3, _):
        if let back = try store.undoDelete() { say("restored \(back.id)") }
      default:
        let meme = try store.add(FakeMeme.make(top: "\(tag) \(number)", bottom: "bottom \(number)"))
        say("added \(meme.id)")
      }
    }
  case "generate":
    struct Index: Codable {
      var version: Int
      var nextID: Int
      var memes: [Meme]
      var trash: [Meme]
    }
    let date = Date(timeIntervalSince1970: 1_790_000_000)
    let memes = (1...max(1, count)).map { id in
      Meme(
        id: id, recipe: MemeRecipe(top: "TOP TEXT NUMBER \(id)", bottom: "AND THE BOTTOM \(id)"),
        created: date, modified: date, width: 1200, height: 900, format: .jpeg,
        sourceName: "photo-\(id).jpg", originalSHA256: String(repeating: "b", count: 64),
        originalFile: "\(id)/original.jpg", memeFile: "\(id)/meme.jpg",
        thumbnailFile: "\(id)/thumb.png")
    }
    let encoder = PropertyListEncoder()
    encoder.outputFormat = .xml
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let xml = try encoder.encode(
      Index(version: 2, nextID: memes.count + 1, memes: memes, trash: []))
    try xml.write(to: directory.appendingPathComponent("index.plist"))
  case "list":
    let store = try MemeStore(directory: directory)
    if let notice = store.notice { fail(notice) }
    var out = ""
    for meme in try store.memes() {
      let created = Int(meme.created.timeIntervalSince1970)
      out +=
        "\(meme.id)\t\(meme.recipe.top)\t\(meme.recipe.bottom)\t\(created)\t\(meme.problem ?? "")\n"
    }
    FileHandle.standardOutput.write(Data(out.utf8))
  case "time":
    // In-process medians of a cold open + memes(), and of meme(id:), over COUNT runs.
    var opens: [Double] = []
    var gets: [Double] = []
    for _ in 0..<max(1, count) {
      let start = Date()
      let store = try MemeStore(directory: directory)
      let memes = try store.memes()
      opens.append(Date().timeIntervalSince(start) * 1000)
      let middle = Date()
      _ = try store.meme(id: memes[memes.count / 2].id)
      gets.append(Date().timeIntervalSince(middle) * 1000)
    }
    let median = { (values: [Double]) in values.sorted()[values.count / 2] }
    say("open+memes median \(median(opens)) ms, meme(id:) median \(median(gets)) ms")
  case "get":
    let store = try MemeStore(directory: directory)
    let meme = try store.meme(id: count)
    say("\(meme.id)\t\(meme.recipe.top)\t\(meme.recipe.bottom)\t\(meme.problem ?? "")")
  default:
    fail("unknown mode '\(arguments[0])'")
  }
} catch let error as any UserFacingError {
  fail(error.message)
} catch {
  fail("\(error)")
}
