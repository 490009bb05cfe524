import DBus

/// Coding keys spelled by the contract: each case's key is a member name of `BusContract`
/// (a property's), so a shape of an object's properties names each of them once.
protocol ContractKeys: CodingKey, CaseIterable {
    var member: MemberName { get }
}

extension ContractKeys {
    var stringValue: String { member.rawValue }

    init?(stringValue: String) {
        guard let key = Self.allCases.first(where: { $0.stringValue == stringValue }) else { return nil }
        self = key
    }

    var intValue: Int? { nil }
    init?(intValue: Int) { nil }
}
