import Foundation
import MemeSystem
import MemeCore

/// How closely a meme's files are checked when it is read.
enum FileCheck {
  /// The names only: relative, inside the meme's own directory.
  case paths
  /// And the files exist as regular, non-empty files (one `lstat` each).
  case existence
  /// And their first bytes are PNG or JPEG.
  case contents
}

extension MemeStore {
  /// `meme` with `problem` set when its files are unusable.
  func withProblem(_ meme: Meme, checking level: FileCheck) -> Meme {
    var meme = meme
    meme.problem = problem(of: meme, checking: level)
    return meme
  }

  /// One line saying why the files of `meme` that a command needs cannot be used, or nil:
  /// `export` needs the meme file, `edit` the original, and a missing thumbnail stops neither.
  /// A file name outside the meme's folder refuses them all.
  public func problem(of meme: Meme, needing files: [KeyPath<Meme, String>]) -> String? {
    problem(of: meme, checking: .contents, files: files.map { meme[keyPath: $0] })
  }

  /// One line saying what is wrong with a meme's files (`files`, or all three), or nil.
  func problem(of meme: Meme, checking level: FileCheck, files: [String]? = nil) -> String? {
    let names = [meme.originalFile, meme.memeFile, meme.thumbnailFile]
    for name in names where !Self.isSafe(name, id: meme.id) {
      return "refused: its file '\(name)' is outside its folder '\(meme.id)/'"
    }
    if level == .paths { return nil }
    let folder = livePath(meme.id)
    switch FileKind(path: folder) {
    case .directory: break
    case .missing: return "its folder '\(folder)' is missing"
    case .symlink: return "refused: its folder '\(folder)' is a symlink"
    case .file, .other: return "its folder '\(folder)' is not a directory"
    }
    for name in files ?? names {
      let path = directory.path + "/" + name
      switch FileKind(path: path) {
      case .file(let size) where size > 0: break
      case .file: return "its file '\(path)' is empty"
      case .missing: return "its file '\(path)' is missing"
      case .symlink: return "refused: its file '\(path)' is a symlink"
      case .directory, .other: return "its file '\(path)' is not a regular file"
      }
      if level == .contents, Self.sniffFormat(atPath: path) == nil {
        return "its file '\(path)' is corrupt (not a picture memesh reads)"
      }
    }
    return nil
  }

  /// True for `<id>/<name>`: no absolute path, no `..`, no deeper folders. (Byte-wise: it runs
  /// three times per meme on every listing.)
  static func isSafe(_ name: String, id: Int) -> Bool {
    var bytes = name.utf8[...]
    var value = 0
    var digits = 0
    while let byte = bytes.first, byte >= 48, byte <= 57 {
      guard digits < 18, !(digits == 0 && byte == 48) else { return false }
      value = value * 10 + Int(byte - 48)
      digits += 1
      bytes = bytes.dropFirst()
    }
    guard digits > 0, value == id, bytes.first == UInt8(ascii: "/") else { return false }
    let file = bytes.dropFirst()
    guard !file.isEmpty, !file.contains(UInt8(ascii: "/")), !file.contains(0) else { return false }
    return !file.elementsEqual(".".utf8) && !file.elementsEqual("..".utf8)
  }

  /// The format of the first bytes of a file, or nil when it is no picture memesh reads.
  static func sniffFormat(atPath path: String) -> ImageFormat? {
    guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
    defer { try? handle.close() }
    let head = (try? handle.read(upToCount: 12)) ?? Data()
    return sniffFormat(head)
  }

  /// PNG starts `\x89PNG`, JPEG `\xFF\xD8`, GIF `GIF87a` or `GIF89a`, WebP `RIFF····WEBP`,
  /// HEIC and AVIF `····ftyp` and a HEIF brand.
  static func sniffFormat(_ bytes: Data) -> ImageFormat? {
    let head = Array(bytes.prefix(12))
    if head.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return .png }
    if head.count >= 2, head[0] == 0xFF, head[1] == 0xD8 { return .jpeg }
    if head.starts(with: Array("GIF87a".utf8)) || head.starts(with: Array("GIF89a".utf8)) {
      return .gif
    }
    if head.count == 12, head.starts(with: Array("RIFF".utf8)),
      head[8...].elementsEqual("WEBP".utf8)
    {
      return .webp
    }
    // HEIC and AVIF: an ISOBMFF `ftyp` box whose major brand is a HEIF one.
    if head.count == 12, head[4..<8].elementsEqual("ftyp".utf8) {
      return ImageFormat(heifBrand: String(decoding: head[8..<12], as: UTF8.self))
    }
    return nil
  }
}
