/// Flow control for one remote view: how many of the updates sent to it may be waiting
/// unacknowledged (in the bus's queue for a client that does not read, or in the client),
/// and what happens past that.
///
/// A message bus gives signals no back-pressure: a client that stops reading makes the bus
/// queue everything sent to it. So a view may have at most `size` updates, and at most
/// `byteBudget` bytes of them, unacknowledged. Past that it is *behind*: its changes are
/// not sent (they are not queued either: the document's state holds them). When its client
/// acknowledges again, it is sent one update carrying its whole slice at the current
/// revision (a resync), and goes on as before. The client acknowledges with
/// `View1.Ack(revision)`, or simply by answering the `org.freedesktop.DBus.Peer.Ping` the
/// daemon sends it once half the window is used (docs/bus-api.md, "Flow control").
public struct UpdateWindow: Sendable, Hashable {
    /// The most updates a view may have unacknowledged: enough for a client that keeps up at
    /// thousands of changes a second while its acknowledgement is on its way back.
    public static let size = 128
    /// The most bytes of updates a view may have unacknowledged (a weather reading with its
    /// forecast is 16 KB): what a client that stops reading costs the bus, per view.
    public static let byteBudget = 512 * 1024

    /// The revisions of the updates sent and not yet acknowledged, oldest first.
    public var unacknowledged: [UInt64] { sent.map(\.revision) }
    /// Their bytes (message bodies), in all.
    public private(set) var unacknowledgedBytes = 0
    private var sent: [(revision: UInt64, bytes: Int)] = []
    /// Changes were held back since the window filled; a resync is owed.
    public private(set) var behind = false
    /// A resync was asked of the document and has not been sent yet.
    public private(set) var resyncPending = false

    public init() {}

    public static func == (a: UpdateWindow, b: UpdateWindow) -> Bool {
        a.unacknowledged == b.unacknowledged && a.unacknowledgedBytes == b.unacknowledgedBytes && a.behind == b.behind && a.resyncPending == b.resyncPending
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(unacknowledged)
        hasher.combine(behind)
    }

    /// Whether the update of a change may be sent now. `false` once the window is full:
    /// then the view is behind, and stays so until it catches up (`acknowledge`).
    public mutating func admit() -> Bool {
        guard !behind else { return false }
        guard sent.count < Self.size, unacknowledgedBytes < Self.byteBudget else {
            behind = true
            return false
        }
        return true
    }

    /// An update at `revision` was sent, `bytes` long.
    public mutating func sent(_ revision: UInt64, bytes: Int = 0) {
        sent.append((revision, bytes))
        unacknowledgedBytes += bytes
    }

    /// Whether the daemon should find out how far the client has read (half the window is
    /// used, or the view is behind and waits for its client).
    public var wantsProbe: Bool {
        behind ? !resyncPending : sent.count >= Self.size / 2 || unacknowledgedBytes >= Self.byteBudget / 2
    }

    /// The client has every update up to `revision`. Returns `true` when this lets a view
    /// that is behind catch up: then the caller asks the document for the view's resync.
    public mutating func acknowledge(upTo revision: UInt64) -> Bool {
        let acknowledged = sent.prefix { $0.revision <= revision }
        unacknowledgedBytes -= acknowledged.reduce(0) { $0 + $1.bytes }
        sent.removeFirst(acknowledged.count)
        guard behind, !resyncPending, sent.count < Self.size / 2, unacknowledgedBytes < Self.byteBudget / 2 else { return false }
        resyncPending = true
        return true
    }

    /// The resync was sent at `revision`, `bytes` long: the view is current again.
    public mutating func resynced(at revision: UInt64, bytes: Int = 0) {
        behind = false
        resyncPending = false
        sent(revision, bytes: bytes)
    }

    /// The newest revision sent, if any is unacknowledged.
    public var newestSent: UInt64? { sent.last?.revision }
}
