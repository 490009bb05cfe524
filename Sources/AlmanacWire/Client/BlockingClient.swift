public import DBus

/// The daemon's documents for a one-shot command that needs one answer: `GetState` over a
/// `BlockingConnection`, on the calling thread, with no event loop or tasks started.
/// `AlmanacClient` does everything else (views, signals, waiting for readings).
public struct BlockingClient: ~Copyable {
    private let connection: BlockingConnection

    /// Connects to the session bus (or `address`).
    public init(address: String? = nil) throws {
        connection = try BlockingConnection(address: address)
    }

    /// `GetState` of a document, as `AlmanacClient.state(of:)` gives it (through
    /// `GetStateDescriptor` when it is too large for a message on this bus).
    public func state(of document: DocumentName) throws -> (revision: UInt64, state: [String: Value]) {
        do {
            return try connection.call(BusContract.Document1.getState, on: BusContract.serviceName, path: BusContract.documentPath(document), ())
        } catch let error as BusError where error.name == .limitsExceeded {
            let payload = try connection.call(BusContract.Document1.getStateDescriptor, on: BusContract.serviceName, path: BusContract.documentPath(document), ())
            return try BusContract.Document1.getState.reply(of: Message(payload: payload))
        }
    }
}
