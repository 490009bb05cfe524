public import AlmanacCore
import AlmanacModels
import AlmanacFeeds
public import FoundationEssentials
import Locking
import Synchronization

/// The client of one account on a gpodder.net-compatible server, over `HTTPClient`: the
/// gpodder.net API v2 (gpodder.net, mygpo, opodsync) or the Nextcloud app gPodder Sync,
/// given or found by asking (`logIn`). docs/sync.md lists every request it makes.
///
/// gpodder flavour: `logIn` posts to `auth/USER/login.json` with HTTP Basic and keeps the
/// `sessionid` cookie the server sets; later requests send the cookie alone, and a `401`
/// then logs in again once and repeats the request. Nextcloud: HTTP Basic on every request.
/// Every answer is read whole (at most `maximumAnswerBytes`) into the values it is for
/// (`GpodderAnswer`) and checked before anything is returned; failures are `SyncError`s that say which server, which request and why. A
/// redirect to another origin is not followed: the cookie and password are for this server.
public final class GpodderClient: SyncServer {
    /// The most bytes of one answer.
    public static let maximumAnswerBytes = 16 * 1024 * 1024

    private let credentials: SyncCredentials
    private let http: HTTPClient
    private let state: Locked<State>

    private struct State {
        var flavour: SyncFlavour?
        /// `sessionid=…`, once logged in (gpodder flavour).
        var cookie: String?
        /// The server answered as the flavour expects at least once.
        var verified = false
        /// The server refused the session check (`login.json` with the cookie alone), as
        /// opodsync does: later checks send HTTP Basic with the cookie, which keeps the session.
        var checkWithPassword = false
    }

    /// The time (the daemon's clock).
    private let clock: @Sendable () -> Date

    public init(_ credentials: SyncCredentials,
                http: HTTPClient = HTTPClient(timeout: 30, accept: "application/json", maximumBytes: GpodderClient.maximumAnswerBytes,
                                              conditional: false, redirectsElsewhere: false),
                clock: @escaping @Sendable () -> Date = SystemClock().reading) {
        self.credentials = credentials
        self.clock = clock
        self.http = http
        state = Locked(State(flavour: credentials.flavour))
    }

    private var host: String { URL(string: credentials.server)?.host ?? credentials.server }
    private var user: String { Self.segment(credentials.user) }
    private var device: String { Self.segment(credentials.device) }

    // MARK: SyncServer

    public func logIn() async throws -> SyncLogin {
        switch state.withLock({ $0.flavour }) {
        case .gpodder?:
            return SyncLogin(flavour: .gpodder, serverTime: try await gpodderLogIn(probing: false))
        case .nextcloud?:
            return SyncLogin(flavour: .nextcloud, serverTime: try await nextcloudCheck(probing: false))
        case nil:
            return try await probe()
        }
    }

    public func register(caption: String) async throws {
        guard state.withLock({ $0.flavour }) == .gpodder else { return }
        let answer = try await api("POST", "/api/2/devices/\(user)/\(device).json", json: ["caption": caption, "type": "desktop"])
        try check(answer, "POST /api/2/devices/…/\(credentials.device).json")
        // Synchronized devices share their subscriptions (gpodder.net keeps them per device):
        // this one joins the user's largest group, or, without one, the user's other devices.
        guard let status = try? await api("GET", "/api/2/sync-devices/\(user).json"), status.status == 200,
              let devices = try? GpodderAnswer.syncDevices(status.body) else { return }
        let groups = devices.groups
        if groups.contains(where: { $0.contains(credentials.device) }) { return }
        let others = devices.others.filter { $0 != credentials.device }
        let group = groups.max { $0.count < $1.count } ?? others
        guard !group.isEmpty else { return }
        _ = try? await api("POST", "/api/2/sync-devices/\(user).json", json: ["synchronize": [[credentials.device] + group]])
    }

