public import DBus

/// The two updates the bus layer itself makes, whatever the document: both ways, so the
/// server's encoding and the clients' decoding are written once.
public enum ViewUpdateCodec {
    static let kind = "kind"
    static let resync = "resync"
    static let tooLarge = "tooLarge"
    static let restored = "restored"

    /// `{"kind": "restored"}`: the broadcast `Changed` of a document whose whole state was
    /// replaced (a library restored from a backup); its views hear a `resync` with it.
    public static func restoredChange() -> [String: Value] {
        [kind: .string(restored)]
    }

    /// `{"kind": "resync", "state": a{sv}}`: a view's whole slice (`state`, in `GetState`'s shape).
    public static func resync(_ state: [String: Value]) -> [String: Value] {
        [kind: .string(resync), "state": state.asVariantDictionary]
    }

    /// `{"kind": "tooLarge", "was": s}`, standing for `data`, a change too large for a message.
    public static func tooLarge(standingFor data: [String: Value]) -> [String: Value] {
        [kind: .string(tooLarge), "was": .string(data[kind]?.stringValue ?? "")]
    }

    /// The update `data` is: a resync or a tooLarge marker read here, any other kind by
    /// `change`, and the resync's state by `state`. `nil` for an `a{sv}` that is none of them
    /// (no `kind`, an unknown one, or one whose fields are missing or of another type).
    public static func decode<State, Change>(_ data: [String: Value], state: ([String: Value]) -> State?,
                                             change: ([String: Value]) -> Change?) -> ViewUpdate<State, Change>? {
        switch data[kind]?.stringValue {
        case resync?:
            return data["state"]?.stringKeyedEntries.flatMap(state).map { .resynchronised($0) }
        case tooLarge?:
            return data["was"]?.stringValue.map { .tooLarge(was: $0) }
        default:
            return change(data).map { .changed($0) }
        }
    }
}
