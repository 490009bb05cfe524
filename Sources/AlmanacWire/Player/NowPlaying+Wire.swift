public import AlmanacModels
import DBus
import FoundationEssentials

extension NowPlaying: WireShaped {
    /// `Player1`'s `NowPlaying` property (`{}` when no player has an episode open): `episode`,
    /// `title`, `podcast` (its title), `status`, `position d` (seconds at `at`), `at d` (Unix
    /// seconds), `rate d`, `length d` (0: unknown), and `chapter s`, `chapterStart d` while a
    /// chapter plays.
    public struct Wire: Codable {
        var episode, title, podcast, status: String
        var position, at, rate, length: Double
        var chapter: String?
        var chapterStart: Double?
    }

    public var wire: Wire {
        Wire(episode: episodeID, title: title, podcast: podcastTitle, status: status, position: position, at: at.timeIntervalSince1970,
             rate: rate, length: length ?? 0, chapter: chapter?.title, chapterStart: chapter?.start)
    }

    /// A position or a moment that is not finite is no answer; a rate that is none plays at 1.
    public init(wire: Wire) throws {
        guard wire.position.isFinite, wire.at.isFinite else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "What plays is at \(wire.position) seconds at \(wire.at)."))
        }
        self.init(episodeID: wire.episode, title: wire.title, podcastTitle: wire.podcast, status: wire.status, position: wire.position,
                  at: Date(timeIntervalSince1970: wire.at), rate: wire.rate.isFinite ? wire.rate : 1, length: wire.length > 0 ? wire.length : nil,
                  chapter: wire.chapter.map { FeedChapter(start: wire.chapterStart.flatMap { $0.isFinite ? $0 : nil } ?? 0, title: $0) })
    }
}
