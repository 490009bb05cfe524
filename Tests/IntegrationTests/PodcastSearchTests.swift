import AlmanacWire
import DBus
import Foundation
import TestHarness
import Testing

/// Finding podcasts through the real binaries: `almanac podcasts search` against a local
/// server that answers like the iTunes Search API, and subscribing to a web page that
/// announces its feed (autodiscovery).
@Suite(.onTestThreads, .timeLimit(.hang)) struct PodcastSearchTests {
    let bus: PrivateBus
    let directory: FixtureServer
    var base: String { directory.baseURL.absoluteString }

    init() throws {
        bus = try PrivateBus()
        directory = try FixtureServer.directory()
    }

    func daemon() async throws -> RunningDaemon {
        try await RunningDaemon(bus: bus, .fixtures().with("--podcast-search-url", base))
    }

    @Test func searchListsTheResultsWithAFeedAndSubscribesToOne() async throws {
        let daemon = try await daemon()
        let found = try await almanac(["podcasts", "search", "history"], bus: bus)
        #expect(found.status == 0, "\(found.errorOutput)")
        // The result without a feed URL cannot be subscribed to: it is not listed.
        #expect(found.output == """
            1  History Hour — The History Guild · 2,512 episodes · History
               \(base)/feeds/rss2-itunes.xml
            2  A Short History of Computing — Radio Ada · 1 episode · Technology
               \(base)/feeds/atom.xml

            """)
        let asked = try String(contentsOf: directory.baseURL.appendingPathComponent("requests"), encoding: .utf8)
        #expect(asked == "media=podcast&entity=podcast&term=history&limit=25\n")

        let json = try await almanac(["podcasts", "search", "cooking", "weekly", "--json", "--limit", "5"], bus: bus)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        let results = try #require(object["results"] as? [[String: Any]])
        #expect(results.count == 1)
        #expect(results.first?["title"] as? String == "Cooking Weekly")
        #expect(results.first?["number"] as? Int == 1)
        #expect(results.first?["author"] is NSNull && results.first?["episodes"] is NSNull)
        #expect(results.first?["feedURL"] as? String == "\(base)/feeds/podcasting20.xml")

        let subscribed = try await almanac(["podcasts", "search", "history", "--subscribe", "2"], bus: bus)
        #expect(subscribed.status == 0, "\(subscribed.errorOutput)")
        // Named as the library names it (the feed's title), not as the directory does.
        #expect(subscribed.output.hasSuffix("  Le Ciel\n"), "\(subscribed.output)")
        let list = try await almanac(["podcasts", "list", "--format", "{{title}} {{feedURL}}"], bus: bus)
        #expect(list.output == "Le Ciel \(base)/feeds/atom.xml\n")

        let beyond = try await almanac(["podcasts", "search", "history", "--subscribe", "3"], bus: bus)
        #expect(beyond.status == 64)
        #expect(beyond.errorOutput.contains("the search found 2 podcasts, so there is no result 3"), "\(beyond.errorOutput)")
        // Never a result the search did not show.
        let unseen = try await almanac(["podcasts", "search", "history", "--limit", "1", "--subscribe", "2"], bus: bus)
        #expect(unseen.status == 64)
        #expect(unseen.errorOutput.contains("--subscribe 2 is past the 1 result this search shows"), "\(unseen.errorOutput)")
        #expect(!daemon.process.hasExited)
    }

    @Test func aDirectoryThatFailsOrFindsNothingIsSaidPlainly() async throws {
        let daemon = try await daemon()
        let nothing = try await almanac(["podcasts", "search", "xylophone"], bus: bus)
        #expect(nothing.status == 65)
        #expect(nothing.errorOutput.contains("nothing found for 'xylophone'"), "\(nothing.errorOutput)")
        let outage = try await almanac(["podcasts", "search", "outage"], bus: bus)
        #expect(outage.status == 65)
        #expect(outage.errorOutput.contains("HTTP 503"), "\(outage.errorOutput)")
        let garbage = try await almanac(["podcasts", "search", "garbage"], bus: bus)
        #expect(garbage.status == 65)
        #expect(garbage.errorOutput.contains("not a list of results"), "\(garbage.errorOutput)")

        // From outside: gdbus finds them; a bad limit or term is refused by name.
        let path = BusContract.documentPath(.podcasts)
        let viaGdbus = try await gdbusCall(on: bus, path, BusContract.podcastsInterface, BusContract.Podcasts1.search.name, ["history", "{'limit': <uint32 1>}"])
        #expect(viaGdbus.status == 0 && viaGdbus.output.contains("'title': <'History Hour'>") && !viaGdbus.output.contains("Computing"), "\(viaGdbus.output)")
        let badLimit = try await busctlCall(on: bus, path, BusContract.podcastsInterface, BusContract.Podcasts1.search.name, ["sa{sv}", "history", "1", "limit", "u", "0"])
        #expect(badLimit.status != 0 && badLimit.errorOutput.contains("'limit' is a whole number from 1 to 200"), "\(badLimit.errorOutput)")
        let badKey = try await busctlCall(on: bus, path, BusContract.podcastsInterface, BusContract.Podcasts1.search.name, ["sa{sv}", "history", "1", "country", "s", "de"])
        #expect(badKey.status != 0 && badKey.errorOutput.contains("Unknown search option key 'country'"), "\(badKey.errorOutput)")
        let empty = try await busctlCall(on: bus, path, BusContract.podcastsInterface, BusContract.Podcasts1.search.name, ["sa{sv}", "  ", "0"])
        #expect(empty.status != 0 && empty.errorOutput.contains("Search for 1 to 200 bytes"), "\(empty.errorOutput)")
        #expect(!daemon.process.hasExited)
    }

    @Test func theDemoProviderHasNoDirectory() async throws {
        let daemon = try await RunningDaemon(bus: bus, .offline)
        let result = try await almanac(["podcasts", "search", "history"], bus: bus)
        #expect(result.status == 65)
        #expect(result.errorOutput.contains("no podcast directory"), "\(result.errorOutput)")
        #expect(!daemon.process.hasExited)
    }

    @Test func aWebPageThatAnnouncesItsFeedCanBeSubscribedTo() async throws {
        let daemon = try await daemon()
        let page = "\(base)/site/rss2-itunes.xml"
        let inspected = try await almanac(["podcasts", "inspect", page], bus: bus)
        #expect(inspected.status == 0 && inspected.output.contains("The Almanac Hour"), "\(inspected.output)\(inspected.errorOutput)")
        let subscribed = try await almanac(["podcasts", "subscribe", page, "--json"], bus: bus)
        #expect(subscribed.status == 0, "\(subscribed.errorOutput)")
        #expect(subscribed.output.contains("\"feedURL\":\"\(base)/feeds/rss2-itunes.xml\""), "\(subscribed.output)")
        let list = try await almanac(["podcasts", "list", "--format", "{{id}} {{feedURL}}"], bus: bus)
        let id = try #require(list.output.split(separator: " ").first.map(String.init))
        #expect(list.output == "\(id) \(base)/feeds/rss2-itunes.xml\n")
        // The page again, or the feed itself: the same podcast, nothing added.
        #expect(try await almanac(["podcasts", "subscribe", page], bus: bus).output.hasPrefix(id))
        #expect(try await almanac(["podcasts", "subscribe", "\(base)/feeds/rss2-itunes.xml"], bus: bus).output.hasPrefix(id))
        #expect(try await almanac(["podcasts", "list", "--format", "{{id}}"], bus: bus).output == "\(id)\n")

        // A page that announces nothing is no feed; one that announces a missing feed says which.
        let plain = try await almanac(["podcasts", "subscribe", "\(base)/site-nofeed"], bus: bus)
        #expect(plain.status == 65)
        #expect(plain.errorOutput.contains("this is a web page, not a podcast feed"), "\(plain.errorOutput)")
        let missing = try await almanac(["podcasts", "subscribe", "\(base)/site/nonesuch.xml"], bus: bus)
        #expect(missing.status == 65)
        #expect(missing.errorOutput.contains("announces the feed \(base)/feeds/nonesuch.xml, which could not be read"), "\(missing.errorOutput)")
        #expect(!daemon.process.hasExited)
    }
}
