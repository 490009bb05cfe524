import AlmanacModels
@testable import AlmanacServices
import Foundation
import Locking
import Synchronization
import TestHarness
import Testing
import AlmanacCore

/// The real feed reader, under the refresh loop, against a real local HTTP server.
@Suite(.onTestThreads, .timeLimit(.hang)) struct RSSFeedFetcherTests {
    @Test func everyKindOfAnswerIsReportedAndNoneHoldsUpTheOthers() async throws {
        let server = try FixtureServer.feeds()
        let base = server.baseURL.absoluteString
        let service = PodcastService(fetcher: RSSFeedFetcher(http: HTTPClient(timeout: 5, accept: FeedInspector.accept)))
        let delegate = RecordingDelegate()
        service.delegate = delegate
        func podcast(_ id: String, _ path: String) -> Podcast { Podcast(id: id, title: id, author: "", feedURL: base + path) }
        let podcasts = [
            podcast("ok", "/feeds/rss2-itunes.xml"), podcast("moved", "/moved/atom.xml"), podcast("gone", "/status/404"),
            podcast("broken", "/status/500"), podcast("page", "/feeds/html-page.html"), podcast("slow", "/slow/rss2-itunes.xml"),
            podcast("cut", "/truncated/rss2-itunes.xml"), podcast("file", "file:///etc/passwd"),
        ]
        await service.read(podcasts)
        let fetched = delegate.fetched.withLock { $0 }
        let failed = delegate.podcastFailures.withLock { $0 }
        #expect(Set(fetched.keys) == ["ok", "moved"])
        #expect(fetched["ok"]?.1.map(\.title) == ["Episode 2: Clouds", "Trailer"])
        #expect(fetched["ok"]?.0.id == "ok", "the podcast keeps its id")
        #expect(failed["gone"]?.contains("HTTP 404") == true && failed["broken"]?.contains("HTTP 500") == true)
        #expect(failed["page"]?.contains("no longer serves a feed") == true, "\(failed["page"] ?? "")")
        #expect(failed["slow"]?.hasPrefix("127.0.0.1 sent nothing for 5 s, so Almanac gave up waiting") == true, "\(failed["slow"] ?? "")")
        #expect(failed["cut"] != nil, "a body cut short is a failure, not half a feed")
        #expect(failed["file"]?.contains("is not an http or https URL") == true)
        #expect(fetched.count + failed.count == podcasts.count)

        // Read again: unchanged, so not parsed.
        await service.read([podcast("ok", "/feeds/rss2-itunes.xml")])
        #expect(delegate.unchanged.withLock { $0 } == ["ok"])
    }
}

extension RSSFeedFetcherTests {
    @Test func answersLargerThanTheLimitAreCutOffNotHeldInMemory() async throws {
        let server = try FixtureServer.feeds()
        let http = HTTPClient(timeout: 10, accept: FeedInspector.accept, maximumBytes: 1024 * 1024)
        for path in ["/big/8", "/bomb"] {
            do {
                _ = try await http.get(server.baseURL.appendingPathComponent(path))
                Issue.record("\(path) was read whole")
            } catch {
                #expect("\(error)".contains("more than the 1 MiB Almanac reads"), "\(path): \(error)")
            }
        }
        // Under the limit is fine.
        #expect(try await http.get(server.baseURL.appendingPathComponent("/feeds/atom.xml")).status == 200)
        do {
            _ = try await http.get(server.baseURL.appendingPathComponent("/redirect-to-file"))
            Issue.record("a redirect to file:// was followed")
        } catch {
            #expect(!"\(error)".contains("root:"), "\(error)")
            #expect("\(error)" == "127.0.0.1 redirected to a file: address, which Almanac does not follow: only http and https.", "\(error)")
        }
    }

    @Test func aLargeAnswerIsReadInTimeProportionalToItsSize() async throws {
        // Appending each chunk to a body shared with a copy copied the whole body every
        // time: 20 MiB took 16 s. Ten times the bytes must take about ten times as long
        // (with a generous margin for a busy machine), not a hundred.
        let server = try FixtureServer.feeds()
        let http = HTTPClient(timeout: 60, accept: FeedInspector.accept)
        func seconds(_ mebibytes: Int) async throws -> Double {
            let start = ContinuousClock.now
            let response = try await http.get(server.baseURL.appendingPathComponent("/big/\(mebibytes)"))
            #expect(response.body.count >= mebibytes * 1_040_000)
            let elapsed = ContinuousClock.now - start
            return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        }
        _ = try await seconds(1)
        let small = try await seconds(3)
        let large = try await seconds(30)
        // The quadratic copy this guards against was ~100× slower; the bound leaves a loaded machine room.
        #expect(large <= 30 * small + 10, "3 MiB in \(small) s, 30 MiB in \(large) s")
    }
}
