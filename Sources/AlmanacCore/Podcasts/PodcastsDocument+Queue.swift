public import AlmanacModels

/// The Up Next queue: edits through the owner, and the episodes it holds.
extension PodcastsDocument {
    // MARK: The Up Next queue

    /// Edits the Up Next queue (`QueueSubmission.applied` says how, and what it refuses);
    /// episodes are found anywhere in the library, by id or GUID. Announced as `queue`.
    @discardableResult
    public func editQueue(_ edit: QueueSubmission, from view: ViewKey?) throws -> UInt64 {
        try write(origin: view, queueing(edit)) ?? document.revision
    }

    func queueing(_ edit: QueueSubmission) -> Body {
        { [self] state in
            let queue = try edit.applied(to: state.queue) { name in try self.find(name, in: state) }
            guard queue != state.queue else { return nil }
            return state.apply(.queue(queue))
        }
    }

    /// The queue after a refresh of an auto-queue podcast found `new` episodes (unplayed):
    /// they join at the end, newest first, or oldest first for a serial show, as many as fit
    /// within `QueueSubmission.maximumLength`.
    static func queue(_ queue: [QueuedEpisode], joinedBy new: [Episode], serial: Bool) -> [QueuedEpisode] {
        let queued = Set(queue.map(\.episodeID))
        let ordered = new.filter { !$0.played && !queued.contains($0.id) }
            .sorted { serial ? ($0.published, $0.id) < ($1.published, $1.id) : ($0.published, $0.id) > ($1.published, $1.id) }
        let room = max(0, QueueSubmission.maximumLength - queue.count)
        return queue + ordered.prefix(room).map { QueuedEpisode(episodeID: $0.id, podcastID: $0.podcastID) }
    }

    /// The queued episodes, head first, as the library holds them now (`Podcasts1.GetQueue`);
    /// `StorageError` when the library could not be read.
    public func queuedEpisodes() throws -> [Episode] {
        try document.snapshot.state.queue.compactMap { try episode($0.episodeID) }
    }
}
