import AlmanacCore
@testable import AlmanacServices
import Foundation
import Locking
import Synchronization
import TestHarness
import Testing

/// `HTTPClient` over libcurl against the real fixture server: what is particular to running
/// transfers on a thread of our own (cancellation, redirects followed by our code).
@Suite(.onTestThreads, .timeLimit(.hang)) struct HTTPClientTests {
    let server: FixtureServer

    init() throws {
        server = try FixtureServer.feeds()
    }

    func requests() -> String {
        (try? String(contentsOf: server.baseURL.appendingPathComponent("requests"), encoding: .utf8)) ?? ""
    }

    /// A request whose server has sent some bytes and then went quiet ends when its task is
    /// cancelled, saying so, rather than when its two-minute wait runs out.
    @Test func aCancelledRequestEndsAtOnceSayingSo() async throws {
        let client = HTTPClient(timeout: 120, conditional: false)
        let url = server.baseURL.appendingPathComponent("audio/quiet").appending(queryItems: [URLQueryItem(name: "size", value: "100000"),
                                                                                                URLQueryItem(name: "stall", value: "10")])
        let fetch = Task { try await client.get(url) }
        #expect(await eventually { requests().contains("/audio/quiet") })
        fetch.cancel()
        await #expect {
            _ = try await fetch.value
        } throws: { error in
            "\(error)" == "The request to 127.0.0.1 was cancelled."
        }
    }

    /// A server that redirects for ever is given up after 16 hops, in words.
    @Test func aRedirectLoopIsGivenUpSayingSo() async throws {
        await #expect {
            _ = try await HTTPClient(timeout: 10, conditional: false).get(server.baseURL.appendingPathComponent("redirect-loop"))
        } throws: { error in
            "\(error)" == "Could not reach 127.0.0.1: it redirected more than 16 times."
        }
    }
}
