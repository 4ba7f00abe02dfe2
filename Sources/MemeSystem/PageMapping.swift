#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Fresh anonymous read-write memory of its own, page-aligned, for large buffers written once (a
/// file's bytes, caption glyphs): `munmap(start, length)` gives it back whole, and pages never
/// written cost nothing. It is left in small pages on purpose: a transparent huge page is zeroed
/// whole on first touch, which on a machine that hands freed memory back to its host means
/// faulting 2 MB back in for every huge page, where small pages fault in only what is written
/// (the README's speed section has the measurement).
public struct PageMapping {
  public let start: UnsafeMutableRawPointer
  /// What is mapped: the length asked for, rounded up to whole pages.
  public let length: Int

  /// At least `length` bytes, or nil when they cannot be mapped. `populated`: every page is
  /// made present in the one call (`MAP_POPULATE`), for memory about to be written whole: that
  /// costs about three quarters of taking a page fault on each page's first write.
  public init?(length wanted: Int, populated: Bool = false) {
    let page = max(1, Int(sysconf(Int32(_SC_PAGESIZE))))
    guard wanted > 0, wanted <= Int.max - page else { return nil }
    let length = (wanted + page - 1) / page * page
    guard
      let mapped = mmap(
        nil, length, PROT_READ | PROT_WRITE,
        MAP_PRIVATE | MAP_ANONYMOUS | (populated ? MAP_POPULATE : 0), -1, 0),
      mapped != MAP_FAILED
    else { return nil }
    start = mapped
    self.length = length
  }
}
