// The libFuzzer entry points, compiled only into the fuzzing build (`scripts/fuzz` passes
// -DMEMESH_FUZZING and -sanitize=fuzzer; libFuzzer then supplies `main`).
#if MEMESH_FUZZING
  import Foundation
  import MemeFuzzTargets

  /// The target chosen by `MEMESH_FUZZ_TARGET`, set once before the first input.
  nonisolated(unsafe) var selectedTarget: FuzzTarget?

  @_cdecl("LLVMFuzzerInitialize")
  public func fuzzerInitialize(
    _ argc: UnsafeMutablePointer<Int32>?,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?
  ) -> Int32 {
    let name = ProcessInfo.processInfo.environment["MEMESH_FUZZ_TARGET"] ?? ""
    guard let target = FuzzTarget.named(name) else {
      let names = FuzzTarget.all.map(\.name).joined(separator: ", ")
      FileHandle.standardError.write(
        Data("error: set MEMESH_FUZZ_TARGET to one of: \(names)\n".utf8))
      exit(2)
    }
    selectedTarget = target
    return 0
  }

  @_cdecl("LLVMFuzzerTestOneInput")
  public func fuzzerTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let data = bytes.map { Data(bytes: $0, count: count) } ?? Data()
    selectedTarget?.run(data)
    return 0
  }
#endif
