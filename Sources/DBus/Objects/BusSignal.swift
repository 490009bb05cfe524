/// The one typed definition of a signal: its interface, name, and its arguments' names and
/// types (`Args<T…>`).
///
/// The server's declaration (`SignalDescription(definition)`), its introspection, the emit
/// (`connection.emit(definition, path:, values)`) and the client's match rule and decoding
/// (`definition.rule()`, `definition.values(of: message)`) all come from it, so a sender and
/// a receiver that disagree on a type do not compile:
///
/// ```swift
/// static let ticked = BusSignal<Args<UInt64>>("Ticked", of: clock, arguments: ["seconds"])
/// try bus.emit(ticked, path: path, now())                              // the sender
/// let seconds = try ticked.values(of: message)                          // a receiver: UInt64
/// ```
public struct BusSignal<Arguments: BusArguments>: Sendable {
    /// The interface the signal belongs to.
    public let interface: InterfaceName
    /// The signal's name.
    public let name: MemberName
    /// The arguments' names, as introspection shows them, one per type of `Arguments`.
    public let argumentNames: [String]

    /// A definition; the names must be as many as the types (a definition that breaks this
    /// is a programming error and traps where it is made, as a bad literal name does).
    public init(_ name: MemberName, of interface: InterfaceName, arguments: [String] = []) {
        precondition(arguments.count == Arguments.types.count, "\(name) names \(arguments.count) arguments for \(Arguments.types.count) types")
        self.interface = interface
        self.name = name
        argumentNames = arguments
    }

    /// The arguments, named, for the server's declaration and introspection.
    public var arguments: [Argument] { zip(argumentNames, Arguments.types).map { Argument($0, $1) } }
    /// The arguments' signature, such as `ta{sv}`.
    public var signature: String { Arguments.signature }

    /// A rule for this signal (its interface and name), narrowed by the other parts given.
    public func rule(sender: BusName? = nil, path: ObjectPath? = nil, pathNamespace: ObjectPath? = nil) -> MatchRule {
        MatchRule(sender: sender, interface: interface, member: name, path: path, pathNamespace: pathNamespace)
    }

    /// The values of a received signal of this definition. Throws `InvalidArgs` when the
    /// message is another member, or holds other types than the definition declares.
    public func values(of message: Message) throws -> Arguments.Values {
        guard message.interface == interface, message.member == name else {
            throw BusError.invalidArgs("A \(interface).\(name) signal was expected, not \(message.interface?.rawValue ?? "no interface").\(message.member?.rawValue ?? "no member").")
        }
        guard message.hasSignature(signature) else {
            throw BusError.invalidArgs("\(interface).\(name) holds '\(message.signature)' where the signal declares '\(signature)'.")
        }
        var reader = message.reader()
        return try Arguments.read(from: &reader)
    }
}

extension BusSignal where Arguments == Args<String, [String: Value], [String]> {
    /// `org.freedesktop.DBus.Properties.PropertiesChanged(s interface, a{sv} changed, as
    /// invalidated)`: read a property it announces as its definition's type with
    /// `changed[definition]`.
    public static var propertiesChanged: BusSignal {
        BusSignal("PropertiesChanged", of: .properties, arguments: ["interface", "changed", "invalidated"])
    }
}
