public import AlmanacModels

/// Why Almanac could not steer a player; the message says what to do.
public typealias SteeringError = CodedError<SteeringCode>

/// What went wrong, and what a client sees:
/// - `noPlayer`: no media player plays (or, for chapters, has open) an episode of the library (`NoPlayer`).
/// - `cannotTell`: what was asked needs what the episode does not have, a length or chapters (`NotSupported`).
/// - `playerFailed`: the player refused, or did not answer in time (`PlayerFailed`).
public enum SteeringCode: String, ErrorCode, CaseIterable {
    case noPlayer, cannotTell, playerFailed

    public static let defaultErrorName = ClientErrorName.playerFailed
    public static let errorNames: [SteeringCode: ClientErrorName] = [.noPlayer: .noPlayer, .cannotTell: .notSupported]
}
