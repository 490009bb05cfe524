/// A typed D-Bus match rule: which messages a subscription wants.
///
/// Build one with the initialiser and the chaining methods; every part is a validated type,
/// so the rule text is always well-formed:
///
///     let rule = MatchRule(interface: .properties, member: MemberName("PropertiesChanged"))
///         .path(ObjectPath("/org/almanac/Almanac1/weather"))
public struct MatchRule: Sendable, Hashable, CustomStringConvertible {
    public static let maximumLength = 1024

    public var type: MessageType?
    public var sender: BusName?
    public var interface: InterfaceName?
    public var member: MemberName?
    public var path: ObjectPath?
    public var pathNamespace: ObjectPath?
    public var destination: BusName?
    /// `argN='…'`: argument N (0…63) is a string or object path equal to the text.
    public var arguments: [Int: String]

    /// A rule for signals (by default) with the given parts.
    public init(
        type: MessageType? = .signal, sender: BusName? = nil, interface: InterfaceName? = nil,
        member: MemberName? = nil, path: ObjectPath? = nil, pathNamespace: ObjectPath? = nil,
        destination: BusName? = nil, arguments: [Int: String] = [:]
    ) {
        self.type = type
        self.sender = sender
        self.interface = interface
        self.member = member
        self.path = path
        self.pathNamespace = pathNamespace
        self.destination = destination
        self.arguments = arguments
    }

    public func sender(_ value: BusName) -> MatchRule { var r = self; r.sender = value; return r }
    public func interface(_ value: InterfaceName) -> MatchRule { var r = self; r.interface = value; return r }
    public func member(_ value: MemberName) -> MatchRule { var r = self; r.member = value; return r }
    public func path(_ value: ObjectPath) -> MatchRule { var r = self; r.path = value; return r }
    public func pathNamespace(_ value: ObjectPath) -> MatchRule { var r = self; r.pathNamespace = value; return r }
    public func destination(_ value: BusName) -> MatchRule { var r = self; r.destination = value; return r }
    public func argument(_ index: Int, _ value: String) -> MatchRule { var r = self; r.arguments[index] = value; return r }

    /// The rule as the bus's `AddMatch` takes it.
    public var description: String {
        var parts: [String] = []
        func add(_ key: String, _ value: String) {
            // Values are quoted; a quote inside one is written '\'' (spec, "Match Rules").
            parts.append(key + "='" + value.replacingQuotes() + "'")
        }
        if let type { add("type", type.description) }
        if let sender { add("sender", sender.rawValue) }
        if let interface { add("interface", interface.rawValue) }
        if let member { add("member", member.rawValue) }
        if let path { add("path", path.rawValue) }
        if let pathNamespace { add("path_namespace", pathNamespace.rawValue) }
        if let destination { add("destination", destination.rawValue) }
        for (index, value) in arguments.sorted(by: { $0.key < $1.key }) { add("arg\(index)", value) }
        return parts.joined(separator: ",")
    }

    /// Checks what the bus would refuse, so the caller gets a clear error.
    func validate() throws {
        guard type == .signal || type == nil else {
            throw BusError.invalid("Only signals can be subscribed to; a rule for type='\(type!)' would receive nothing.")
        }
        for (index, value) in arguments {
            guard (0...63).contains(index) else {
                throw BusError.invalid("Match rules can test arguments 0 to 63, not \(index).")
            }
            guard !value.utf8.contains(0) else {
                throw BusError.invalid("A match rule value cannot contain NUL.")
            }
        }
        guard description.utf8.count <= Self.maximumLength else {
            throw BusError.invalid("The match rule is longer than 1024 bytes, the D-Bus limit.")
        }
    }

    /// Whether `message` satisfies the rule. `owner` resolves a well-known sender to the
    /// unique name that owns it now (the bus sends signals under unique names).
    func matches(_ message: Message, owner: (BusName) -> BusName?) -> Bool {
        if let type, message.type != type { return false }
        if let interface, !message.hasInterface(interface) { return false }
        if let member, !message.hasMember(member) { return false }
        if let path, !message.hasPath(path) { return false }
        if let pathNamespace {
            guard let messagePath = message.path, messagePath.isInside(pathNamespace) else { return false }
        }
        if let destination, !message.hasDestination(destination) { return false }
        if let sender {
            if sender.isUnique || sender == .bus {
                if !message.hasSender(sender) { return false }
            } else {
                guard let current = owner(sender), message.hasSender(current) else { return false }
            }
        }
        if !arguments.isEmpty {
            guard let values = try? message.values() else { return false }
            // Like the bus, argN matches string arguments only (argNpath, not supported here,
            // is the form for object paths).
            for (index, expected) in arguments {
                guard index < values.count, case .string(let actual) = values[index], actual == expected else { return false }
            }
        }
        return true
    }
}

extension String {
    fileprivate func replacingQuotes() -> String {
        guard contains("'") else { return self }
        return split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''")
    }
}
