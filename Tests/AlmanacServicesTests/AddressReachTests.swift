@testable import AlmanacServices
import Foundation
import TestHarness
import Testing

/// Whose network an address is on, and what a feed's files may connect to (`ReachLimit`,
/// `FeedReach`): decided on the address, in every form an address takes.
@Suite(.onTestThreads, .timeLimit(.hang)) struct AddressReachTests {
    @Test(arguments: [
        ("127.0.0.1", AddressReach.loopback), ("127.255.255.254", .loopback), ("0.0.0.0", .loopback), ("0.1.2.3", .loopback),
        ("::1", .loopback), ("::", .loopback), ("[::1]", .loopback), ("::ffff:127.0.0.1", .loopback), ("::127.0.0.1", .loopback),
        ("169.254.169.254", .linkLocal), ("fe80::1", .linkLocal), ("febf::1", .linkLocal), ("::ffff:169.254.1.1", .linkLocal),
        ("10.0.0.1", .private), ("172.16.0.1", .private), ("172.31.255.255", .private), ("192.168.1.1", .private),
        ("100.64.0.1", .private), ("100.127.255.255", .private), ("fc00::1", .private), ("fd12:3456::1", .private), ("fec0::1", .private),
        ("::ffff:10.1.2.3", .private), ("::ffff:192.168.0.1", .private), ("64:ff9b::192.168.0.1", .private), ("2002:c0a8:0101::1", .private),
        ("224.0.0.1", .special), ("239.255.255.250", .special), ("255.255.255.255", .special), ("240.0.0.1", .special), ("ff02::1", .special),
        ("8.8.8.8", .public), ("172.15.255.255", .public), ("172.32.0.0", .public), ("100.63.255.255", .public), ("100.128.0.0", .public),
        ("192.169.0.1", .public), ("169.253.0.1", .public), ("203.0.113.2", .public), ("198.18.0.1", .public),
        ("2001:4860:4860::8888", .public), ("::ffff:8.8.8.8", .public), ("64:ff9b::8.8.8.8", .public), ("fe00::1", .public),
    ])
    func anAddressIsPlacedByItsNumbersInEveryForm(text: String, reach: AddressReach) {
        #expect(AddressReach(text: text) == reach, "\(text)")
    }

    @Test func aNameIsNoAddress() {
        for text in ["localhost", "example.com", "127.0.0.1.nip.io", "", "1.2.3", "0x7f.1"] {
            #expect(AddressReach(text: text) == nil, "\(text)")
        }
        #expect(AddressReach(bytes: [127, 0, 0]) == nil && AddressReach(bytes: [127, 0, 0, 1]) == .loopback)
    }

    @Test func aFeedsFilesMayBeOnTheInternetOrWhereTheFeedIsAndNowhereElse() {
        let fromTheInternet = ReachLimit(feed: .public)
        #expect(fromTheInternet.allows(.public))
        #expect(AddressReach.allCases.filter { $0 != .public }.allSatisfy { !fromTheInternet.allows($0) })
        let fromThisComputer = ReachLimit(feed: .loopback)
        #expect(fromThisComputer.allows(.public) && fromThisComputer.allows(.loopback))
        #expect(!fromThisComputer.allows(.private) && !fromThisComputer.allows(.linkLocal) && !fromThisComputer.allows(.special))
        let fromTheLAN = ReachLimit(feed: .private)
        #expect(fromTheLAN.allows(.private) && !fromTheLAN.allows(.loopback) && !fromTheLAN.allows(.linkLocal))
        #expect(!ReachLimit(feed: .special).allows(.special))
    }

    @Test func aHostAsWrittenIsPlacedWithoutAskingWhereItLeads() {
        #expect(AddressReach(writtenHost: "127.0.0.1") == .loopback && AddressReach(writtenHost: "[::1]") == .loopback)
        #expect(AddressReach(writtenHost: "LOCALHOST.") == .loopback && AddressReach(writtenHost: "app.localhost") == .loopback)
        #expect(AddressReach(writtenHost: "192.168.1.5") == .private && AddressReach(writtenHost: "nas.local") == .public)
    }

    /// An answer that came over redirects is from the reach every hop had, or else the
    /// internet: a public feed that redirects to 127.0.0.1 is no feed of this computer.
    @Test func anAnswerOverRedirectsIsLocalOnlyWhenEveryHopWas() {
        #expect(HTTPExchange.reach(of: [.loopback]) == .loopback && HTTPExchange.reach(of: [nil]) == nil)
        #expect(HTTPExchange.reach(of: [.private, .private, .private]) == .private)
        #expect(HTTPExchange.reach(of: [.public, .loopback]) == .public)
        #expect(HTTPExchange.reach(of: [.public, .private]) == .public)
        #expect(HTTPExchange.reach(of: [.private, .public]) == .public)
        #expect(HTTPExchange.reach(of: [.loopback, .private]) == .public)
        #expect(HTTPExchange.reach(of: [.loopback, nil]) == .public)
    }

    /// Through a proxy the URL's host is placed: an address by itself, `localhost` as
    /// loopback, a name by what the resolver gives for it (every address).
    @Test func aProxiedRequestIsPlacedByItsHost() async {
        let fromTheInternet = ReachLimit(feed: .public)
        #expect(await HostReach.refusal(of: URL(string: "http://127.0.0.1:631/x")!, by: fromTheInternet) == "127.0.0.1, which is on this computer (loopback)")
        #expect(await HostReach.refusal(of: URL(string: "http://[fe80::1]/x")!, by: fromTheInternet) == "fe80::1, which is on the local link (link-local)")
        #expect(await HostReach.refusal(of: URL(string: "http://Localhost./x")!, by: fromTheInternet) == "localhost, which is on this computer (loopback)")
        #expect(await HostReach.refusal(of: URL(string: "http://203.0.113.2/x")!, by: fromTheInternet) == nil)
        #expect(await HostReach.refusal(of: URL(string: "http://127.0.0.1/x")!, by: ReachLimit(feed: .loopback)) == nil)
        // A name, resolved: localhost is in every resolver's hosts.
        let resolved = await HostReach.addresses(of: "localhost")
        #expect(!resolved.isEmpty && resolved.allSatisfy { $0.reach == .loopback }, "\(resolved)")
        #expect(await HostReach.addresses(of: "no-such-host.invalid").isEmpty)
    }

    @Test func aFeedIsWhereItWasLastReadFromElseWhereItsAddressSays() {
        let feeds = FeedReach()
        // Not read yet: an address's own reach, localhost's, or the internet for a name.
        #expect(feeds.reach(of: "http://127.0.0.1:8080/feed.xml") == .loopback)
        #expect(feeds.reach(of: "http://[::1]/feed.xml") == .loopback && feeds.reach(of: "http://localhost/feed.xml") == .loopback)
        #expect(feeds.reach(of: "http://user:pass@192.168.1.5/feed.xml") == .private)
        #expect(feeds.reach(of: "http://nas.local/feed.xml") == .public && feeds.reach(of: "not a url") == .public)
        // Read: where it was read from, whatever its name says.
        feeds.record("http://nas.local/feed.xml", reach: .private)
        #expect(feeds.reach(of: "http://nas.local/feed.xml") == .private)
        feeds.record("http://127.0.0.1:8080/feed.xml", reach: .public)  // redirected to the internet, say
        #expect(feeds.reach(of: "http://127.0.0.1:8080/feed.xml") == .public)
        feeds.record("http://nas.local/feed.xml", reach: nil)
        #expect(feeds.reach(of: "http://nas.local/feed.xml") == .public)
    }
}
