import AlmanacCore
import AlmanacModels
import AlmanacFeeds
@testable import AlmanacServices
import Foundation
import TestHarness
import Testing

/// The sync client against Tests/Fixtures/gpodder_server.py, a real HTTP server on
/// 127.0.0.1 built from the gpodder.net API documentation and the Nextcloud app's routes.
@Suite(.onTestThreads, .timeLimit(.hang)) struct GpodderClientTests {
    func client(_ server: FixtureServer, password: String = "s3cret", device: String = "laptop", flavour: SyncFlavour? = nil) -> GpodderClient {
        GpodderClient(SyncCredentials(server: server.baseURL.absoluteString, user: "alice", password: password, device: device, flavour: flavour))
    }

    func control(_ server: FixtureServer, _ path: String) throws -> String {
        try String(contentsOf: URL(string: server.baseURL.absoluteString + "/_control/" + path)!, encoding: .utf8)
    }

    func post(_ server: FixtureServer, _ path: String, _ json: String) async throws {
        _ = try await HTTPClient(conditional: false).send("POST", URL(string: server.baseURL.absoluteString + "/_control/" + path)!, body: Data(json.utf8))
    }

    @Test func gpodderNetIsFoundByAskingAndItsSessionCookieIsUsed() async throws {
        let server = try FixtureServer.gpodder()
        let client = client(server)
        let before = Date()
        let login = try await client.logIn()
        let after = Date()
        #expect(login.flavour == .gpodder)
        // The server's `Date`, to the second: between the call and its answer.
        let time = try #require(login.serverTime)
        #expect(time >= before.addingTimeInterval(-1) && time <= after)
        try await client.register(caption: "Almanac on test")
        _ = try await client.subscriptionChanges(since: 0)
        _ = try await client.logIn()
        let log = try control(server, "log").split(separator: "\n")
        #expect(log == [
            "POST /api/2/auth/alice/login.json basic", "GET /api/2/devices/alice.json basic", "POST /api/2/devices/alice/laptop.json cookie",
            "GET /api/2/sync-devices/alice.json cookie", "GET /api/2/subscriptions/alice/laptop.json cookie",
            "POST /api/2/auth/alice/login.json cookie",
        ])
        let state = try control(server, "state")
        #expect(state.contains("\"laptop\": {\"caption\": \"Almanac on test\", \"type\": \"desktop\"}"), "\(state)")

        // A session that ended: logged in again once, and the request repeated.
        _ = try control(server, "expire")
        _ = try await client.episodeActions(since: 0)
        let renewed = try control(server, "log").split(separator: "\n").suffix(3)
        #expect(Array(renewed) == ["GET /api/2/episodes/alice.json none", "POST /api/2/auth/alice/login.json basic", "GET /api/2/episodes/alice.json cookie"])
    }

    @Test func aNewDeviceJoinsTheOthersSoSubscriptionsAreShared() async throws {
        let server = try FixtureServer.gpodder()
        _ = try control(server, "subscribe?user=alice&device=phone&url=https://show.example/feed.xml")
        let laptop = client(server)
        _ = try await laptop.logIn()
        try await laptop.register(caption: "Laptop")
        let changes = try await laptop.subscriptionChanges(since: 0)
        #expect(changes.add == ["https://show.example/feed.xml"] && changes.remove.isEmpty && changes.timestamp > 0)
        // And what the laptop changes, the phone hears.
        let upload = try await laptop.uploadSubscriptions(add: ["https://other.example/feed.xml "], remove: ["https://show.example/feed.xml"])
        #expect(upload.rewrites == [URLRewrite(from: "https://other.example/feed.xml ", to: "https://other.example/feed.xml")])
        let state = try control(server, "state")
        #expect(state.contains("\"phone\": [\"https://other.example/feed.xml\"]"), "\(state)")
    }

    @Test func episodeActionsGoUpAndComeBackWithTheirTimes() async throws {
        let server = try FixtureServer.gpodder()
        let client = client(server, flavour: .gpodder)
        _ = try await client.logIn()
        try await client.register(caption: "Laptop")
        let time = Date(timeIntervalSince1970: 1_780_041_600)
        let sent = [
            EpisodeAction(podcast: "https://show.example/feed.xml", episode: "https://show.example/1.mp3", kind: .play, timestamp: time, started: 60, position: 1_800, total: 3_600),
            EpisodeAction(podcast: "https://show.example/feed.xml", episode: "https://show.example/2.mp3", kind: .new, timestamp: time.addingTimeInterval(1)),
            EpisodeAction(podcast: "https://show.example/feed.xml", episode: "https://show.example/2.mp3", kind: .download, timestamp: time.addingTimeInterval(2)),
        ]
        _ = try await client.uploadActions(sent)
        let state = try control(server, "state")
        #expect(state.contains("\"timestamp\": \"2026-05-29T08:00:00\""), "\(state)")
        let back = try await client.episodeActions(since: 0)
        #expect(back.actions == sent.map { action in
            var action = action
            action.device = "laptop"
            return action
        })
        // As mygpo answers: `timestamp` is the last action's own time.
        #expect(back.timestamp == Int64(time.timeIntervalSince1970) + 2)
        // Another device's, with a time zone and a fraction of a second, an hour later.
        try await post(server, "action", #"[{"podcast": "https://show.example/feed.xml", "episode": "https://show.example/3.mp3", "action": "PLAY", "timestamp": "2026-05-29T10:00:00.250+01:00", "position": 30, "total": -1}]"#)
        // (`since` counts the actions' own times, from that second on: the last one comes again.)
        let more = try await client.episodeActions(since: back.timestamp).actions
        #expect(more.map(\.episode) == ["https://show.example/2.mp3", "https://show.example/3.mp3"])
        let other = try #require(more.last)
        #expect(other.kind == .play && other.timestamp == time.addingTimeInterval(3_600) && other.total == nil && other.position == 30)
    }

    /// mygpo (gpodder.net) answers at most MAX_EPISODE_ACTIONS actions, oldest first, with the
    /// last one's time as `timestamp`: the client asks on from there until nothing newer comes.
    @Test func episodeActionsAreReadPastAServersLimitOfActionsPerAnswer() async throws {
        let server = try FixtureServer(script: SourceTree.path("Tests/Fixtures/gpodder_server.py"), arguments: ["--max-actions", "2"])
        let client = client(server, flavour: .gpodder)
        _ = try await client.logIn()
        let time = Date(timeIntervalSince1970: 1_780_041_600)
        let sent = (0..<5).map { index in
            EpisodeAction(podcast: "https://show.example/feed.xml", episode: "https://show.example/\(index).mp3", kind: .play,
                          timestamp: time.addingTimeInterval(Double(index) * 60), started: 0, position: 60 * index, total: 3_600)
        }
        _ = try await client.uploadActions(sent)
        let back = try await client.episodeActions(since: 0)
        #expect(Set(back.actions.map(\.episode)) == Set(sent.map(\.episode)), "\(back.actions.map(\.episode))")
        #expect(back.timestamp == Int64(time.timeIntervalSince1970) + 240)
        let asked = try control(server, "log").split(separator: "\n").filter { $0.hasPrefix("GET /api/2/episodes/") }
        #expect(asked.count == 5, "\(asked)")
        // From the last answer on: the last action again, nothing else, one request.
        let again = try await client.episodeActions(since: back.timestamp)
        #expect(again.actions.map(\.episode) == ["https://show.example/4.mp3"] && again.timestamp == back.timestamp)
    }

    /// opodsync refuses `login.json` with the session cookie alone, and takes it everywhere
    /// else: after the first refusal, the session check sends HTTP Basic with the cookie, so
    /// the session goes on and no 401 comes at each sync.
    @Test func aServerThatWantsThePasswordToCheckTheSessionGetsItWithTheCookie() async throws {
        let server = try FixtureServer(script: SourceTree.path("Tests/Fixtures/gpodder_server.py"), arguments: ["--like", "opodsync"])
        let client = client(server)
        #expect(try await client.logIn().flavour == .gpodder)
        try await client.register(caption: "Laptop")
        _ = try await client.subscriptionChanges(since: 0)
        _ = try await client.logIn()
        _ = try await client.logIn()
        _ = try await client.subscriptionChanges(since: 0)
        let log = try control(server, "log").split(separator: "\n")
        #expect(log == [
            "POST /api/2/auth/alice/login.json basic", "GET /api/2/devices/alice.json basic", "POST /api/2/devices/alice/laptop.json cookie",
            "GET /api/2/sync-devices/alice.json cookie", "GET /api/2/subscriptions/alice/laptop.json cookie",
            "POST /api/2/auth/alice/login.json cookie", "POST /api/2/auth/alice/login.json basic",
            "POST /api/2/auth/alice/login.json basic+cookie", "GET /api/2/subscriptions/alice/laptop.json cookie",
        ])
    }

    @Test func nextcloudIsFoundByAskingAndKeepsOnlyPlays() async throws {
        let server = try FixtureServer.gpodder(flavour: "nextcloud")
        let client = client(server)
        #expect(try await client.logIn().flavour == .nextcloud)
        try await client.register(caption: "Laptop")
        _ = try await client.uploadSubscriptions(add: ["https://show.example/feed.xml"], remove: [])
        let changes = try await client.subscriptionChanges(since: 0)
        #expect(changes.add == ["https://show.example/feed.xml"])
        let time = Date(timeIntervalSince1970: 1_800_000_000)
        _ = try await client.uploadActions([
            EpisodeAction(podcast: "https://show.example/feed.xml", episode: "https://show.example/1.mp3", kind: .play, timestamp: time, started: 0, position: 90, total: 3_600),
            EpisodeAction(podcast: "https://show.example/feed.xml", episode: "https://show.example/1.mp3", kind: .download, timestamp: time),
        ])
        let actions = try await client.episodeActions(since: 0).actions
        #expect(actions.count == 1 && actions.first?.kind == .play && actions.first?.timestamp == time && actions.first?.position == 90)
        let log = try control(server, "log")
        #expect(log.contains("GET /index.php/apps/gpoddersync/subscriptions basic") && log.contains("POST /index.php/apps/gpoddersync/episode_action/create basic"))
        #expect(!log.contains("/api/2/auth/alice/login.json basic\nPOST"), "the probe asked gpodder.net's login first, once")
    }

    @Test func aWrongPasswordIsARefusalWhicheverTheFlavour() async throws {
        for flavour in ["gpodder", "nextcloud"] {
            let server = try FixtureServer.gpodder(flavour: flavour)
            let error = await #expect(throws: SyncError.self) { try await client(server, password: "guess").logIn() }
            #expect(error?.code == .refused && error?.message.contains("refused the user name and password of 'alice'") == true)
        }
    }

    @Test func aServerThatIsNoSyncServerIsSaidToBeNone() async throws {
        let feeds = try FixtureServer.feeds()
        let error = await #expect(throws: SyncError.self) { try await client(feeds).logIn() }
        #expect(error?.code == .notASyncServer && error?.message.contains("does not answer as a gpodder.net server") == true)
        let site = try FixtureServer.gpodder()
        _ = try control(site, "fault?mode=html")
        let html = await #expect(throws: SyncError.self) { try await client(site).logIn() }
        #expect(html?.code == .notASyncServer, "\(String(describing: html))")
        let given = await #expect(throws: SyncError.self) { try await client(site, flavour: .gpodder).logIn() }
        #expect(given?.code == .notASyncServer, "\(String(describing: given))")
    }

    @Test(arguments: [("malformed", SyncError.Code.malformed), ("huge", .tooLarge), ("503", .httpStatus), ("offline", .unreachable)])
    func aBadAnswerIsAClearError(fault: String, code: SyncError.Code) async throws {
        let server = try FixtureServer.gpodder()
        let client = client(server)
        _ = try await client.logIn()
        try await client.register(caption: "Laptop")
        _ = try control(server, "fault?mode=\(fault)")
        let error = await #expect(throws: SyncError.self) { try await client.subscriptionChanges(since: 0) }
        #expect(error?.code == code, "\(String(describing: error))")
        #expect(error?.message.contains("127.0.0.1") == true)
    }

    @Test func theServersReasonIsPassedOn() async throws {
        let server = try FixtureServer.gpodder()
        let client = client(server)
        _ = try await client.logIn()
        try await client.register(caption: "Laptop")
        let error = await #expect(throws: SyncError.self) {
            try await client.uploadSubscriptions(add: ["https://show.example/feed.xml"], remove: ["https://show.example/feed.xml"])
        }
        #expect(error?.code == .httpStatus && error?.message.contains("HTTP 400: can not add and remove the same URL at the same time") == true,
                "\(String(describing: error))")
    }

    /// opodsync says why in JSON (`{"code": 400, "message": "Invalid URL: …"}`), and
    /// refuses a whole upload for one URL that is not http(s).
    @Test func theServersReasonIsReadFromJSONToo() async throws {
        let server = try FixtureServer(script: SourceTree.path("Tests/Fixtures/gpodder_server.py"), arguments: ["--like", "opodsync"])
        let client = client(server, flavour: .gpodder)
        _ = try await client.logIn()
        let error = await #expect(throws: SyncError.self) {
            try await client.uploadSubscriptions(add: ["https://show.example/feed.xml", "feed://show.example/other.xml"], remove: [])
        }
        #expect(error?.code == .httpStatus && error?.message.hasSuffix("HTTP 400: Invalid URL: feed://show.example/other.xml") == true,
                "\(String(describing: error))")
        #expect(try await client.subscriptionChanges(since: 0).add.isEmpty, "nothing of it was kept")
    }

    @Test func theServersClockIsReported() async throws {
        let server = try FixtureServer.gpodder()
        _ = try control(server, "clock?offset=7200")
        let before = Date()
        let time = try #require(try await client(server).logIn().serverTime)
        let after = Date()
        #expect(time >= before.addingTimeInterval(7_200 - 1) && time <= after.addingTimeInterval(7_200))
    }

    @Test func aDeviceNameFromTheServerIsOnePrintableLine() throws {
        let actions = try #require(try GpodderAnswer.episodeActions(Data(#"""
            {"timestamp": 1, "actions": [
              {"podcast": "https://a.example/feed", "episode": "https://a.example/1.mp3", "action": "play", "timestamp": 1700000000,
               "device": "phone\u001b]0;x\u0007\u009b"},
              {"podcast": "https://a.example/\u001b[2J", "episode": "https://a.example/1.mp3", "action": "play", "timestamp": 1}]}
            """#.utf8))?.actions)
        #expect(actions.map(\.device) == ["phone ]0;x  "])
    }

    /// An answer is read into the actions and URLs it holds, as the API describes them: the
    /// first of a name given twice, numbers or dates as times, anything else read past.
    @Test func anAnswerIsReadIntoItsValuesAndNothingElse() throws {
        let page = try #require(try GpodderAnswer.episodeActions(Data(#"""
            {"actions": [
              {"podcast": "https://a.example/feed", "episode": "https://a.example/1.mp3", "action": "PLAY", "timestamp": "2026-11-23T07:45:00",
               "started": 0, "position": 120.7, "total": 3600, "podcast": "https://b.example/feed", "extra": {"deep": [1, 2, 3]}},
              {"podcast": "https://a.example/feed", "episode": "https://a.example/2.mp3", "action": "new", "timestamp": 1700000000.9,
               "position": -5, "total": 1e12},
              {"podcast": "https://a.example/feed", "episode": "ftp://a.example/3.mp3", "action": "play", "timestamp": 1},
              {"podcast": "https://a.example/feed", "episode": "https://a.example/4.mp3", "action": "jump", "timestamp": 1},
              {"podcast": "https://a.example/feed", "episode": "https://a.example/5.mp3", "action": "play", "timestamp": 1e300},
              {"a": 0}, 0, "play", null],
             "timestamp": 1700000001, "timestamp": "later"}
            """#.utf8)))
        #expect(page.timestamp == 1_700_000_001)
        let actions = try #require(page.actions)
        #expect(actions.count == 2)
        #expect(actions.first == EpisodeAction(podcast: "https://a.example/feed", episode: "https://a.example/1.mp3", kind: .play,
                                               timestamp: Date(timeIntervalSince1970: 1_795_419_900), started: 0, position: 120, total: 3600))
        #expect(actions.last?.kind == .new && actions.last?.position == nil && actions.last?.total == nil)
        #expect(actions.last?.timestamp == Date(timeIntervalSince1970: 1_700_000_000))

        let changes = try #require(try GpodderAnswer.subscriptionChanges(Data(#"""
            {"add": ["https://a.example/feed", 7, "file:///etc/passwd", "http://b.example/feed", "https://c.example/ feed"],
             "remove": [], "update_urls": [["a", "b"]], "timestamp": 12}
            """#.utf8)))
        #expect(changes.add == ["https://a.example/feed", "http://b.example/feed"] && changes.remove == [] && changes.timestamp == 12)
        #expect(try GpodderAnswer.subscriptionChanges(Data("[1, 2]".utf8)) == nil)
        #expect(try GpodderAnswer.subscriptionChanges(Data(#"{"add": "x", "timestamp": 1}"#.utf8))?.add == nil)

        let upload = try #require(try GpodderAnswer.upload(Data(#"""
            {"timestamp": 5, "update_urls": [["https://a.example/feed ", "https://a.example/feed"], ["https://x.example/", ""],
             ["https://y.example/", "javascript:alert(1)"], ["one"], ["a", "b", "c"], 3]}
            """#.utf8)))
        #expect(upload == SyncUpload(timestamp: 5, rewrites: [URLRewrite(from: "https://a.example/feed ", to: "https://a.example/feed"),
                                                              URLRewrite(from: "https://x.example/", to: "")]))
    }

    /// A list is kept whole or not at all: one item past the cap is an error, never a
    /// prefix taken for the whole list (a bomb would otherwise read as "no changes").
    @Test func aListPastItsCapIsAnErrorNotAPrefix() throws {
        let cap = GpodderAnswer.maximumItems
        let full = Data(("{\"add\": [" + Array(repeating: "0", count: cap).joined(separator: ",") + "], \"remove\": [], \"timestamp\": 1}").utf8)
        #expect(try GpodderAnswer.subscriptionChanges(full)?.add == [])
        let over = Data(("{\"add\": [" + Array(repeating: "{}", count: cap + 1).joined(separator: ",") + "], \"remove\": [], \"timestamp\": 1}").utf8)
        let error = #expect(throws: JSONReadError.self) { try GpodderAnswer.subscriptionChanges(over) }
        #expect(error?.code == .tooLarge && error?.message == "a list of more than \(cap) items", "\(String(describing: error))")
        let actions = Data(("{\"actions\": [" + Array(repeating: "0", count: cap + 1).joined(separator: ",") + "], \"timestamp\": 1}").utf8)
        #expect(throws: JSONReadError.self) { try GpodderAnswer.episodeActions(actions) }
    }
}
