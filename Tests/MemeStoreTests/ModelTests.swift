import Foundation
import MemeCore
import Testing

@testable import MemeStore

/// A small, seeded random source (SplitMix64): the same seed gives the same steps.
struct SeededRandom: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var value = state
    value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
    value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
    return value ^ (value >> 31)
  }
}

/// What must exist after every step: the live memes (id → top caption), the trash (oldest
/// deletion first) and the lowest id the next share may take.
struct StoreModel: Equatable {
  var live: [Int: String] = [:]
  var trash: [Int] = []
  var nextID = 1
  /// The draft each session should find: (top caption) or nil.
  var drafts: [String?] = [nil, nil]
}

/// One step the model test takes.
enum ModelStep: CaseIterable {
  case share, editAndShare, delete, undo, draftSave, cancel, restart, crash, otherSession
}

/// Runs `steps` random steps from `seed` against a store and drafts in `home`, checking the disk
/// against the model after every step; returns the failures (step number and what differed).
/// Shared by the model test and the store-operations fuzz target's invariants.
struct ModelRun {
  let home: URL
  var random: SeededRandom
  var model = StoreModel()
  var sessions: [MemeStore]
  var drafts: [DraftStore]
  var failures: [String] = []
  var counter = 0
  /// The meme the last step changed, if any.
  var touched: Int?
  static let trashLimit = 4

  init(home: URL, seed: UInt64) {
    self.home = home
    self.random = SeededRandom(seed: seed)
    let memes = home.appendingPathComponent("memes")
    sessions = [0, 1].map { _ in
      MemeStore(directory: memes, fileSystem: POSIXFileSystem(), trashLimit: Self.trashLimit)
    }
    drafts = [0, 1].map { DraftStore(directory: home.appendingPathComponent("draft-s\($0)")) }
  }

  mutating func run(steps: Int) {
    for number in 0..<steps {
      let step = ModelStep.allCases[Int(random.next() % UInt64(ModelStep.allCases.count))]
      let session = Int(random.next() % 2)
      touched = nil
      apply(step, session: session)
      // Every meme's files are compared every 50 steps and after crashes and restarts; in
      // between, those of the meme the step changed (the listing is compared every step).
      let full = number % 50 == 49 || step == .crash || step == .restart || number == steps - 1
      check(after: "step \(number) (\(step), session \(session))", full: full)
      if failures.count > 5 { return }
    }
  }

  mutating func nextCaption() -> String {
    counter += 1
    return "M\(counter)"
  }

  mutating func apply(_ step: ModelStep, session: Int) {
    let store = sessions[session]
    switch step {
    case .share:
      let top = nextCaption()
      do {
        let meme = try store.add(FakeMeme.make(top: top, bottom: ""))
        expectID(meme.id, "share")
        touched = meme.id
        model.live[meme.id] = top
        model.nextID = meme.id + 1
      } catch {
        failures.append("share failed: \(error)")
      }
    case .editAndShare:
      guard let id = randomLive() else { return apply(.share, session: session) }
      let top = nextCaption()
      do {
        _ = try store.update(id: id, with: FakeMeme.make(top: top, bottom: ""))
        touched = id
        model.live[id] = top
      } catch {
        failures.append("edit \(id) failed: \(error)")
      }
    case .delete:
      guard let id = randomLive() else { return }
      do {
        try store.delete(id: id)
        model.live[id] = nil
        model.trash.append(id)
        if model.trash.count > Self.trashLimit { model.trash.removeFirst() }
      } catch {
        failures.append("delete \(id) failed: \(error)")
      }
    case .undo:
      do {
        let back = try store.undoDelete()
        if let id = model.trash.popLast() {
          if back?.id != id { failures.append("undo brought back \(back?.id ?? 0), not \(id)") }
          model.live[id] = back?.recipe.top
          touched = id
        } else if back != nil {
          failures.append("undo brought back \(back?.id ?? 0) from an empty trash")
        }
      } catch {
        failures.append("undo failed: \(error)")
      }
    case .draftSave:
      let top = nextCaption()
      let step = DraftStep(label: "caption top", recipe: MemeRecipe(top: top, bottom: ""))
      let document = DraftDocument(steps: [step], current: 0)
      do {
        try drafts[session].save(document)
        model.drafts[session] = top
      } catch {
        failures.append("draft save failed: \(error)")
      }
    case .cancel:
      do {
        try drafts[session].clear()
        model.drafts[session] = nil
      } catch {
        failures.append("cancel failed: \(error)")
      }
    case .restart:
      sessions[session] = MemeStore(
        directory: home.appendingPathComponent("memes"), fileSystem: POSIXFileSystem(),
        trashLimit: Self.trashLimit)
      drafts[session] = DraftStore(directory: home.appendingPathComponent("draft-s\(session)"))
    case .crash:
      crash(session: session)
    case .otherSession:
      // The other session acts on what this one changed (its memory copy is stale).
      apply(.share, session: 1 - session)
    }
  }

