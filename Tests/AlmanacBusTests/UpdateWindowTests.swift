import AlmanacWire
import TestHarness
import Testing

/// The flow-control rule of a remote view (`UpdateWindow`): a window of unacknowledged
/// updates, behind past it, one resync to catch up.
@Suite(.onTestThreads, .timeLimit(.hang)) struct UpdateWindowTests {
    /// Sends updates for revisions `from...` while the window admits them; returns the last sent.
    static func fill(_ window: inout UpdateWindow, from first: UInt64) -> UInt64 {
        var revision = first
        while window.admit() {
            window.sent(revision)
            revision += 1
        }
        return revision - 1
    }

    @Test func aViewThatAcknowledgesNeverFallsBehind() {
        var window = UpdateWindow()
        for revision in UInt64(1)...1_000 {
            let admitted = window.admit()
            #expect(admitted)
            window.sent(revision)
            if revision % 8 == 0 {
                let catchingUp = window.acknowledge(upTo: revision)
                #expect(!catchingUp)
            }
        }
        #expect(!window.behind && window.unacknowledged.isEmpty)
    }

    @Test func pastTheWindowAViewIsBehindUntilItCatchesUpWithOneResync() {
        var window = UpdateWindow()
        let last = Self.fill(&window, from: 1)
        #expect(last == UInt64(UpdateWindow.size) && window.behind)
        let admitted = window.admit()
        #expect(!admitted, "nothing more while behind")
        #expect(window.wantsProbe)
        // An acknowledgement of part of the window is not enough to catch up.
        let partly = window.acknowledge(upTo: 4)
        #expect(!partly && window.behind)
        // Of most of it: a resync is owed, once.
        let caughtUp = window.acknowledge(upTo: last)
        let again = window.acknowledge(upTo: last)
        #expect(caughtUp && !again, "asked once")
        let meanwhile = window.admit()
        #expect(!window.wantsProbe && !meanwhile, "still behind until the resync is sent")
        window.resynced(at: 500)
        let after = window.admit()
        #expect(!window.behind && window.unacknowledged == [500] && after)
    }

    @Test func halfTheWindowUsedAsksForAProbe() {
        var window = UpdateWindow()
        for revision in UInt64(1)..<UInt64(UpdateWindow.size / 2) { window.sent(revision) }
        #expect(!window.wantsProbe)
        window.sent(UInt64(UpdateWindow.size / 2))
        #expect(window.wantsProbe)
        _ = window.acknowledge(upTo: 3)
        #expect(!window.wantsProbe)
    }

    @Test func bigUpdatesFillTheWindowByTheirBytes() {
        var window = UpdateWindow()
        var revision: UInt64 = 0
        while window.admit() {
            revision += 1
            window.sent(revision, bytes: 16_500)  // a weather reading with its forecast
        }
        #expect(window.behind && window.unacknowledged.count < UpdateWindow.size)
        #expect(window.unacknowledgedBytes >= UpdateWindow.byteBudget && window.unacknowledgedBytes < UpdateWindow.byteBudget + 16_500)
        let caughtUp = window.acknowledge(upTo: revision)
        #expect(caughtUp && window.unacknowledgedBytes == 0)
    }
}
