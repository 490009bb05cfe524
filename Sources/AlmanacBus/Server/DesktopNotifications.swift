public import DBus
import AlmanacModels

/// The session's notification server (`org.freedesktop.Notifications`) as every notice of
/// almanacd reaches it — new episodes, rain soon, weather alerts. Texts are given as plain
/// text, whatever a feed or an alert source wrote in them; the body is escaped here, in one
/// place, for a server that reads body markup — `body-markup`, `body-hyperlinks` or
/// `body-images` among its `GetCapabilities` (dunst 1.9 parses markup but lists only
/// `body-hyperlinks`) — so that a source's `<a href>`, `<img src="file:…">` or bare `&`
/// shows as the text it is and is never followed, loaded or taken for markup. The summary
/// is plain text by the specification, for every server.
public struct DesktopNotifications: Sendable {
    static let service: BusName = "org.freedesktop.Notifications"
    static let path: ObjectPath = "/org/freedesktop/Notifications"
    static let interface: InterfaceName = "org.freedesktop.Notifications"
    /// How long a call to the server may take: a desktop's server that does not answer holds up nothing for long.
    static let timeout: Duration = .seconds(5)

    /// What `notify` shows and how.
    public struct Notice: Sendable {
        public var summary: String
        public var body: String
        public var icon: String
        public var replaces: UInt32 = 0
        public var actions: [String] = []
        public var hints: [String: Value] = [:]
        /// Milliseconds; -1 for the server's default, 0 for never.
        public var expires: Int32 = -1

        /// `summary` and `body` as plain text.
        public init(summary: String, body: String, icon: String) {
            self.summary = summary
            self.body = body
            self.icon = icon
        }
    }

    private let connection: Connection

    public init(connection: Connection) {
        self.connection = connection
    }

    /// The server's capabilities (`GetCapabilities`); none when no server answers.
    public func capabilities() async -> [String] {
        (try? await connection.call(Self.service, path: Self.path, interface: Self.interface, method: "GetCapabilities",
                                    timeout: Self.timeout).arguments([String].self)) ?? []
    }

    /// Shows `notice`, its body escaped for a server that reads markup; `capabilities` are
    /// asked for when not given. Returns the notification's id and the server's unique name.
    public func notify(_ notice: Notice, capabilities: [String]? = nil) async throws -> (id: UInt32, server: BusName?) {
        let known = if let capabilities { capabilities } else { await self.capabilities() }
        let body = Self.body(notice.body, markup: Self.readsMarkup(known))
        let reply = try await connection.call(
            Self.service, path: Self.path, interface: Self.interface, method: "Notify", timeout: Self.timeout,
            arguments: "Almanac", notice.replaces, notice.icon, notice.summary, body, notice.actions, notice.hints, notice.expires
        )
        return (try reply.arguments(UInt32.self), reply.sender)
    }

    /// Closes notification `id`.
    public func close(_ id: UInt32) async throws {
        _ = try await connection.call(Self.service, path: Self.path, interface: Self.interface, method: "CloseNotification",
                                      timeout: Self.timeout, arguments: id)
    }

    /// Whether a server with `capabilities` reads the body as markup: it says `body-markup`,
    /// or handles links or images in the body, which it finds as markup (`<a href>`, `<img>`).
    public static func readsMarkup(_ capabilities: [String]) -> Bool {
        capabilities.contains { $0 == "body-markup" || $0 == "body-hyperlinks" || $0 == "body-images" }
    }

    /// `text` as a notification body: for a server that reads markup, `&`, `<` and `>`
    /// escaped (the Desktop Notifications specification's markup is XML-like: those three
    /// make text of anything a source wrote); for one that does not, as it is.
    public static func body(_ text: String, markup: Bool) -> String {
        markup ? text.markupEscaped : text
    }
}
