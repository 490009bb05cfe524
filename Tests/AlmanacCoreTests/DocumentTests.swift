import AlmanacCore
import AlmanacModels
import Locking
import Synchronization
import TestHarness
import Testing

/// Collects what one view hears.
final class RecordingView: Sendable {
    let events = Locked<[DocumentEvent<[String], String>]>([])
    var revisions: [UInt64] { events.withLock { $0.map(\.revision) } }
    var changes: [String] {
        events.withLock { $0.compactMap { if case .changed(_, let change, _) = $0 { change } else { nil } } }
    }
    func record(_ event: DocumentEvent<[String], String>) { events.withLock { $0.append(event) } }
}

@Suite(.onTestThreads, .timeLimit(.hang)) struct DocumentTests {
    typealias Notes = Document<[String], String, WeatherViewOptions>

    func append(_ document: Notes, _ text: String, origin: ViewKey? = nil) -> UInt64? {
        document.update(origin: origin) { state in
            state.append(text)
            return "added \(text)"
        }
    }

    @Test func everyViewHearsEveryChangeInRevisionOrder() {
        let document = Notes([])
        let first = RecordingView(), second = RecordingView()
        document.addView(key: ViewKey("a"), handler: first.record)
        document.addView(key: ViewKey("b"), handler: second.record)
        for i in 1...5 { #expect(append(document, "\(i)") == UInt64(i)) }
        #expect(first.revisions == [1, 2, 3, 4, 5])
        #expect(second.changes == ["added 1", "added 2", "added 3", "added 4", "added 5"])
        #expect(document.snapshot.state == ["1", "2", "3", "4", "5"])
    }

    @Test func noChangeSpendsNoRevision() {
        let document = Notes([])
        let view = RecordingView()
        document.addView(key: ViewKey("a"), handler: view.record)
        #expect(document.update { _ in nil } == nil)
        #expect(document.revision == 0)
        #expect(view.revisions.isEmpty)
    }

    @Test func aSubmissionReachesEveryViewIncludingTheSubmitter() throws {
        let document = Notes([])
        let submitter = RecordingView(), other = RecordingView()
        document.addView(key: ViewKey("submitter"), handler: submitter.record)
        document.addView(key: ViewKey("other"), handler: other.record)
        let revision = try document.submit(from: ViewKey("submitter")) { state in
            state.append("mine")
            return "submitted"
        }
        #expect(revision == 1)
        for view in [submitter, other] {
            let event = try #require(view.events.withLock { $0.first })
            guard case .changed(1, "submitted", let origin) = event else { Issue.record("unexpected \(event)"); return }
            #expect(origin == ViewKey("submitter"))
        }
    }

    @Test func aRejectedSubmissionChangesNothing() {
        struct Refused: Error {}
        let document = Notes(["kept"])
        let view = RecordingView()
        document.addView(key: ViewKey("a"), handler: view.record)
        #expect(throws: Refused.self) { try document.submit(from: ViewKey("a")) { _ in throw Refused() } }
        #expect(document.snapshot.revision == 0)
        #expect(document.snapshot.state == ["kept"])
        #expect(view.events.withLock { $0.isEmpty })
    }

    @Test func revisionsOnlyGrowUnderConcurrentChanges() async {
        let document = Notes([])
        let view = RecordingView()
        document.addView(key: ViewKey("a"), handler: view.record)
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask { for i in 0..<250 { _ = append(document, "\(task).\(i)") } }
            }
        }
        #expect(document.revision == 2_000)
        #expect(view.revisions == Array(1...2_000))
        #expect(document.snapshot.state.count == 2_000)
    }

    @Test func aViewRemovedDuringANotificationHearsNothingMore() {
        let document = Notes([])
        let late = RecordingView()
        let remover = RecordingView()
        // Whichever order the views are called in, "late" must not hear revision 2.
        document.addView(key: ViewKey("remover")) { event in
            remover.record(event)
            if event.revision == 1 { document.removeView(key: ViewKey("late")) }
        }
        document.addView(key: ViewKey("late"), handler: late.record)
        _ = append(document, "one")
        _ = append(document, "two")
        #expect(remover.revisions == [1, 2])
        #expect(late.revisions.allSatisfy { $0 == 1 })
        #expect(!late.revisions.contains(2))
        #expect(document.viewCount == 1)
    }

    @Test func changesMadeByAHandlerArriveAfterTheCurrentEvent() {
        let document = Notes([])
        let view = RecordingView()
        document.addView(key: ViewKey("echo")) { event in
            view.record(event)
            if case .changed(1, _, _) = event { _ = append(document, "reply") }
        }
        _ = append(document, "first")
        #expect(view.revisions == [1, 2])
        #expect(document.snapshot.state == ["first", "reply"])
    }

    @Test func aViewThatFellBehindResynchronisesFromASnapshot() throws {
        let document = Notes([])
        for i in 1...3 { _ = append(document, "\(i)") }
        let view = RecordingView()
        document.addView(key: ViewKey("late"), handler: view.record)
        let other = RecordingView()
        document.addView(key: ViewKey("other"), handler: other.record)
        document.resynchronise(view: ViewKey("late"))
        let event = try #require(view.events.withLock { $0.first })
        guard case .resynchronised(3, let state) = event else { Issue.record("unexpected \(event)"); return }
        #expect(state == ["1", "2", "3"])
        #expect(other.events.withLock { $0.isEmpty })
    }

    @Test func optionsCanBeChangedAndViewsCounted() {
        let document = Notes([])
        document.addView(key: ViewKey("a"), options: WeatherViewOptions(location: "Berlin")) { _ in }
        #expect(document.setOptions(WeatherViewOptions(location: "Paris"), forView: ViewKey("a")))
        #expect(!document.setOptions(WeatherViewOptions(), forView: ViewKey("missing")))
        #expect(document.views.first?.options == WeatherViewOptions(location: "Paris"))
        #expect(document.removeView(key: ViewKey("a")) != nil)
        #expect(document.removeView(key: ViewKey("a")) == nil)
        #expect(document.viewCount == 0)
    }
}
