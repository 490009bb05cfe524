import AlmanacCore
import AlmanacModels
import Locking
import Synchronization
import TestHarness
import Testing

/// A list of numbers served a page at a time; a load can be held open to test overlap.
final class NumberPages: PagingDataSource, Sendable {
    let count: Int
    let failNext = Atomic<Bool>(false)
    let gate = Locked<CheckedContinuation<Void, Never>?>(nil)
    let holding = Atomic<Bool>(false)
    let calls = Locked<[String?]>([])

    init(count: Int) { self.count = count }

    struct Broken: Error, CustomStringConvertible { var description: String { "the list is broken" } }

    func loadPage(after cursor: String?, limit: Int) async throws -> Page<Int> {
        calls.withLock { $0.append(cursor) }
        if holding.load(ordering: .relaxed) {
            await withCheckedContinuation { continuation in gate.withLock { $0 = continuation } }
        }
        if failNext.exchange(false, ordering: .relaxed) { throw Broken() }
        let start = cursor.flatMap(Int.init) ?? 0
        let end = min(start + limit, count)
        return Page(items: Array(start..<end), nextCursor: end < count ? String(end) : nil)
    }

    /// Waits until a load is parked at the gate, then lets it go; whether one came.
    func release() async -> Bool {
        await eventually {
            guard let continuation = gate.withLock({ $0.take() }) else { return false }
            continuation.resume()
            return true
        }
    }
}

final class RecordingMediatorDelegate: PagingMediatorDelegate, Sendable {
    let events = Locked<[String]>([])
    func mediator(_ mediator: PagingMediator<Int>, did event: PagingEvent<Int>) {
        let text = switch event {
        case .loading(let refresh): refresh ? "loading refresh" : "loading more"
        case .loaded(let refresh, let items, let hasMore): "\(refresh ? "refreshed" : "appended") \(items.count)\(hasMore ? "" : " end")"
        case .failed(_, let message): "failed: \(message)"
        }
        events.withLock { $0.append(text) }
    }
}

@Suite(.onTestThreads, .timeLimit(.hang)) struct PagingMediatorTests {
    @Test func pagesUntilTheEndThenRefusesMore() async {
        let source = NumberPages(count: 25)
        let mediator = PagingMediator(dataSource: source, pageSize: 10)
        let delegate = RecordingMediatorDelegate()
        mediator.delegate = delegate
        #expect(mediator.snapshot.hasMore && mediator.snapshot.items.isEmpty)
        #expect(await mediator.loadMore())
        #expect(await mediator.loadMore())
        #expect(await mediator.loadMore())
        #expect(await mediator.loadMore() == false)
        #expect(mediator.snapshot.items == Array(0..<25))
        #expect(source.calls.withLock { $0 } == [nil, "10", "20"])
        #expect(delegate.events.withLock { $0 } == ["loading more", "appended 10", "loading more", "appended 10", "loading more", "appended 5 end"])
    }

    @Test func refreshReplacesTheListFromTheFirstPage() async {
        let source = NumberPages(count: 30)
        let mediator = PagingMediator(dataSource: source, pageSize: 10)
        await mediator.loadMore()
        await mediator.loadMore()
        #expect(mediator.snapshot.items.count == 20)
        #expect(await mediator.refresh())
        #expect(mediator.snapshot.items == Array(0..<10))
        #expect(mediator.snapshot.nextCursor == "10")
    }

    @Test func onlyOneLoadRunsAtATime() async {
        let source = NumberPages(count: 100)
        let mediator = PagingMediator(dataSource: source, pageSize: 10)
        source.holding.store(true, ordering: .relaxed)
        async let first = mediator.loadMore()
        // Wait until the first load is under way, then ask for more and for a refresh.
        #expect(await eventually { mediator.snapshot.isLoading })
        #expect(mediator.snapshot.loading == false)
        #expect(await mediator.loadMore() == false)
        #expect(await mediator.refresh() == false)
        source.holding.store(false, ordering: .relaxed)
        #expect(await source.release())
        #expect(await first)
        #expect(mediator.snapshot.items == Array(0..<10) && !mediator.snapshot.isLoading)
        #expect(source.calls.withLock { $0.count } == 1)
    }

    @Test func aFailedLoadKeepsTheListAndCanBeRetried() async {
        let source = NumberPages(count: 15)
        let mediator = PagingMediator(dataSource: source, pageSize: 10)
        let delegate = RecordingMediatorDelegate()
        mediator.delegate = delegate
        await mediator.loadMore()
        source.failNext.store(true, ordering: .relaxed)
        #expect(await mediator.loadMore())
        #expect(mediator.snapshot.items == Array(0..<10))
        #expect(mediator.snapshot.lastError == "the list is broken")
        #expect(await mediator.loadMore())
        #expect(mediator.snapshot.items == Array(0..<15) && mediator.snapshot.lastError == nil)
        #expect(delegate.events.withLock { $0 }.contains("failed: the list is broken"))
    }

    @Test func theDelegateIsHeldWeakly() async {
        let mediator = PagingMediator(dataSource: NumberPages(count: 5), pageSize: 10)
        do {
            let delegate = RecordingMediatorDelegate()
            mediator.delegate = delegate
            #expect(mediator.delegate != nil)
        }
        #expect(mediator.delegate == nil)
        #expect(await mediator.loadMore())
    }
}
