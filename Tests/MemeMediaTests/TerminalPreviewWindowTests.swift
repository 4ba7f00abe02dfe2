import MemeCore
import Testing

@testable import MemeMedia

@Suite struct TerminalPreviewWindowTests {
  @Test func withoutATerminalTheSizeComesFromColumnsAndLines() {
    let window = TerminalWindow.current(
      fileDescriptor: -1, environment: ["COLUMNS": "120", "LINES": "40"])
    #expect(window == TerminalWindow(cells: TerminalPreview.CellSize(columns: 120, rows: 40)))
  }

  @Test(arguments: [[:], ["COLUMNS": "0", "LINES": "40"], ["COLUMNS": "wide", "LINES": "40"]])
  func withoutATerminalOrASizeThereIsNoWindow(environment: [String: String]) {
    #expect(TerminalWindow.current(fileDescriptor: -1, environment: environment) == nil)
  }

  @Test func aClosedDescriptorIsNotATerminal() {
    #expect(!TerminalWindow.isTerminal(fileDescriptor: -1))
  }
}
