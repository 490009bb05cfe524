public import FoundationEssentials

/// The sleep timer as a client reads it (`Player1.SleepTimer`): what it waits for (`time`,
/// `episode`, `chapter`), when it pauses as things stand (`nil`: cannot be told now) and
/// the episode playing.
public struct SleepTimerState: Sendable, Hashable {
    public let kind: String
    public let pausesAt: Date?
    public let episode: String

    public init(kind: String, pausesAt: Date?, episode: String) {
        self.kind = kind
        self.pausesAt = pausesAt
        self.episode = episode
    }
}
