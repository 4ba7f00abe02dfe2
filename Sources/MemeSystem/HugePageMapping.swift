#if canImport(Glibc)
  import Glibc
#endif

/// Anonymous read-write memory that starts on a 2-MB boundary, with its whole 2-MB stretches
/// advised for transparent huge pages (`MADV_HUGEPAGE`): fresh memory costs a page fault on first
/// write, one per 4 KB otherwise and one per 2 MB in a huge page. Only advice: without
/// transparent huge pages it fills 4-KB pages as any memory does. For large buffers written once
/// (a file's bytes, caption glyphs); `munmap(start, length)` gives it back.
public struct HugePageMapping {
  /// A huge page on x86-64 and arm64 with 4-KB pages.
  public static let hugePage = 2 << 20

  public let start: UnsafeMutableRawPointer
  /// What is mapped: the length asked for, rounded up to whole pages.
  public let length: Int

  /// At least `length` bytes, or nil when they cannot be mapped.
  public init?(length wanted: Int) {
    let page = max(1, Int(sysconf(Int32(_SC_PAGESIZE))))
    guard wanted > 0, wanted <= Int.max / 2 - Self.hugePage else { return nil }
    let length = (wanted + page - 1) / page * page
    // A huge page more than needed, so that the start can move to a 2-MB boundary; the unused
    // ends are unmapped.
    guard
      let mapped = mmap(
        nil, length + Self.hugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
      mapped != MAP_FAILED
    else { return nil }
    let address = UInt(bitPattern: mapped)
    let aligned = (address + UInt(Self.hugePage) - 1) & ~UInt(Self.hugePage - 1)
    let head = Int(aligned - address)
    if head > 0 { _ = munmap(mapped, head) }
    let tail = Self.hugePage - head
    if tail > 0 { _ = munmap(mapped + head + length, tail) }
    start = mapped + head
    self.length = length
    // Only the whole huge pages of what was asked for: the rest takes small pages, no more
    // memory than it needs.
    let whole = wanted / Self.hugePage * Self.hugePage
    if whole > 0 { _ = madvise(start, whole, MADV_HUGEPAGE) }
  }
}
