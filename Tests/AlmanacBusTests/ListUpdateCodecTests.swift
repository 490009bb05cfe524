@testable import AlmanacWire
import AlmanacModels
import DBus
import TestHarness
import Testing

/// A list's paging steps, as `ViewPages` sends them and `almanac episodes` reads them.
@Suite(.onTestThreads, .timeLimit(.hang)) struct ListUpdateCodecTests {
    static let item = Value.stringVariantDictionary(["id": .string("p-1"), "title": .string("One")])

    @Test func everyStepRoundTrips() throws {
        let events: [PagingEvent<Value>] = [.loading(refresh: false), .loading(refresh: true), .loaded(refresh: true, items: [Self.item], hasMore: false),
                                            .loaded(refresh: false, items: [], hasMore: true), .failed(refresh: false, message: "HTTP 404")]
        for event in events {
            let decoded = try? WireCoding.decode(PagingEvent<Value>.self, fromFields: try ChangeCodecTests.overTheWire(try WireCoding.fields(event)))
            switch (event, decoded) {
            case (.loading(let a), .loading(let b)?): #expect(a == b)
            case (.loaded(let a, let items, let more), .loaded(let b, let decodedItems, let decodedMore)?):
                #expect(a == b && items == decodedItems && more == decodedMore)
            case (.failed(let a, let message), .failed(let b, let decodedMessage)?): #expect(a == b && message == decodedMessage)
            default: Issue.record("\(event) decoded as \(String(describing: decoded))")
            }
        }
        #expect(Set(try events.compactMap { try WireCoding.fields($0)["kind"]?.stringValue }) == ["loading", "page", "loadFailed"])
    }

    @Test func aChangeOrAMalformedStepIsNoStep() throws {
        #expect(Self.step(try WireCoding.fields(PodcastsChange.failed(podcastID: "p", message: "x"))) == nil)
        #expect(Self.step(["kind": .string("loading")]) == nil)
        #expect(Self.step(["kind": .string("page"), "refresh": .boolean(true), "items": .string("x"), "hasMore": .boolean(false)]) == nil)
        #expect(Self.step(["kind": .string("loadFailed"), "refresh": .boolean(true)]) == nil)
        #expect((try? WireCoding.decode(ViewUpdate<PodcastsState, PodcastsChange>.self, fromFields: try WireCoding.fields(PagingEvent<Value>.loading(refresh: false)))) == nil, "a step is no change")
    }

    /// The step `fields` is, or `nil` (whether it is one, as the CLI asks).
    static func step(_ fields: [String: Value]) -> String? {
        (try? WireCoding.decode(PagingEvent<Value>.self, fromFields: fields)).map { "\($0)" }
    }
}
