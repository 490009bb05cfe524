import AlmanacModels

// How podcast views are laid out within a terminal's width.

extension EpisodeViewData {
    /// "Title — Podcast  45:00  · 3 days ago  [45% complete, 12 min left]  ↓" within `width`,
    /// for lines that arrive one by one (a watch): the length goes first, then the podcast,
    /// the progress and the age; a long title is cut.
    public func line(width: Int) -> StyledLine {
        let progressText = progress.isEmpty ? "" : "[\(progress)" + (remaining.isEmpty ? "]" : ", \(remaining)]")
        return fitLine([
            LineField([StyledLine(title, .bold), StyledLine(truncated(title, to: 32), .bold)], priority: 50),
            .optional(StyledLine(podcast), StyledLine(truncated(podcast, to: 16)), priority: 20, separator: " — "),
            .optional(StyledLine(duration), priority: 10),
            .optional(StyledLine("· \(published)", .dim), priority: 30),
            .optional(StyledLine(progressText), StyledLine(progress), priority: 40),
            .kept(file.isEmpty ? StyledLine() : StyledLine("↓", .dim)),
        ], width: width)
    }
}

extension Table {
    /// `almanac episodes`: id (with `ids`), title, podcast, length, age, progress and a "↓"
    /// for downloaded ones. Too wide, the length goes first, then the podcast and the title
    /// are cut, the progress is cut, the age goes and at last the podcast.
    public static func episodes(_ episodes: [EpisodeViewData], ids: Bool) -> Table {
        Table(
            [
                TableColumn(ids ? "ID" : ""),
                TableColumn("Title", shrink: (minimum: 16, priority: 30)),
                TableColumn("Podcast", shrink: (minimum: 10, priority: 20), drop: 50),
                TableColumn("Length", alignment: .right, drop: 10),
                TableColumn("Published", drop: 40),
                TableColumn("Progress", shrink: (minimum: 10, priority: 35)),
                TableColumn("↓"),
            ],
            rows: episodes.map { episode in
                [
                    ids ? StyledLine(episode.id) : StyledLine(),
                    StyledLine(episode.title, .bold),
                    StyledLine(episode.podcast),
                    StyledLine(episode.duration),
                    StyledLine(episode.published, .dim),
                    StyledLine(episode.progress + (episode.remaining.isEmpty ? "" : ", \(episode.remaining)")),
                    episode.file.isEmpty ? StyledLine() : StyledLine("↓", .dim),
                ]
            }
        )
    }

    /// `almanac podcasts list`: id, title, author and feed, and each podcast's own settings
    /// where they are not the defaults (blank: the default; a column nobody changed is left
    /// out). Too wide, the feed is cut and then goes, then the author, the settings' columns
    /// (notify first, refresh last), and the title is cut.
    public static func podcasts(_ podcasts: [PodcastPreviewViewData]) -> Table {
        Table(
            [
                TableColumn("ID"),
                TableColumn("Title", shrink: (minimum: 16, priority: 40)),
                TableColumn("Author", shrink: (minimum: 12, priority: 20), drop: 30),
                TableColumn("Feed", shrink: (minimum: 24, priority: 5), drop: 10),
                TableColumn("Refresh", drop: 38),
                TableColumn("Auto", drop: 37),
                TableColumn("Keep", alignment: .right, drop: 36),
                TableColumn("Delete played", drop: 35),
                TableColumn("Notify", drop: 34),
            ],
            rows: podcasts.map { podcast in
                let own = podcast.settings.preferences
                return [StyledLine(podcast.id), StyledLine(podcast.title, .bold), StyledLine(podcast.fields["author"] ?? ""), StyledLine(podcast.feedURL, .dim),
                        StyledLine(own.refreshInterval == nil ? "" : "every " + podcast.settings.refreshInterval),
                        StyledLine(own.autoDownload ? "on" : ""), StyledLine(own.keep == nil ? "" : podcast.settings.keep),
                        StyledLine(own.deletePlayedAfter == nil ? "" : "after " + podcast.settings.deletePlayedAfter),
                        StyledLine(own.notify == nil ? "" : podcast.settings.notify)]
            }
        )
    }
}
