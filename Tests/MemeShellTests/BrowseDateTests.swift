import Foundation
import Testing

@testable import MemeShell

/// `browse --tsv` writes dates by hand (for speed); they must read exactly like
/// ISO8601DateFormatter's internet date-time.
@Suite struct BrowseDateTests {
  @Test(arguments: [
    0.0, -1, -86_400, -86_401, 951_782_400, 951_868_799, 1_790_000_000, 1_790_000_000.9,
    4_102_444_800, 253_402_300_799, -2_208_988_800,
  ])
  func matchesFoundationsFormatter(seconds: Double) {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    let date = Date(timeIntervalSince1970: seconds)
    #expect(Shell.internetDate(date) == formatter.string(from: date))
  }

  /// The table's local dates read exactly like DateFormatter's `yyyy-MM-dd HH:mm`.
  @Test(arguments: [
    0.0, -1, -86_401, 951_782_400, 951_868_799, 1_790_000_000.9, 1_711_846_800, 1_729_990_800,
    4_102_444_800, -2_208_988_800,
  ])
  func tableDatesMatchFoundationsFormatter(seconds: Double) {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.dateFormat = "yyyy-MM-dd HH:mm"
    let date = Date(timeIntervalSince1970: seconds)
    #expect(Shell.tableDate(date) == formatter.string(from: date))
  }
}