    public func subscriptionChanges(since: Int64) async throws -> SubscriptionChanges {
        let (path, what) = flavourPaths(gpodder: "/api/2/subscriptions/\(user)/\(device).json", nextcloud: "/index.php/apps/gpoddersync/subscriptions")
        let answer = try await api("GET", path, query: [("since", String(max(since, 0)))])
        try check(answer, "GET \(what)")
        let changes = try read(answer, "GET \(what)", GpodderAnswer.subscriptionChanges)
        guard let timestamp = changes.timestamp, let add = changes.add, let remove = changes.remove else {
            throw malformed("GET \(what)", "it has no `add`, `remove` and `timestamp`")
        }
        return SubscriptionChanges(add: add, remove: remove, timestamp: timestamp)
    }

    public func uploadSubscriptions(add: [String], remove: [String]) async throws -> SyncUpload {
        let (path, what) = flavourPaths(gpodder: "/api/2/subscriptions/\(user)/\(device).json",
                                        nextcloud: "/index.php/apps/gpoddersync/subscription_change/create")
        let answer = try await api("POST", path, json: ["add": add, "remove": remove])
        try check(answer, "POST \(what)")
        return try upload(answer, "POST \(what)")
    }

    /// The most answers one call reads: mygpo (gpodder.net) gives at most 1,000 actions an
    /// answer, so 100 pages are 100,000 actions.
    static let maximumActionPages = 100

    /// Every action after `since`, over as many answers as the server needs. mygpo gives at
    /// most `MAX_EPISODE_ACTIONS` (1,000) oldest first, with the last one's time as the
    /// answer's `timestamp`: while an answer's newest action is of the very second of its
    /// `timestamp`, the actions from that second on are asked for again (those of that
    /// second come twice and are kept once). A server whose `timestamp` is its clock
    /// (opodsync, Nextcloud) is asked once, unless an action came in that very second.
    public func episodeActions(since: Int64) async throws -> EpisodeActionChanges {
        var from = max(since, 0)
        var actions: [EpisodeAction] = []
        var seen = Set<EpisodeAction>()
        for _ in 0..<Self.maximumActionPages {
            let page = try await episodeActionPage(since: from)
            actions += page.actions.filter { seen.insert($0).inserted }
            let newest = page.actions.map { Int64($0.timestamp.timeIntervalSince1970.rounded(.down)) }.max()
            guard newest == page.timestamp, page.timestamp > from else {
                return EpisodeActionChanges(actions: actions, timestamp: page.timestamp)
            }
            from = page.timestamp
        }
        return EpisodeActionChanges(actions: actions, timestamp: from)
    }

    private func episodeActionPage(since: Int64) async throws -> EpisodeActionChanges {
        let (path, what) = flavourPaths(gpodder: "/api/2/episodes/\(user).json", nextcloud: "/index.php/apps/gpoddersync/episode_action")
        let answer = try await api("GET", path, query: [("since", String(since))])
        try check(answer, "GET \(what)")
        let page = try read(answer, "GET \(what)", GpodderAnswer.episodeActions)
        guard let timestamp = page.timestamp, let actions = page.actions else {
            throw malformed("GET \(what)", "it has no `actions` and `timestamp`")
        }
        return EpisodeActionChanges(actions: actions, timestamp: timestamp)
    }

    public func uploadActions(_ actions: [EpisodeAction]) async throws -> SyncUpload {
        let (path, what) = flavourPaths(gpodder: "/api/2/episodes/\(user).json", nextcloud: "/index.php/apps/gpoddersync/episode_action/create")
        let body: [[String: Any]] = actions.map { action in
            var item: [String: Any] = [
                "podcast": action.podcast, "episode": action.episode, "action": action.kind.rawValue,
                "timestamp": Self.timestamp(action.timestamp), "device": credentials.device,
            ]
            if let started = action.started { item["started"] = started }
            if let position = action.position { item["position"] = position }
            if let total = action.total { item["total"] = total }
            return item
        }
        let answer = try await api("POST", path, json: body)
        try check(answer, "POST \(what)")
        return try upload(answer, "POST \(what)")
    }

