/// What a view hears from a document.
public enum DocumentEvent<State: Sendable, Change: Sendable>: Sendable {
    /// The state changed to `revision`; `origin` is the view that submitted the change, if any.
    case changed(revision: UInt64, change: Change, origin: ViewKey?)
    /// The view fell behind and missed events, or the whole state was replaced (a library
    /// restored from a backup: every view hears it): here is the whole state at `revision`.
    case resynchronised(revision: UInt64, state: State)

    /// The revision this event brings the view to.
    public var revision: UInt64 {
        switch self {
        case .changed(let revision, _, _), .resynchronised(let revision, _): revision
        }
    }
}
