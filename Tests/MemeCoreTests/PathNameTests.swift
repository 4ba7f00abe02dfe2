import MemeCore
import Testing

@Suite struct PathNameTests {
  @Test(arguments: [
    // (path, folder, last component, extension)
    ("a", "", "a", ""),
    ("-", "", "-", ""),
    ("é", "", "é", ""),
    ("ab.jpg", "", "ab.jpg", "jpg"),
    ("/a", "/", "a", ""),
    ("/", "/", "/", ""),
    ("", "", "", ""),
    ("dir/a", "dir", "a", ""),
    ("dir/a/", "dir", "a", ""),
    ("dir//a.PNG", "dir", "a.PNG", "PNG"),
    ("./b", ".", "b", ""),
    (".jpg", "", ".jpg", ""),
    ("x/.hidden.webp", "x", ".hidden.webp", "webp"),
    ("a.tar.gz", "", "a.tar.gz", "gz"),
    ("dir.d/name", "dir.d", "name", ""),
    ("日本/猫.jpeg", "日本", "猫.jpeg", "jpeg"),
  ])
  func splitsByTheLastSlash(path: String, folder: String, last: String, ext: String) {
    let name = PathName(path)
    #expect(name.folder == folder)
    #expect(name.lastComponent == last)
    #expect(name.pathExtension == ext)
  }

  @Test func aLongNameSplitsLikeAShortOne() {
    let long = String(repeating: "d", count: 4096) + "/" + String(repeating: "n", count: 255) + ".png"
    #expect(PathName(long).folder.count == 4096)
    #expect(PathName(long).pathExtension == "png")
  }
}
