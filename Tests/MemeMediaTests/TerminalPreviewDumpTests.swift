import MemeCore
import Testing

@testable import MemeMedia

@Suite struct TerminalPreviewDump {
  @Test func dump() throws {
    let env = ["TERM": "xterm-256color", "COLORTERM": "truecolor"]
    for mode in PreviewMode.allCases {
      let p = TerminalPreview.draw(PreviewFixture.landscape, mode: mode, maxColumns: 40, maxRows: 20, environment: env)
      print("MODE \(mode) -> \(p.mode) \(p.cells) \(p.text.utf8.count) bytes")
      print(String(reflecting: String(p.text.prefix(300))))
    }
    for depth in ColorDepth.allCases {
      let p = TerminalPreview.draw(PreviewFixture.landscape, mode: .symbols, colorDepth: depth, maxColumns: 20, maxRows: 20, environment: env)
      print(p.text)
      print(String(reflecting: String(p.text.prefix(300))))
    }
  }
}
