import AlmanacCore
import AlmanacWire
import DBus

// The view table's own steps, each taken under its one lock by `DocumentObject`.
extension DocumentObject.Views {
    /// What a view with `options` is told of the change at `revision`. Views with the same
    /// options (most have none, or one place) are told the same: it is made once per change.
    /// Throws what encoding the slice threw (nothing is kept then).
    mutating func slice(_ change: Adapter.Change, at revision: UInt64, for options: Adapter.Options) throws -> [String: Value]? {
        if let last = lastSlice, last.revision == revision, last.options == options { return last.data }
        let data = try Adapter.Codec.slice(change, for: options)
        lastSlice = (revision, options, data)
        return data
    }

    /// The newest revision sent to each of `owner`'s views.
    func newestSent(to owner: BusName) -> [ObjectPath: UInt64] {
        Dictionary(byPath.values.filter { $0.owner == owner }.map { ($0.path, $0.window.newestSent ?? 0) }, uniquingKeysWith: max)
    }

    /// `owner` has read every update of its views up to `revisions` (per view; `nil`: the
    /// newest each was sent). Returns the views that were behind and can catch up.
    mutating func acknowledge(_ owner: BusName, upTo revisions: [ObjectPath: UInt64]?) -> [ObjectPath] {
        var catchingUp: [ObjectPath] = []
        for (path, view) in byPath where view.owner == owner {
            // A view added after a probe went out: the probe says nothing of it.
            let revision: UInt64 = if let revisions { revisions[path] ?? 0 } else { view.window.newestSent ?? 0 }
            if byPath[path]?.window.acknowledge(upTo: revision) == true { catchingUp.append(path) }
        }
        return catchingUp
    }
}
