import AlmanacBus
import AlmanacCore
import AlmanacModels
import AlmanacServices
import AlmanacWire
import DBus
import Locking
import TestHarness
import Testing

/// `View1.Submit`: a change names the view it comes from, and only the view's owner may
/// submit through it; `Document1.Submit` names the caller's view when it holds just one.
@Suite(.onTestThreads, .timeLimit(.hang)) struct ViewSubmitTests {
    @Test func aViewsSubmitReachesEveryViewWithThatViewAsItsOrigin() async throws {
        try await withInProcessAlmanac(podcastStore: StateStore.inMemory(logger: .discarding)) { almanac in
            let owner = try await almanac.connect()
            let other = try await almanac.connect()
            // What a view of the daemon's own hears: each change's revision and origin.
            let heard = Locked<[(revision: UInt64, origin: ViewKey?)]>([])
            almanac.weather.document.addView(key: ViewKey("listener")) { event in
                if case .changed(let revision, _, let origin) = event { heard.withLock { $0.append((revision, origin)) } }
            }
            let daemon = try #require(try await other.daemonOwner())
            let updates = try await other.updates(of: .weather, from: daemon)
            let watching = try await other.addView(.weather, options: [:])
            _ = try await owner.addView(.weather, options: [:])
            let second = try await owner.addView(.weather, options: [:])
            let revision = try await owner.submit(through: second, ["units": .string("imperial")])
            #expect(await eventually { heard.withLock { $0.last?.revision } == revision })
            #expect(heard.withLock { $0.last?.origin } == ViewKey(second.rawValue))
            // Another client's view hears it too.
            for await message in updates {
                #expect(message.path == watching)
                let (updated, data) = try message.arguments(UInt64.self, [String: Value].self)
                guard data["kind"] == .string("units") else { continue }
                #expect(updated == revision)
                break
            }
            // Document1.Submit from a client with two views names neither; with one, that one.
            let metric = try await owner.submit(.weather, ["units": .string("metric")])
            #expect(await eventually { heard.withLock { $0.last?.revision } == metric })
            #expect(heard.withLock { $0.last?.origin } == nil)
            let imperial = try await other.submit(.weather, ["units": .string("imperial")])
            #expect(await eventually { heard.withLock { $0.last?.revision } == imperial })
            #expect(heard.withLock { $0.last?.origin } == ViewKey(watching.rawValue))
        }
    }

    @Test func onlyAViewsOwnerMaySubmitThroughIt() async throws {
        try await withInProcessAlmanac(podcastStore: StateStore.inMemory(logger: .discarding)) { almanac in
            let owner = try await almanac.connect()
            let stranger = try await almanac.connect()
            let view = try await owner.addView(.weather, options: [:])
            let before = almanac.weather.document.snapshot
            let error = try await #require(throws: BusError.self) { _ = try await stranger.submit(through: view, ["units": .string("imperial")]) }
            #expect(error.name == .accessDenied)
            let after = almanac.weather.document.snapshot
            #expect(after.revision == before.revision && after.state.units == .metric)
            // Bad input is refused as Document1.Submit refuses it.
            let bad = try await #require(throws: BusError.self) { _ = try await owner.submit(through: view, ["units": .string("kelvin")]) }
            #expect(bad.name == .invalidArgs)
        }
    }
}
