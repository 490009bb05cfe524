import AlmanacWire
import DBus
import Foundation
import TestHarness
import Testing

/// `almanac podcasts inspect` and `Podcasts1.Inspect` against the real daemon, feed files and
/// a local HTTP server.
@Suite(.onTestThreads, .timeLimit(.hang)) struct InspectTests {
    static let feeds = SourceTree.path("Tests/Fixtures/feeds")

    /// A file is parsed by the CLI itself: no daemon runs on this bus.
    @Test func aFileIsParsedByTheCLIItselfWithoutADaemon() async throws {
        let bus = try PrivateBus()
        let human = try await almanac(["podcasts", "inspect", Self.feeds + "/rss2-itunes.xml"], bus: bus)
        #expect(human.status == 0, "\(human.errorOutput)")
        #expect(human.output.hasPrefix("The Almanac Hour  by Ada Almanac\n"), "\(human.output)")
        let json = try await almanac(["podcasts", "inspect", Self.feeds + "/rss2-itunes.xml", "--json"], bus: bus)
        let feed = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        for key in ["title", "link", "description", "image", "episodes"] { #expect(feed[key] != nil, "missing \(key)") }
        let episode = try #require((feed["episodes"] as? [[String: Any]])?.first)
        for key in ["guid", "title", "link", "description", "published", "duration", "enclosures"] { #expect(episode[key] != nil, "missing \(key)") }
        #expect(episode["published"] as? Int == 1_704_781_800 && episode["duration"] as? Int == 3123)
        let enclosure = try #require((episode["enclosures"] as? [[String: Any]])?.first)
        #expect(enclosure["url"] as? String == "https://cdn.almanac.example/2.mp3" && enclosure["length"] as? Int == 24_986_239)

        let page = try await almanac(["podcasts", "inspect", Self.feeds + "/html-page.html"], bus: bus)
        #expect(page.status == 65 && page.errorOutput.contains("is not a feed that can be read: this is a web page, not a podcast feed"), "\(page.errorOutput)")
        let pageJSON = try await almanac(["podcasts", "inspect", Self.feeds + "/html-page.html", "--json"], bus: bus)
        #expect(pageJSON.status == 65 && pageJSON.errorOutput.contains("\"name\":\"org.almanac.Error.NotAFeed\""), "\(pageJSON.errorOutput)")
        let missing = try await almanac(["podcasts", "inspect", "/no/such/feed.xml"], bus: bus)
        #expect(missing.status == 66 && missing.errorOutput.contains("No such file or directory"))
        let folder = try await almanac(["podcasts", "inspect", Self.feeds], bus: bus)
        #expect(folder.status == 66 && folder.errorOutput.contains("Is a directory"), "\(folder.errorOutput)")
        // From a pipe, as `<(curl …)` gives it.
        let piped = try await Tool.runDetached("/bin/sh", ["-c", "cat '\(Self.feeds)/atom.xml' | '\(Binaries.almanac)' podcasts inspect /dev/stdin --json"])
        #expect(piped.status == 0 && piped.output.hasPrefix("{\"author\":\"Camille"), "\(piped.output.prefix(200)) \(piped.errorOutput)")
        // A pipe of several reads' worth (3 MiB) says what the file says.
        let large = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-inspect-\(UUID().uuidString.prefix(8)).xml")
        defer { try? FileManager.default.removeItem(at: large) }
        let items = (0..<6_000).map { "<item><title>Episode \($0)</title><guid>g\($0)</guid><description>\(String(repeating: "words ", count: 80))</description></item>" }
        try Data(("<rss version=\"2.0\"><channel><title>Large</title>" + items.joined() + "</channel></rss>").utf8).write(to: large)
        let fromFile = try await almanac(["podcasts", "inspect", large.path, "--json"], bus: bus)
        let fromPipe = try await Tool.runDetached("/bin/sh", ["-c", "cat '\(large.path)' | '\(Binaries.almanac)' podcasts inspect /dev/stdin --json"])
        #expect(fromFile.status == 0 && fromPipe.status == 0 && fromPipe.output == fromFile.output && fromFile.output.contains("Episode 5999"),
                "\(fromPipe.errorOutput)")
    }

    @Test func aURLIsFetchedByTheDaemonFollowingRedirects() async throws {
        let server = try FixtureServer.feeds()
        let bus = try PrivateBus()
        let daemon = try await RunningDaemon(bus: bus)
        let url = server.baseURL.absoluteString
        // Moved permanently: relative links resolve against where the feed really is.
        let json = try await almanac(["podcasts", "inspect", url + "/moved/relative-urls.xml", "--json"], bus: bus)
        #expect(json.status == 0, "\(json.errorOutput)")
        let feed = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        #expect(feed["image"] as? String == url + "/feeds/images/cover.png")
        #expect(feed["nextPageURL"] as? String == url + "/feeds/relative-urls.xml?page=2")
        // The CLI had the daemon fetch the bytes (FetchFeed) and parsed them itself; busctl
        // sees the descriptor and the addresses.
        let fetched = try await busctlCall(on: bus, BusContract.documentPath(.podcasts), BusContract.podcastsInterface, BusContract.Podcasts1.fetchFeed.name,
                                           ["s", url + "/moved/relative-urls.xml"])
        #expect(fetched.status == 0 && fetched.output.hasPrefix("hss ") && fetched.output.contains("\"\(url)/feeds/relative-urls.xml\""), "\(fetched.output) \(fetched.errorOutput)")
        // A web page leads to the feed it announces (here one the server does not have).
        let page = try await almanac(["podcasts", "inspect", url + "/feeds/html-page.html"], bus: bus)
        #expect(page.status == 65 && page.errorOutput.contains("announces the feed \(url)/feed.xml, which could not be read"), "\(page.errorOutput)")
        // gdbus, a client nobody here wrote, calls Inspect, which parses in the daemon.
        let gdbus = try await gdbusCall(on: bus, BusContract.documentPath(.podcasts), BusContract.podcastsInterface, BusContract.Podcasts1.inspect.name,
                                        [url + "/feeds/atom.xml"])
        #expect(gdbus.status == 0 && gdbus.output.contains("'episodes': <[{"), "\(gdbus.errorOutput)")
        for (path, expected) in [("/status/404", "answered HTTP 404"), ("/status/500", "answered HTTP 500")] {
            let failed = try await almanac(["podcasts", "inspect", url + path], bus: bus)
            #expect(failed.status == 65 && failed.errorOutput.contains(expected), "\(failed.errorOutput)")
        }
        let notHTTP = try await busctlCall(on: bus, BusContract.documentPath(.podcasts), BusContract.podcastsInterface, BusContract.Podcasts1.inspect.name,
                                           ["s", "file:///etc/passwd"])
        #expect(notHTTP.status != 0 && notHTTP.errorOutput.contains("is not an http or https URL"), "\(notHTTP.errorOutput)")
        _ = daemon.stop()
    }
}
