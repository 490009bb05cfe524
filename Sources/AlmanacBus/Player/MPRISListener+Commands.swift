import AlmanacModels
import DBus

// What Almanac tells a player (MPRIS `Pause`, `SetPosition`, the `Rate` property): each call
// bounded in time, so a player that does not answer holds up nothing but the one request.
extension MPRISListener {
    /// How long a player has to answer what it is told.
    static let commandTimeout: Duration = .seconds(3)

    /// MPRIS `Pause`.
    func pause(_ owner: BusName) async throws {
        _ = try await connection.call(owner, path: Self.path, interface: Self.playerInterface, method: "Pause", timeout: Self.commandTimeout) { _ in }
    }

    /// MPRIS `OpenUri`: the player opens `uri` in place of its track.
    func openURI(_ owner: BusName, _ uri: String) async throws {
        _ = try await connection.call(owner, path: Self.path, interface: Self.playerInterface, method: "OpenUri", timeout: Self.commandTimeout, arguments: uri)
    }

    /// MPRIS `SetPosition` to `seconds` of the track `trackID`; a position no player could have
    /// (from a feed's chapter: negative, not finite, past a million hours) is refused here.
    func setPosition(_ owner: BusName, track trackID: ObjectPath, to seconds: Double) async throws {
        guard seconds.isFinite, (0...3.6e9).contains(seconds) else {
            throw SteeringError(.cannotTell, "\(seconds.echoedText) s is no position in an episode.")
        }
        _ = try await connection.call(owner, path: Self.path, interface: Self.playerInterface, method: "SetPosition", timeout: Self.commandTimeout,
                                      arguments: trackID, Int64((seconds * 1e6).rounded()))
    }

    /// Sets the player's `Rate`.
    func setRate(_ owner: BusName, to rate: Double) async throws {
        _ = try await connection.call(owner, path: Self.path, interface: .properties, method: "Set", timeout: Self.commandTimeout,
                                      arguments: Self.playerInterface.rawValue, "Rate", Value.double(rate))
    }

    /// The rates the player says it plays at (`MinimumRate`, `MaximumRate`; MPRIS: 1 when it
    /// does not say), and whether it may be controlled at all (`CanControl`).
    func rates(of owner: BusName) async throws -> (range: ClosedRange<Double>, canControl: Bool) {
        let properties = try await connection.call(owner, path: Self.path, interface: .properties, method: "GetAll", timeout: Self.commandTimeout,
                                                   arguments: Self.playerInterface.rawValue).arguments([String: Value].self)
        func number(_ key: String) -> Double? {
            guard case .double(let value)? = properties[key]?.unwrapped, value.isFinite, value > 0 else { return nil }
            return value
        }
        let lowest = number("MinimumRate") ?? 1, highest = number("MaximumRate") ?? 1
        let canControl = properties["CanControl"]?.unwrapped != .boolean(false)
        return (min(lowest, highest)...max(lowest, highest), canControl)
    }
}
