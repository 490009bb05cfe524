/// The one typed definition of a method: its interface, name, the names and types of its
/// arguments and of its reply.
///
/// The server's table entry (`Method(definition) { call, arguments in … }`), its
/// introspection and the client's call (`connection.call(definition, …)`) all come from it,
/// so a server and a client that disagree on a type do not compile:
///
/// ```swift
/// static let now = BusMethod<Args<>, Args<UInt64>>("Now", of: clock, reply: ["seconds"])
/// Method(now) { _, _ in UInt64(now()) }                              // the server
/// let seconds = try await bus.call(now, on: name, path: path, ())     // the client
/// ```
public struct BusMethod<Arguments: BusArguments, Reply: BusArguments>: Sendable {
    /// The interface the method belongs to.
    public let interface: InterfaceName
    /// The method's name.
    public let name: MemberName
    /// The arguments' names, as introspection shows them, one per type of `Arguments`.
    public let argumentNames: [String]
    /// The reply's names, one per type of `Reply`.
    public let replyNames: [String]

    /// A definition; the names must be as many as the types (a definition that breaks this
    /// is a programming error and traps where it is made, as a bad literal name does).
    public init(_ name: MemberName, of interface: InterfaceName, arguments: [String] = [], reply: [String] = []) {
        precondition(arguments.count == Arguments.types.count, "\(name) names \(arguments.count) arguments for \(Arguments.types.count) types")
        precondition(reply.count == Reply.types.count, "\(name) names \(reply.count) reply values for \(Reply.types.count) types")
        self.interface = interface
        self.name = name
        argumentNames = arguments
        replyNames = reply
    }

    /// The arguments, named, for the server's table and introspection.
    public var inputs: [Argument] { zip(argumentNames, Arguments.types).map { Argument($0, $1) } }
    /// The reply's values, named.
    public var outputs: [Argument] { zip(replyNames, Reply.types).map { Argument($0, $1) } }
    /// The arguments' signature, such as `su`.
    public var inputSignature: String { Arguments.signature }
    /// The reply's signature, such as `aa{sv}`.
    public var outputSignature: String { Reply.signature }
}
