import DBus

extension ViewUpdate: WireShaped where State: WireShaped, Change: WireShaped {
    /// An `Updated`'s `a{sv}`: a change's own (its `kind` and fields), or one of the two the
    /// bus layer makes whatever the document (`ViewUpdateMarker`).
    public struct Wire: Codable {
        var marker: ViewUpdateMarker<State.Wire>
        var change: Change.Wire?

        init(marker: ViewUpdateMarker<State.Wire>, change: Change.Wire? = nil) {
            self.marker = marker
            self.change = change
        }

        /// A marker's kind, or else a change of the document's.
        public init(from decoder: any Decoder) throws {
            marker = try ViewUpdateMarker(from: decoder)
            change = marker.isMarker ? nil : try Change.Wire(from: decoder)
        }

        public func encode(to encoder: any Encoder) throws {
            if let change { try change.encode(to: encoder) } else { try marker.encode(to: encoder) }
        }
    }

    public var wire: Wire {
        switch self {
        case .changed(let change): Wire(marker: ViewUpdateMarker(kind: ""), change: change.wire)
        case .resynchronised(let state): Wire(marker: .resync(state.wire))
        case .tooLarge(let was): Wire(marker: .tooLarge(was: was))
        }
    }

    public init(wire: Wire) throws {
        let marker = wire.marker
        switch marker.kind {
        case ViewUpdateMarker<State.Wire>.resyncKind: self = .resynchronised(try State(wire: marker.state.needed("state", by: "A resync")))
        case ViewUpdateMarker<State.Wire>.tooLargeKind: self = .tooLarge(was: try marker.was.needed("was", by: "A tooLarge update"))
        default: self = .changed(try Change(wire: wire.change.needed("kind", by: "An update")))
        }
    }
}
