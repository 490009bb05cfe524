/// The machine's network as almanacd knows it (NetworkManager's, on the system bus):
/// `unknown` without a system bus or NetworkManager.
public enum NetworkState: String, CaseIterable, Sendable, Hashable, Codable {
    case unknown
    /// No connection (NetworkManager asleep, disconnected or disconnecting).
    case offline
    /// Connecting, or connected to a local network only.
    case connecting
    /// Connected, not metered.
    case online
    /// Connected over a metered connection (NetworkManager's `Metered` yes or guess-yes).
    case metered

    /// Whether almanacd can reach the internet.
    public var isOnline: Bool { self == .online || self == .metered }
}
