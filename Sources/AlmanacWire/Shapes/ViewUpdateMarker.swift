import DBus

/// The updates the bus layer itself makes, whatever the document, both ways:
/// `{"kind": "resync", "state": a{sv}}` (a view's whole slice, in `GetState`'s shape) and
/// `{"kind": "tooLarge", "was": s}` (a change of kind `was` happened; it did not fit a
/// message). The server writes them with the state it has encoded (`State` is
/// `[String: Value]`); a client reads them with its document's state (`ViewUpdate`).
public struct ViewUpdateMarker<State: Codable>: Codable, WireShaped {
    public typealias Wire = ViewUpdateMarker
    static var resyncKind: String { "resync" }
    static var tooLargeKind: String { "tooLarge" }

    var kind: String
    var state: State?
    var was: String?

    init(kind: String, state: State? = nil, was: String? = nil) {
        self.kind = kind
        self.state = state
        self.was = was
    }

    /// A view's whole slice again.
    public static func resync(_ state: State) -> ViewUpdateMarker { ViewUpdateMarker(kind: resyncKind, state: state) }

    /// Standing for a change of kind `was` too large for a message.
    public static func tooLarge(was: String) -> ViewUpdateMarker { ViewUpdateMarker(kind: tooLargeKind, was: was) }

    /// `{"kind": "restored"}`: the broadcast `Changed` of a document whose whole state was
    /// replaced (a library restored from a backup); its views hear a `resync` with it.
    public static var restored: ViewUpdateMarker { ViewUpdateMarker(kind: "restored") }

    /// Whether this is one of the two, not a document's change.
    var isMarker: Bool { kind == Self.resyncKind || kind == Self.tooLargeKind }
}
