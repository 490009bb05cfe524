public import AlmanacModels
public import FoundationEssentials

/// The interactive episode list (`almanac episodes` on a terminal): the episodes paged in so
/// far, the load under way, the selection and the scroll position, changed by what the view
/// hears (`loadStarted`, `pageLoaded`, `loadFailed`, `apply(_:)`) and by keys (`move`), and
/// turned into the screen's lines by `screen(width:height:now:)`. The terminal code only
/// feeds it and writes its lines.
public struct EpisodeListState: Sendable, Hashable {
    /// A move of the selection.
    public enum Move: Sendable, Hashable {
        case up, down, pageUp, pageDown, top, bottom
    }

    /// The episodes shown, newest first.
    public private(set) var episodes: [Episode] = []
    /// Titles of the podcasts, by id.
    public var podcasts: [String: Podcast]
    /// Only this podcast's episodes belong (`nil`: all).
    public let podcastID: String?
    /// The load under way: `nil` none, `false` the next page, `true` the first page again.
    public private(set) var loading: Bool?
    /// Whether the list has more pages to load.
    public private(set) var hasMore = true
    /// Whether a page arrived since the list began.
    public private(set) var loadedOnce = false
    /// The selected row (an index into `episodes`).
    public private(set) var selected = 0
    /// The first episode row on the screen.
    public private(set) var top = 0
    /// A line for the foot of the screen ("Marked played.", a failure); `nil`: the keys.
    public var message: String?
    /// The list's own podcast was unsubscribed meanwhile (by anyone).
    public private(set) var podcastGone = false

    public init(podcasts: [String: Podcast] = [:], podcastID: String? = nil) {
        self.podcasts = podcasts
        self.podcastID = podcastID
    }

    public var selectedEpisode: Episode? { episodes.indices.contains(selected) ? episodes[selected] : nil }
    public var isLoading: Bool { loading != nil }
    /// Whether a "load more" would start now.
    public var canLoadMore: Bool { loading == nil && hasMore }

    // MARK: What the view hears

    public mutating func loadStarted(refresh: Bool) {
        loading = refresh
    }

    public mutating func pageLoaded(refresh: Bool, items: [Episode], hasMore: Bool) {
        let keep = selectedEpisode?.id
        if refresh { episodes = [] }
        let known = Set(episodes.map(\.id))
        episodes += items.filter { !known.contains($0.id) }
        self.hasMore = hasMore
        loading = nil
        loadedOnce = true
        if refresh { message = nil }
        reselect(keep)
    }

    public mutating func loadFailed(refresh: Bool, message: String) {
        loading = nil
        self.message = "Could not load \(refresh ? "the list" : "more"): \(message)"
    }

    /// A change the view's `Updated` told: new episodes appear in their place, play marks
    /// and downloads change their rows, an unsubscribed podcast's episodes go.
    public mutating func apply(_ change: PodcastsChange) {
        let keep = selectedEpisode?.id
        switch change {
        case .newEpisodes(let podcast, let new):
            guard podcastID == nil || podcastID == podcast else { return }
            let known = Set(episodes.map(\.id))
            // Only those newer than the oldest shown: older ones come with their page.
            let oldest = episodes.last.map { ($0.published, $0.id) }
            let fresh = new.filter { !known.contains($0.id) && (oldest == nil ? !hasMore : ($0.published, $0.id) > oldest!) }
            guard !fresh.isEmpty else { return }
            episodes = (episodes + fresh).sorted { ($0.published, $0.id) > ($1.published, $1.id) }
        case .playState(let id, _, let played, let position):
            guard let index = episodes.firstIndex(where: { $0.id == id }) else { return }
            episodes[index].played = played
            episodes[index].position = position
            if played { episodes[index].isNew = false }
        case .downloaded(let id, _, let file):
            guard let index = episodes.firstIndex(where: { $0.id == id }) else { return }
            episodes[index].file = file
        case .unsubscribed(let podcast):
            episodes.removeAll { $0.podcastID == podcast }
            // The list's own podcast: it stays empty, and says why.
            if podcast == podcastID {
                podcastGone = true
                message = "\(podcasts[podcast]?.title ?? podcast) was unsubscribed (q quits)"
            }
            podcasts[podcast] = nil
        case .subscribed(let podcast), .renamed(let podcast):
            podcasts[podcast.id] = podcast
        case .allPlayed(let podcast, _):
            for index in episodes.indices where podcast == nil || episodes[index].podcastID == podcast {
                episodes[index].played = true
                episodes[index].isNew = false
            }
        case .kept(let id, _, let kept):
            guard let index = episodes.firstIndex(where: { $0.id == id }) else { return }
            episodes[index].kept = kept
        case .failed, .settings, .podcastSettings, .olderEpisodes, .queue:
            // Older episodes reach the list that asked for them as its page.
            return
        }
        reselect(keep)
    }

