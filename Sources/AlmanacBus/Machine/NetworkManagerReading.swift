import AlmanacModels
import DBus

/// What NetworkManager last said of the machine's network: its `State` (`NMState`) and
/// `Metered` (`NMMetered`) properties, read from its answers and signals, which are untrusted
/// (a value of the wrong type or out of range is ignored), and what they mean to almanacd.
struct NetworkManagerReading: Sendable, Hashable {
    /// `NM_STATE_*`: 0 unknown, 10 asleep, 20 disconnected, 30 disconnecting, 40 connecting,
    /// 50 connected (local), 60 connected (site), 70 connected (global).
    var state: UInt32?
    /// `NM_METERED_*`: 0 unknown, 1 yes, 2 no, 3 guess-yes, 4 guess-no.
    var metered: UInt32?

    static let stateKey = "State"
    static let meteredKey = "Metered"

    /// Takes what `properties` (a `GetAll` answer or a `PropertiesChanged`) say of `State` and `Metered`.
    mutating func apply(_ properties: [String: Value]) {
        if let state = Self.number(properties[Self.stateKey]) { self.state = state }
        if let metered = Self.number(properties[Self.meteredKey]) { self.metered = metered }
    }

    /// A `u` in a range NetworkManager uses; anything else is no reading.
    private static func number(_ value: Value?) -> UInt32? {
        guard case .uint32(let number)? = value?.unwrapped, number <= 100 else { return nil }
        return number
    }

    /// The network as almanacd sees it: online only when NetworkManager says connected
    /// (global); metered when it says yes or guess-yes.
    var network: NetworkState {
        switch state {
        case 70?: metered == 1 || metered == 3 ? .metered : .online
        case 40?, 50?, 60?: .connecting
        case 10?, 20?, 30?: .offline
        default: .unknown
        }
    }
}
