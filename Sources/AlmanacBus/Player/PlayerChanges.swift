import DBus

/// The closure `MPRISListener.whenPlayersChange` calls, kept in a struct so that a `Locked`
/// stores it as it is (see `Callback`).
struct PlayerChanges: Sendable {
    let body: @Sendable (BusName, PlayerChange) -> Void
}
