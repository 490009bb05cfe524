/// A method of an exported interface: its name, argument types and handler.
///
/// The layer checks the call's signature against `inputs` before the handler runs and
/// answers `InvalidArgs` on a mismatch. The handler writes its reply's arguments; a thrown
/// `BusError` becomes an error reply with its name, any other error `org.freedesktop.DBus.Error.Failed`.
public struct Method: Sendable {
    /// Runs on the connection's I/O thread and must not block; the reply goes out at once.
    public typealias SyncHandler = @Sendable (MethodCall, inout MessageWriter) throws -> Void
    /// Runs in a new task; for handlers that await.
    public typealias AsyncHandler = @Sendable (MethodCall, inout MessageWriter) async throws -> Void
    /// Runs on the I/O thread like a sync handler, but answers through the `DeferredReply`
    /// whenever it is ready (after a write is on disk, say). An error it throws is the answer.
    public typealias DeferredHandler = @Sendable (MethodCall, DeferredReply) throws -> Void
    /// Runs on the I/O thread, in order with the calls around it (reading what it answers
    /// from, say a snapshot, or asking for it), and returns what writes the reply, which runs
    /// in a task of its own and may await what was asked for: for answers slow to make, or to
    /// be had only later, that must follow the calls before them. An error either throws is the answer.
    public typealias OffloadingHandler = @Sendable (MethodCall) throws -> @Sendable (inout MessageWriter) async throws -> Void

    enum Handler: Sendable {
        case sync(SyncHandler)
        case async(AsyncHandler)
        case deferred(DeferredHandler)
        case offloaded(OffloadingHandler)
    }

    public let name: MemberName
    public let inputs: [Argument]
    public let outputs: [Argument]
    let handler: Handler
    let inputSignature: String
    /// What every reply must hold: checked in debug builds (`ConnectionCore.checkReply`).
    let outputSignature: String

    /// A method whose handler runs on the I/O thread (fast; must not block).
    public init(_ name: String, inputs: [Argument] = [], outputs: [Argument] = [], handler: @escaping SyncHandler) throws {
        try self.init(name, inputs, outputs, .sync(handler))
    }

    /// A method whose handler runs in its own task and may await.
    public init(_ name: String, inputs: [Argument] = [], outputs: [Argument] = [], async handler: @escaping AsyncHandler) throws {
        try self.init(name, inputs, outputs, .async(handler))
    }

    /// A method whose handler takes what it needs on the I/O thread, in order with the other
    /// calls, and writes its reply in a task of its own (see `OffloadingHandler`).
    public init(_ name: String, inputs: [Argument] = [], outputs: [Argument] = [], offloading handler: @escaping OffloadingHandler) throws {
        try self.init(name, inputs, outputs, .offloaded(handler))
    }

    /// A method whose handler runs on the I/O thread and answers later, through its
    /// `DeferredReply`. (A factory, not an `init`: a trailing closure would fit both kinds.)
    public static func deferred(_ name: String, inputs: [Argument] = [], outputs: [Argument] = [], handler: @escaping DeferredHandler) throws -> Method {
        try Method(name, inputs, outputs, .deferred(handler))
    }

    private init(_ name: String, _ inputs: [Argument], _ outputs: [Argument], _ handler: Handler) throws {
        self.init(try MemberName(name), inputs, outputs, handler)
        _ = try Signature(inputSignature)
        _ = try Signature(outputSignature)
    }

    /// A method of a name already checked (a typed definition's: `Method+BusMethod`).
    init(_ name: MemberName, _ inputs: [Argument], _ outputs: [Argument], _ handler: Handler) {
        self.name = name
        self.inputs = inputs
        self.outputs = outputs
        self.handler = handler
        inputSignature = inputs.signature
        outputSignature = outputs.signature
    }
}
