import Testing

@testable import MemeMedia

/// Where captions may break, as a reader of each script expects (UAX #14 through libunibreak,
/// Thai words through libthai, strict small kana).
@Suite struct CaptionLineBreakTests {
  /// `text` cut at every break opportunity.
  func pieces(_ text: String) -> [String] {
    let characters = Array(text)
    var pieces: [String] = []
    var start = 0
    for offset in LineBreaker.shared.breaks(in: text) + [characters.count] {
      pieces.append(String(characters[start..<offset]))
      start = offset
    }
    return pieces
  }

  @Test func smallKanaAndTheLongVowelMarkNeverStartALine() {
    #expect(pieces("キャプション") == ["キャ", "プ", "ショ", "ン"])
    #expect(pieces("ちょっと") == ["ちょっ", "と"])
    #expect(pieces("カー") == ["カー"])
  }

  @Test func closingPunctuationStaysWithTheTextBeforeIt() {
    #expect(pieces("です。「テスト」") == ["で", "す。", "「テ", "ス", "ト」"])
    #expect(pieces("你好，世界！") == ["你", "好，", "世", "界！"])
  }

  @Test func latinInsideChineseIsOneWord() {
    #expect(pieces("我爱Swift编程") == ["我", "爱", "Swift", "编", "程"])
  }

  @Test func thaiBreaksBetweenWords() {
    // นิดเดียว ("just a little") is one word in libthai's dictionary.
    #expect(pieces("ภาษาไทยง่ายนิดเดียว") == ["ภาษา", "ไทย", "ง่าย", "นิดเดียว"])
    #expect(pieces("สวัสดีครับ") == ["สวัสดี", "ครับ"])
  }

  @Test func spacesAndHyphensBreakAfterThem() {
    #expect(pieces("SELF-AWARE MEME") == ["SELF-", "AWARE ", "MEME"])
    #expect(pieces("عام 2024 سعيد") == ["عام ", "2024 ", "سعيد"])
  }

  @Test func combiningMarksAndEmojiAreNeverSplit() {
    // Offsets count characters, so a flag or a letter with its accent is one piece.
    #expect(pieces("🇯🇵🇯🇵") == ["🇯🇵", "🇯🇵"])
    #expect(LineBreaker.shared.breaks(in: "E\u{0301}") == [])
  }
}