  /// A share, edit, delete or undo killed after a random number of its file operations (every
  /// later call fails, cleanups included, as in a killed process), then a restart. The change
  /// happened wholly or not at all.
  mutating func crash(session: Int) {
    let memes = home.appendingPathComponent("memes")
    let crashing = CrashingFileSystem(survive: Int(random.next() % 14))
    let store = MemeStore(
      directory: memes, fileSystem: crashing, trashLimit: Self.trashLimit)
    let before = model
    var after = model
    let top = nextCaption()
    switch random.next() % 4 {
    case 0:
      let id = max(model.nextID, 1)
      after.live[id] = top
      after.nextID = id + 1
      _ = try? store.add(FakeMeme.make(top: top, bottom: ""))
    case 1:
      guard let id = randomLive() else { return }
      after.live[id] = top
      _ = try? store.update(id: id, with: FakeMeme.make(top: top, bottom: ""))
    case 2:
      guard let id = randomLive() else { return }
      after.live[id] = nil
      after.trash.append(id)
      if after.trash.count > Self.trashLimit { after.trash.removeFirst() }
      _ = try? store.delete(id: id)
    default:
      guard let id = after.trash.popLast() else { return }
      after.live[id] = before.live[id] ?? lastTop(of: id)
      _ = try? store.undoDelete()
    }
    sessions[session] = MemeStore(
      directory: memes, fileSystem: POSIXFileSystem(), trashLimit: Self.trashLimit)
    let seen = observed()
    if seen.live == before.live && seen.trash == before.trash {
      model = before
      model.nextID = max(before.nextID, seen.nextID)
    } else if seen.live == after.live && seen.trash == after.trash {
      model = after
    } else {
      failures.append(
        "after a crash the store is neither before nor after: \(seen) vs \(before) / \(after)")
      model = seen
    }
  }

  /// The top caption meme `id` had when deleted.
  func lastTop(of id: Int) -> String? {
    (try? sessions[0].deletedMemes())?.first { $0.id == id }?.recipe.top
  }

  mutating func randomLive() -> Int? {
    let ids = model.live.keys.sorted()
    guard !ids.isEmpty else { return nil }
    return ids[Int(random.next() % UInt64(ids.count))]
  }

  mutating func expectID(_ id: Int, _ what: String) {
    if id < model.nextID { failures.append("\(what) took id \(id), below \(model.nextID)") }
    if model.live[id] != nil || model.trash.contains(id) {
      failures.append("\(what) reused id \(id)")
    }
  }

  /// The store as a fresh session reads it.
  func observed() -> StoreModel {
    let store = MemeStore(
      directory: home.appendingPathComponent("memes"), fileSystem: POSIXFileSystem(),
      trashLimit: Self.trashLimit)
    var seen = StoreModel()
    for meme in (try? store.memes()) ?? [] { seen.live[meme.id] = meme.recipe.top }
    seen.trash = ((try? store.deletedMemes()) ?? []).map(\.id)
    seen.nextID = (try? store.currentForWriting().index.nextID) ?? 0
    return seen
  }

  /// The invariants: the store lists exactly the model's memes, each whole, the trash in order,
  /// every meme folder is listed (live or deleted), and each session's draft is its own.
  mutating func check(after step: String, full: Bool = true) {
    let fresh = MemeStore(
      directory: home.appendingPathComponent("memes"), fileSystem: POSIXFileSystem(),
      trashLimit: Self.trashLimit)
    if let notice = fresh.notice { failures.append("\(step): a fresh session says '\(notice)'") }
    guard let memes = try? fresh.memes() else {
      failures.append("\(step): the store cannot be listed")
      return
    }
    var live: [Int: String] = [:]
    for meme in memes {
      live[meme.id] = meme.recipe.top
      if let problem = meme.problem { failures.append("\(step): meme \(meme.id): \(problem)") }
      if full || meme.id == touched, !FakeMeme.filesMatch(meme, in: fresh) {
        failures.append("\(step): meme \(meme.id)'s files are not its own")
      }
    }
    if live != model.live { failures.append("\(step): live \(live) != model \(model.live)") }
    let trash = ((try? fresh.deletedMemes()) ?? []).map(\.id)
    if trash != model.trash { failures.append("\(step): trash \(trash) != model \(model.trash)") }
    let folders = Set(numericEntries(inDirectory: fresh.directory.path).keys)
    if !folders.isSubset(of: Set(model.live.keys).union(model.trash)) {
      failures.append("\(step): folders \(folders.sorted()) beyond \(model.live.keys.sorted())")
    }
    for session in 0..<2 {
      let top = (try? drafts[session].load())?.currentStep?.recipe.top
      if top != model.drafts[session] {
        failures.append("\(step): session \(session)'s draft is \(top ?? "none")")
      }
    }
  }
}

@Suite struct ModelTests {
  /// `MEMESH_MODEL_SEED` replays a run; otherwise a new seed each run, printed on failure.
  static var seed: UInt64 {
    if let text = ProcessInfo.processInfo.environment["MEMESH_MODEL_SEED"],
      let seed = UInt64(text)
    {
      return seed
    }
    return UInt64.random(in: 0...UInt64.max)
  }

  /// The scratch home: in memory (/dev/shm) when there is one, so 2,000 steps of fsyncs stay
  /// quick.
  static func scratchHome() throws -> URL {
    let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
    let url = URL(fileURLWithPath: base).appendingPathComponent("memesh-model-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  @Test func twoThousandRandomStepsMatchTheModel() throws {
    let seed = Self.seed
    let home = try Self.scratchHome()
    defer { try? FileManager.default.removeItem(at: home) }
    var run = ModelRun(home: home, seed: seed)
    run.run(steps: 2000)
    #expect(run.failures.isEmpty, "MEMESH_MODEL_SEED=\(seed) replays: \(run.failures)")
  }

  /// The same seed gives the same run: a failure can be replayed.
  @Test func aSeedReplaysTheSameSteps() throws {
    var first = SeededRandom(seed: 42)
    var second = SeededRandom(seed: 42)
    #expect((0..<100).map { _ in first.next() } == (0..<100).map { _ in second.next() })
  }
}