    // MARK: Keys

    /// Moves the selection on a screen `height` lines high; returns whether the move went
    /// past the end of the list, so that the next page should load.
    @discardableResult
    public mutating func move(_ move: Move, height: Int) -> Bool {
        let rows = Self.rows(height)
        let last = episodes.count - 1
        let target = switch move {
        case .up: selected - 1
        case .down: selected + 1
        case .pageUp: selected - rows
        case .pageDown: selected + rows
        case .top: 0
        case .bottom: last
        }
        let pastEnd = target > last && move != .bottom
        selected = max(0, min(last, target))
        scroll(height: height)
        return pastEnd || (move == .bottom && hasMore)
    }

    /// Keeps the selection (and the loading row after the last episode) on screen.
    public mutating func scroll(height: Int) {
        let rows = Self.rows(height)
        let lastRow = episodes.count + (loading == false ? 1 : 0) - 1
        if selected < top { top = selected }
        if selected >= top + rows { top = selected - rows + 1 }
        // The loading row shows when the selection is on the last episode.
        if loading == false, selected == episodes.count - 1, lastRow >= top + rows { top = lastRow - rows + 1 }
        top = max(0, min(top, max(0, lastRow - rows + 1)))
    }

    private mutating func reselect(_ id: String?) {
        if let id, let index = episodes.firstIndex(where: { $0.id == id }) { selected = index }
        selected = max(0, min(selected, episodes.count - 1))
    }

    // MARK: The screen

    /// Lines between the header and the foot.
    static func rows(_ height: Int) -> Int { max(1, height - 2) }

    /// The keys, as the foot of the screen shows them.
    public static let keys = "↑↓ move  space more  r refresh  p/u played  d download  q quit"

    /// The screen, `height` lines of at most `width` columns: a header, the rows (the
    /// selected one marked, a "Loading…" row while a page comes), and the foot.
    public func screen(width: Int, height: Int, now: Date) -> [StyledLine] {
        let rows = Self.rows(height)
        var lines: [StyledLine] = []
        let scope = podcastID.map { podcasts[$0]?.title ?? $0 } ?? "All podcasts"
        let count = "\(episodes.count) episode\(episodes.count == 1 ? "" : "s")\(hasMore ? ", more to load" : "")"
        lines.append(StyledLine([Span(truncated(scope, to: max(1, width - displayWidth(count) - 2)), .bold), Span("  "), Span(count, .dim)]))

        var body: [StyledLine] = []
        if loading == true { body.append(StyledLine("  Loading…", .dim)) }
        for (index, episode) in episodes.enumerated().dropFirst(top).prefix(rows) {
            body.append(row(episode, selected: index == selected, width: width, now: now))
        }
        if loading == false { body.append(StyledLine("  Loading…", .dim)) }
        if body.isEmpty, podcastGone { body.append(StyledLine("  No longer subscribed.", .dim)) }
        if body.isEmpty, loadedOnce { body.append(StyledLine("  No episodes yet.", .dim)) }
        lines += body.prefix(rows)
        while lines.count < rows + 1 { lines.append(StyledLine("")) }
        lines.append(message.map { StyledLine(truncated($0, to: width), .alert) } ?? StyledLine(truncated(Self.keys, to: width), .dim))
        return Array(lines.prefix(height)).map { fit($0, width: width) }
    }

    private func row(_ episode: Episode, selected: Bool, width: Int, now: Date) -> StyledLine {
        let data = EpisodeViewData(episode: episode, podcast: podcasts[episode.podcastID], now: now)
        let mark = episode.played ? "✓" : episode.isNew ? "●" : episode.position > 0 ? "◐" : " "
        let file = episode.file != nil ? "↓" : " "
        let prefix = "\(selected ? "›" : " ")\(mark)\(file) "
        let tail = podcastID == nil ? "  \(data.podcast)  \(data.published)" : "  \(data.published)"
        let tailWidth = min(displayWidth(tail), max(0, width - displayWidth(prefix) - 10))
        let titleWidth = max(1, width - displayWidth(prefix) - tailWidth)
        let title = padded(truncated(data.title, to: titleWidth), to: titleWidth)
        let rest = truncated(tail, to: tailWidth)
        return StyledLine([Span(prefix + title, selected ? .bold : .plain), Span(rest, .dim)])
    }

    private func fit(_ line: StyledLine, width: Int) -> StyledLine {
        var used = 0
        var spans: [Span] = []
        for span in line.spans {
            let room = width - used
            guard room > 0 else { break }
            let text = displayWidth(span.text) > room ? truncated(span.text, to: room) : span.text
            used += displayWidth(text)
            spans.append(Span(text, span.style))
        }
        return StyledLine(spans)
    }
}
