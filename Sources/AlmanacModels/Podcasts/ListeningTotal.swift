/// How long one podcast was listened to on one local day (`Podcasts1.GetListeningStats`,
/// `almanac stats`): the sum of its episodes' listened seconds that day.
public struct ListeningTotal: Sendable, Hashable {
    /// The local day, "2026-11-28".
    public var day: String
    public var podcastID: String
    /// The podcast's title when it was read ("" when unknown).
    public var podcastTitle: String
    public var seconds: Double

    public init(day: String, podcastID: String, podcastTitle: String, seconds: Double) {
        self.day = day
        self.podcastID = podcastID
        self.podcastTitle = podcastTitle
        self.seconds = seconds
    }

    /// The most days a client may ask about: ten years.
    public static let maximumDays = 3_650
}
