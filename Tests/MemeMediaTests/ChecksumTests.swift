import Foundation
import Testing

@testable import MemeMedia

/// SHA-256 names a picture in the draft and the store: it must be the standard digest.
@Suite struct ChecksumTests {
  @Test(arguments: [
    ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
    ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
  ])
  func knownDigests(_ text: String, _ digest: String) {
    #expect(Checksum.sha256(Data(text.utf8)) == digest)
  }
}
