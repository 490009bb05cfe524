/// What one `View1.Updated` tells a view's owner (docs/bus-api.md), decoded: a change to the
/// view's slice, the whole slice again after the view fell behind (`resync`, "Flow
/// control"), or that a change happened which was too large for a bus message (`tooLarge`:
/// read the state again). `WireCoding.decode(ViewUpdate<S, C>.self, fromFields:)` makes one
/// from the signal's `a{sv}` (`ViewUpdate+Wire`).
public enum ViewUpdate<State, Change> {
    /// A change, as `Changed` and `Updated` carry it.
    case changed(Change)
    /// `{"kind": "resync", "state": a{sv}}`: the view's whole slice at the update's revision.
    case resynchronised(State)
    /// `{"kind": "tooLarge", "was": s}`: a change of kind `was` happened; its details did not fit.
    case tooLarge(was: String)
}

extension ViewUpdate: Sendable where State: Sendable, Change: Sendable {}
extension ViewUpdate: Equatable where State: Equatable, Change: Equatable {}
