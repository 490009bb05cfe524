public import AlmanacModels
public import FoundationEssentials

/// One row of `almanac queue`: the episode's place in the Up Next queue (1: the head) and
/// the episode as an episode list shows it.
public struct QueueEntryViewData: Sendable, Hashable, JSONRepresentable {
    public let position: Int
    public let episode: EpisodeViewData

    /// `podcastTitle`: the title of the episode's podcast, when known.
    public init(position: Int, episode: Episode, podcastTitle: String?, now: Date, clockOffset: (Date) -> Int = { _ in 0 }) {
        self.position = position
        let podcast = podcastTitle.map { Podcast(id: episode.podcastID, title: $0, author: "", feedURL: "") }
        self.episode = EpisodeViewData(episode: episode, podcast: podcast, now: now, clockOffset: clockOffset)
    }

    /// The names `fields` has: `position` and an episode's.
    public static let fieldNames = ["position"] + EpisodeViewData.fieldNames

    /// The fields a `--format` template can use.
    public var fields: [String: String] {
        episode.fields.merging(["position": String(position)]) { $1 }
    }

    /// `--json`: `position` and the keys of an episode in `almanac episodes --json`.
    public var json: JSONValue {
        guard case .object(var object) = episode.json else { return episode.json }
        object["position"] = .integer(Int64(position))
        return .object(object)
    }
}

extension Table {
    /// `almanac queue`: position, id, title, podcast, length, progress and a "↓" for
    /// downloaded ones. Too wide, the progress is cut, the length and the podcast go, and
    /// the title is cut.
    public static func queue(_ entries: [QueueEntryViewData]) -> Table {
        Table(
            [
                TableColumn("#", alignment: .right),
                TableColumn("ID"),
                TableColumn("Title", shrink: (minimum: 16, priority: 30)),
                TableColumn("Podcast", shrink: (minimum: 10, priority: 20), drop: 50),
                TableColumn("Length", alignment: .right, drop: 10),
                TableColumn("Progress", shrink: (minimum: 10, priority: 35), drop: 40),
                TableColumn("↓"),
            ],
            rows: entries.map { entry in
                let episode = entry.episode
                return [
                    StyledLine(String(entry.position)),
                    StyledLine(episode.id),
                    StyledLine(episode.title, .bold),
                    StyledLine(episode.podcast),
                    StyledLine(episode.duration),
                    StyledLine(episode.progress + (episode.remaining.isEmpty ? "" : ", \(episode.remaining)")),
                    episode.file.isEmpty ? StyledLine() : StyledLine("↓", .dim),
                ]
            }
        )
    }
}
