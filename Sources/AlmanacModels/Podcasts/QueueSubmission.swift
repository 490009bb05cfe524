/// An edit of the Up Next queue a client submits (`almanac queue add|remove|move|clear`).
/// Episodes are named by id or by their feed's GUID; positions count from 1, the head.
public enum QueueSubmission: Sendable, Hashable {
    /// Adds episodes at the end, in the order given, or (`next`) at the head, in the order
    /// given. An episode queued already stays where it is, unless `next` moves it to the head.
    case add([String], next: Bool)
    /// Takes episodes out of the queue.
    case remove([String])
    /// Moves a queued episode to `position` (1: the head; at most the queue's length).
    case move(String, to: Int)
    /// Empties the queue.
    case clear

    /// The most episodes the queue holds.
    public static let maximumLength = 1_000

    /// The queue after this edit; `SubmissionError` (and nothing applied) for an episode
    /// `resolve` does not know, a played one added, one removed or moved that is not queued,
    /// a position out of range (refused, not clamped), or a queue grown past `maximumLength`.
    /// `resolve` finds an episode by id or GUID (`nil`: none).
    public func applied(to queue: [QueuedEpisode], resolve: (String) throws -> Episode?) throws -> [QueuedEpisode] {
        func episode(_ name: String) throws -> Episode {
            guard let found = try resolve(name) else {
                throw SubmissionError("There is no episode '\(name.prefix(200))': `almanac episodes` lists them with their ids.")
            }
            return found
        }
        func queued(_ name: String) throws -> String {
            let id = try episode(name).id
            guard queue.contains(where: { $0.episodeID == id }) else {
                throw SubmissionError("The episode '\(name.prefix(200))' is not in the queue: `almanac queue` lists what is.")
            }
            return id
        }
        switch self {
        case .add(let names, let next):
            guard !names.isEmpty else { throw SubmissionError("Say which episodes to add to the queue.") }
            var added: [QueuedEpisode] = []
            for name in names {
                let found = try episode(name)
                guard !found.played else {
                    throw SubmissionError("The episode '\(name.prefix(200))' is played, and a played episode leaves the queue: mark it unplayed first (`almanac episode unplayed \(found.id)`). Nothing was added.")
                }
                if !added.contains(where: { $0.episodeID == found.id }) {
                    added.append(QueuedEpisode(episodeID: found.id, podcastID: found.podcastID))
                }
            }
            var result: [QueuedEpisode]
            if next {
                let ids = Set(added.map(\.episodeID))
                result = added + queue.filter { !ids.contains($0.episodeID) }
            } else {
                let ids = Set(queue.map(\.episodeID))
                result = queue + added.filter { !ids.contains($0.episodeID) }
            }
            guard result.count <= Self.maximumLength else {
                throw SubmissionError("The queue holds at most \(Self.maximumLength) episodes; it has \(queue.count), and this would make \(result.count). Remove some first (`almanac queue remove ID…`, `almanac queue clear`). Nothing was added.")
            }
            return result
        case .remove(let names):
            guard !names.isEmpty else { throw SubmissionError("Say which episodes to take out of the queue.") }
            let ids = Set(try names.map(queued))
            return queue.filter { !ids.contains($0.episodeID) }
        case .move(let name, let position):
            let id = try queued(name)
            guard (1...queue.count).contains(position) else {
                throw SubmissionError("There is no position \(position) in the queue: it holds \(queue.count) episode\(queue.count == 1 ? "" : "s"), so give 1 to \(queue.count). Nothing was moved.")
            }
            var result = queue
            guard let index = result.firstIndex(where: { $0.episodeID == id }) else { return queue }
            result.insert(result.remove(at: index), at: position - 1)
            return result
        case .clear:
            return []
        }
    }
}
