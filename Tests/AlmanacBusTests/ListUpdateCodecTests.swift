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
            let decoded = ListUpdateCodec.decode(try ChangeCodecTests.overTheWire(ListUpdateCodec.encode(event)))
            switch (event, decoded) {
            case (.loading(let a), .loading(let b)?): #expect(a == b)
            case (.loaded(let a, let items, let more), .loaded(let b, let decodedItems, let decodedMore)?):
                #expect(a == b && items == decodedItems && more == decodedMore)
            case (.failed(let a, let message), .failed(let b, let decodedMessage)?): #expect(a == b && message == decodedMessage)
            default: Issue.record("\(event) decoded as \(String(describing: decoded))")
            }
        }
        #expect(Set(events.compactMap { ListUpdateCodec.encode($0)["kind"]?.stringValue }) == Set(ListUpdateCodec.Kind.allCases.map(\.rawValue)))
    }

    @Test func aChangeOrAMalformedStepIsNoStep() {
        #expect(ListUpdateCodec.decode(PodcastsCodec.encode(.failed(podcastID: "p", message: "x"))) == nil)
        #expect(ListUpdateCodec.decode(["kind": .string("loading")]) == nil)
        #expect(ListUpdateCodec.decode(["kind": .string("page"), "refresh": .boolean(true), "items": .string("x"), "hasMore": .boolean(false)]) == nil)
        #expect(ListUpdateCodec.decode(["kind": .string("loadFailed"), "refresh": .boolean(true)]) == nil)
        #expect(PodcastsCodec.decodeUpdate(ListUpdateCodec.encode(.loading(refresh: false))) == nil, "a step is no change")
    }
}
