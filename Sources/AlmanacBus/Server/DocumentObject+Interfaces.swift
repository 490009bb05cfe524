import AlmanacCore
import AlmanacWire
import AlmanacModels
import DBus
import Locking
import Logging
import Synchronization
import FoundationEssentials

/// The bus interfaces a document object exports: the document's own (GetState, AddView,
/// RemoveView, Refresh and its properties) and each view's (SetOptions, Ack, LoadMore, …).
extension DocumentObject {
    // MARK: Interfaces

    func documentInterface() throws -> Interface {
        let document = adapter.document
        return try Interface(BusContract.documentInterface.rawValue, methods: [
            // The snapshot is taken by the document's owner in turn with the changes sent before
            // it (a client's Submits before it count, its AddLocation after it does not), and
            // awaited in the reply's task, which holds no thread meanwhile; encoding it, which
            // grows with the library, happens there too, so it holds up no other client
            // (reliability.md), and counts among its caller's calls under way.
            Method(BusContract.Document1.getState, offloading: { [adapter] _, _ in
                let snapshot = Self.snapshot(after: adapter)
                return {
                    let (revision, state) = try await snapshot()
                    return (revision, try WireCoding.fields(state))
                }
            }, checkingLength: { [weak connection] _, _, length in
                try LargeAnswers.check(length, on: connection, "The state", instead: "call GetStateDescriptor to receive it as a file descriptor")
            }),
            // GetState's reply, written as its definition's types, in a sealed memory file.
            Method(BusContract.Document1.getStateDescriptor, offloading: { [adapter] _, _ in
                let snapshot = Self.snapshot(after: adapter)
                return {
                    let (revision, state) = try await snapshot()
                    let encoded = try WireCoding.fields(state)
                    return try LargeAnswers.payload("The state") { try BusContract.Document1.getState.writeReply((revision, encoded), to: &$0) }
                }
            }),
            Method(BusContract.Document1.addView) { [weak self] call, options in
                guard let self else { throw BusError.failed("The daemon is shutting down.") }
                guard let owner = call.sender else { throw BusError.accessDenied("Views can only be added over a message bus.") }
                return try addView(owner: owner, rawOptions: options)
            },
            Method(BusContract.Document1.removeView) { [weak self] call, path in
                try self?.removeView(path, caller: call.sender)
            },
            // Answered after the change is saved: the document's owner writes a burst of them at once.
            // Its origin is the caller's view when it holds exactly one (View1.Submit names it).
            Method.deferred(BusContract.Document1.submit) { [adapter, weak self] call, change, reply in
                let origin = call.sender.flatMap { sender -> ViewKey? in
                    let owned = self?.views.withLock { $0.byPath.values.filter { $0.owner == sender }.map(\.path) } ?? []
                    return owned.count == 1 ? ViewKey(owned[0].rawValue) : nil
                }
                try adapter.submit(change, from: origin) { result in reply.answer(result) { $0 } }
            },
            Method(BusContract.Document1.refresh, async: { [weak self] _, _ in await self?.refresh() }),
        ], properties: [
            Property(BusContract.Document1.revision) { document.revision },
            Property(BusContract.Document1.loading) { [activity = adapter.activity] in activity.isLoading },
            Property(BusContract.Document1.lastError) { [activity = adapter.activity] in activity.lastError },
            Property(BusContract.Document1.viewCount) { [weak self] in UInt32(self?.viewCount ?? 0) },
            // Read when asked, not announced: it moves with every fetch.
            Property(BusContract.Document1.nextRefresh) { [adapter] in
                adapter.nextRefresh.flatMap { Int64(exactly: $0.timeIntervalSince1970.rounded(.up)) } ?? 0
            },
        ], signals: [
            SignalDescription(BusContract.Document1.changed),
        ])
    }

    /// Asks the document's owner for a snapshot in turn with what was sent to it before (on
    /// the connection's thread, so in the order the calls came); the function returned awaits
    /// it (in the reply's task, holding no thread: the owner takes it as soon as its burst
    /// under way is done).
    private static func snapshot(after adapter: Adapter) -> @Sendable () async throws -> (revision: UInt64, state: Adapter.State) {
        // A stream of one, so that the snapshot waits for its reader, or the reader for it.
        let (taken, delivery) = AsyncStream.makeStream(of: (revision: UInt64, state: Adapter.State).self, bufferingPolicy: .bufferingNewest(1))
        let document = adapter.document
        adapter.afterOwner {
            delivery.yield(document.snapshot)
            delivery.finish()
        }
        return {
            var reader = taken.makeAsyncIterator()
            guard let snapshot = await reader.next() else { throw BusError.failed("The \(adapter.name) document took no snapshot.") }
            return snapshot
        }
    }

    func viewInterface(path: ObjectPath) throws -> Interface {
        try Interface(BusContract.viewInterface.rawValue, methods: [
            // A change from this view: every view hears it with this one as its origin.
            Method.deferred(BusContract.View1.submit) { [adapter, weak self] call, change, reply in
                guard let self else { throw BusError.failed("The daemon is shutting down.") }
                try views.withLock { views in
                    guard let view = views.byPath[path] else { throw BusError(BusContract.noSuchView, "\(path) is not a view of the \(adapter.name) document.") }
                    guard call.sender == view.owner else {
                        throw BusError.accessDenied("View \(path) belongs to \(view.owner); only its owner may submit through it.")
                    }
                }
                try adapter.submit(change, from: ViewKey(path.rawValue)) { result in reply.answer(result) { $0 } }
            },
            Method(BusContract.View1.setOptions) { [weak self] call, options in
                try self?.setOptions(path, caller: call.sender, rawOptions: options)
            },
            Method(BusContract.View1.remove) { [weak self] call, _ in
                try self?.removeView(path, caller: call.sender)
            },
            // Flow control: the owner has its updates up to a revision (sent without a reply wanted).
            Method(BusContract.View1.ack) { [weak self] call, revision in
                try self?.acknowledge(path, caller: call.sender, upTo: revision)
            },
            Method(BusContract.View1.loadMore, async: { [weak self] call, _ in
                guard let self else { throw BusError.failed("The daemon is shutting down.") }
                return try await self.loadPage(path, caller: call.sender, refresh: false)
            }),
            Method(BusContract.View1.refreshList, async: { [weak self] call, _ in
                guard let self else { throw BusError.failed("The daemon is shutting down.") }
                return try await self.loadPage(path, caller: call.sender, refresh: true)
            }),
        ], properties: [
            Property(BusContract.View1.owner) { [weak self] in self?.views.withLock { $0.byPath[path]?.owner.rawValue } ?? "" },
            Property(BusContract.View1.options) { [weak self] in Self.sortedOptions(self?.views.withLock { $0.byPath[path]?.rawOptions } ?? [:]) },
        ], signals: [
            SignalDescription(BusContract.View1.updated),
        ])
    }

    /// A view's options as its `Options` property holds them: keys sorted.
    static func sortedOptions(_ options: [String: Value]) -> VariantDictionary {
        VariantDictionary(.dictionary(key: .string, value: .variant, options.sorted { $0.key < $1.key }.map { .init(.string($0.key), .variant($0.value)) }))
    }
}
