// Without the fuzzer: `memesh-fuzz NAME PATH…` feeds files (or every file in folders) to one
// target, to reproduce a crash by hand; `memesh-fuzz --list` names the targets.
#if !MEMESH_FUZZING
  import Foundation
  import MemeFuzzTargets

  @main
  struct FuzzReplay {
    static func main() {
      let arguments = Array(CommandLine.arguments.dropFirst())
      if arguments.first == "--list" || arguments.isEmpty {
        for target in FuzzTarget.all { print("\(target.name)\t\(target.summary)") }
        return
      }
      guard let target = FuzzTarget.named(arguments[0]) else {
        FileHandle.standardError.write(Data("error: no fuzz target '\(arguments[0])'\n".utf8))
        exit(2)
      }
      var count = 0
      for path in arguments.dropFirst() {
        for file in files(at: path) {
          guard let data = FileManager.default.contents(atPath: file) else {
            FileHandle.standardError.write(Data("error: cannot read '\(file)'\n".utf8))
            exit(1)
          }
          target.run(data)
          count += 1
        }
      }
      print("\(target.name): \(count) input(s) ran without a crash")
    }

    /// `path` itself, or the regular files in it when it is a folder, sorted.
    static func files(at path: String) -> [String] {
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue
      else { return [path] }
      let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
      return names.sorted().map { path + "/" + $0 }
    }
  }
#endif