    public func logOut() async {
        guard state.withLock({ $0.flavour }) == .gpodder, let cookie = state.withLock({ $0.cookie }) else { return }
        _ = try? await send("POST", "/api/2/auth/\(user)/logout.json", headers: ["Cookie": cookie])
        state.withLock { $0.cookie = nil }
    }

    // MARK: Logging in

    /// Asks the gpodder.net paths first, then Nextcloud's; the first that answers as its
    /// flavour does is the server's. A 401 from either is a refusal of the password.
    private func probe() async throws -> SyncLogin {
        let gpodderStatus: Int
        do {
            let time = try await gpodderLogIn(probing: true)
            state.withLock { $0.flavour = .gpodder }
            return SyncLogin(flavour: .gpodder, serverTime: time)
        } catch let error as Probe {
            gpodderStatus = error.status
        }
        do {
            let time = try await nextcloudCheck(probing: true)
            state.withLock { $0.flavour = .nextcloud }
            return SyncLogin(flavour: .nextcloud, serverTime: time)
        } catch let error as Probe {
            throw SyncError(.notASyncServer, "\(credentials.server) does not answer as a gpodder.net server (POST /api/2/auth/…/login.json: \(Self.said(gpodderStatus))) nor as Nextcloud gPodder Sync (GET /index.php/apps/gpoddersync/subscriptions: \(Self.said(error.status))). Check the address; for Nextcloud, the gPodder Sync app must be installed.")
        }
    }

    /// Not the flavour asked (while probing): the status it answered (0: not JSON).
    private struct Probe: Error {
        let status: Int
    }

    private static func said(_ status: Int) -> String {
        status == 0 ? "an answer that is not the API's" : "HTTP \(status)"
    }

    /// `POST auth/USER/login.json` with HTTP Basic; keeps the session cookie. The first time,
    /// also checks that the server answers the API (`GET devices/USER.json` is a JSON list).
    private func gpodderLogIn(probing: Bool) async throws -> Date? {
        let path = "/api/2/auth/\(user)/login.json"
        // With a session already: the same call with its cookie checks that it is still
        // valid (as the API suggests), without opening another.
        // opodsync refuses that call without HTTP Basic (401, "No username or password
        // provided") while it takes the cookie everywhere else: after one such refusal, the
        // check sends both, so the same session goes on and no 401 comes at each sync.
        let (kept, withPassword) = state.withLock { ($0.cookie, $0.checkWithPassword) }
        if let cookie = kept, !withPassword {
            let answer = try await send("POST", path, headers: ["Cookie": cookie])
            if answer.status == 200 {
                if let renewed = Self.sessionCookie(answer.headers["set-cookie"]) { state.withLock { $0.cookie = renewed } }
                return Self.date(answer.headers["date"])
            }
            state.withLock { state in
                state.cookie = nil
                state.checkWithPassword = answer.status == 401
            }
        }
        var headers = ["Authorization": basic]
        if withPassword, let kept { headers["Cookie"] = kept }
        let answer = try await send("POST", path, headers: headers)
        if answer.status == 401 { throw refused() }
        if probing, answer.status != 200 { throw Probe(status: answer.status) }
        try check(answer, "POST /api/2/auth/…/login.json")
        let cookie = Self.sessionCookie(answer.headers["set-cookie"]) ?? (withPassword ? kept : nil)
        state.withLock { $0.cookie = cookie }
        if !state.withLock({ $0.verified }) {
            let devices = try await api("GET", "/api/2/devices/\(user).json")
            guard devices.status == 200, GpodderAnswer.isList(devices.body) else {
                if probing { throw Probe(status: devices.status == 200 ? 0 : devices.status) }
                try check(devices, "GET /api/2/devices/…")
                throw SyncError(.notASyncServer, "\(credentials.server) accepted the login but does not answer the gpodder.net API (GET /api/2/devices/…: \(Self.said(devices.status == 200 ? 0 : devices.status))). Check the address, or try --flavour nextcloud.")
            }
            state.withLock { $0.verified = true }
        }
        return Self.date(answer.headers["date"])
    }

