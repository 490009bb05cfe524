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
            let reply = try connection.call(BusContract.serviceName, path: BusContract.documentPath(document),
                                            interface: BusContract.documentInterface, method: BusContract.Document1.getState)
            return try reply.arguments(UInt64.self, [String: Value].self)
        } catch let error as BusError where error.name == .limitsExceeded {
            let reply = try connection.call(BusContract.serviceName, path: BusContract.documentPath(document),
                                            interface: BusContract.documentInterface, method: BusContract.Document1.getStateDescriptor)
            return try Message(payload: try reply.arguments(UnixFD.self)).arguments(UInt64.self, [String: Value].self)
        }
    }
}