    /// Nextcloud has no login call: a request for the subscription changes after now (none)
    /// checks the password and that the app answers.
    private func nextcloudCheck(probing: Bool) async throws -> Date? {
        let now = String(Int64(clock().timeIntervalSince1970) + 86_400)
        let answer = try await send("GET", "/index.php/apps/gpoddersync/subscriptions", query: [("since", now)], headers: ["Authorization": basic])
        if answer.status == 401 { throw refused() }
        let changes = answer.status == 200 ? try? GpodderAnswer.subscriptionChanges(answer.body) : nil
        guard let changes, changes.add != nil, changes.remove != nil else {
            if probing { throw Probe(status: answer.status == 200 ? 0 : answer.status) }
            try check(answer, "GET /index.php/apps/gpoddersync/subscriptions")
            throw SyncError(.notASyncServer, "\(credentials.server) does not answer as Nextcloud gPodder Sync (GET /index.php/apps/gpoddersync/subscriptions: \(Self.said(0))). Check the address and that the gPodder Sync app is installed, or try --flavour gpodder.")
        }
        state.withLock { $0.verified = true }
        return Self.date(answer.headers["date"])
    }

    // MARK: Requests

    private var basic: String {
        "Basic " + Data("\(credentials.user):\(credentials.password)".utf8).base64EncodedString()
    }

    private func flavourPaths(gpodder: String, nextcloud: String) -> (path: String, what: String) {
        if state.withLock({ $0.flavour }) == .nextcloud { return (nextcloud, nextcloud) }
        return (gpodder, gpodder.replacing("/\(user)", with: "/…"))
    }

    /// An API request: Nextcloud with HTTP Basic; gpodder.net with the session cookie (HTTP
    /// Basic before there is one), logging in again once when the cookie is refused.
    private func api(_ method: String, _ path: String, query: [(String, String)] = [], json: Any? = nil) async throws -> HTTPClient.Response {
        let body = try json.map { try LooseJSON.data(from: $0) }
        var headers = body == nil ? [:] : ["Content-Type": "application/json"]
        guard state.withLock({ $0.flavour }) == .gpodder, let cookie = state.withLock({ $0.cookie }) else {
            headers["Authorization"] = basic
            return try await send(method, path, query: query, body: body, headers: headers)
        }
        let answer = try await send(method, path, query: query, body: body, headers: headers.merging(["Cookie": cookie]) { $1 })
        guard answer.status == 401 else { return answer }
        // The session ended (expired, logged out elsewhere): once more, with a new one.
        state.withLock { $0.cookie = nil }
        _ = try await gpodderLogIn(probing: false)
        if let renewed = state.withLock({ $0.cookie }) {
            headers["Cookie"] = renewed
        } else {
            headers["Authorization"] = basic
        }
        return try await send(method, path, query: query, body: body, headers: headers)
    }

    private func send(_ method: String, _ path: String, query: [(String, String)] = [], body: Data? = nil,
                      headers: [String: String] = [:]) async throws -> HTTPClient.Response {
        var text = credentials.server + path
        if !query.isEmpty { text += "?" + query.map { "\($0.0)=\(Self.segment($0.1))" }.joined(separator: "&") }
        guard let url = URL(string: text) else { throw SyncError(.invalid, "'\(credentials.server)' cannot be made into a request URL.") }
        do {
            return try await http.send(method, url, body: body, headers: headers)
        } catch let error as FetchError where error.tooLarge {
            throw SyncError(.tooLarge, "\(host) sent more than the \(Self.maximumAnswerBytes / 1024 / 1024) MiB Almanac reads in one answer (\(method) \(path.replacing("/\(user)", with: "/…"))); nothing was changed.")
        } catch {
            throw SyncError(.unreachable, Self.unreachable(host, error))
        }
    }

    /// The client's words for no answer, naming the sync server as the user gave it.
    private static func unreachable(_ host: String, _ error: any Error) -> String {
        let text = "\(error)"
        guard text.hasPrefix("Could not reach "), let colon = text.firstIndex(of: ":") else { return text }
        let reason = String(text[text.index(after: colon)...]).trimmed
        return "Could not reach \(host): \(reason)" + (reason.hasSuffix(".") ? "" : ".")
    }

    /// Throws for anything but a 2xx: a refusal for 401, else the status with the server's
    /// reason when it gave one as text.
    private func check(_ answer: HTTPClient.Response, _ what: String) throws {
        switch answer.status {
        case 200..<300: return
        case 401: throw refused()
        case 404:
            throw SyncError(.notASyncServer, "\(host) has no \(what) (HTTP 404): check the server's address\(credentials.flavour == nil ? "" : " and its flavour (--flavour)").")
        default:
            let reason = Self.reason(in: answer)
            throw SyncError(.httpStatus, "\(host) answered \(what) with HTTP \(answer.status)" + (reason.isEmpty ? "." : ": \(reason)"))
        }
    }

    private func refused() -> SyncError {
        SyncError(.refused, "\(host) refused the user name and password of '\(credentials.user)' (HTTP 401).")
    }

    /// A server's reason in a short plain-text or JSON body ("can not add and remove …").
    private static func reason(in answer: HTTPClient.Response) -> String {
        let type = answer.headers["content-type"]?.lowercased() ?? ""
        guard !type.contains("html"), answer.body.count <= 4_096 else { return "" }
        let text = GpodderAnswer.message(answer.body) ?? String(decoding: answer.body, as: UTF8.self)
        return text.printableLine(maximumLength: 300)
    }

    /// `answer` read by `reader` (`GpodderAnswer`): `SyncError(.malformed)` when it is not
    /// JSON, or not an object; `.tooLarge` when a list holds more than Almanac reads.
    private func read<Value>(_ answer: HTTPClient.Response, _ what: String, _ reader: (Data) throws -> Value?) throws -> Value {
        let value: Value?
        do {
            value = try reader(answer.body)
        } catch let error as JSONReadError where error.code == .tooLarge {
            throw SyncError(.tooLarge, "\(host) answered \(what) with \(error.message), more than Almanac reads in one answer; nothing was changed.")
        } catch let error as JSONReadError {
            throw malformed(what, error.code == .syntax ? "it is not JSON" : error.message)
        }
        guard let value else { throw malformed(what, "it is not a JSON object") }
        return value
    }

    private func malformed(_ what: String, _ why: String) -> SyncError {
        SyncError(.malformed, "\(host) answered \(what) with something that is not what the gpodder.net API describes (\(why)); nothing was changed.")
    }

    private func upload(_ answer: HTTPClient.Response, _ what: String) throws -> SyncUpload {
        // Some servers answer an upload with an empty body.
        guard !answer.body.isEmpty else { return SyncUpload(timestamp: nil) }
        return try read(answer, what, GpodderAnswer.upload)
    }

    // MARK: Values

    /// `2026-11-23T07:45:00`: UTC, as the API's examples and gPodder's clients write it.
    static func timestamp(_ date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let day = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let rest = seconds - day * 86_400
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return CalendarDay.string(daysSinceEpoch: day) + "T\(two(rest / 3600)):\(two(rest % 3600 / 60)):\(two(rest % 60))"
    }

    private static func date(_ header: String?) -> Date? {
        header.flatMap(FeedDate.unixTime).map { Date(timeIntervalSince1970: Double($0)) }
    }

    /// `sessionid=…` from a `Set-Cookie` header (several may come joined by commas).
    static func sessionCookie(_ header: String?) -> String? {
        guard let header else { return nil }
        for piece in header.split(whereSeparator: { $0 == "," || $0 == ";" }) {
            let part = piece.trimmed
            if part.hasPrefix("sessionid="), part.count > "sessionid=".count { return part }
        }
        return nil
    }

    /// Percent-encodes a path segment or query value (everything but unreserved characters).
    static func segment(_ text: String) -> String {
        var encoded = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                encoded += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return encoded
    }
}
