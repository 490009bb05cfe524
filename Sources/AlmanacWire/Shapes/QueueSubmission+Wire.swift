public import AlmanacModels
import DBus

extension QueueSubmission: WireShaped {
    /// An edit of the Up Next queue as a `Submit` carries it (docs/bus-api.md, "What
    /// `Submit` accepts"): `{"queueAdd": <as>, "next": <b>}`, `{"queueRemove": <as>}`,
    /// `{"queueMove": <s>, "to": <u>}` (1: the head), `{"queueClear": true}`.
    public struct Wire: Codable {
        var queueAdd: [String]?
        var next: Bool?
        var queueRemove: [String]?
        var queueMove: String?
        var to: UInt32?
        var queueClear: Bool?
    }

    public var wire: Wire {
        switch self {
        case .add(let episodes, let next): Wire(queueAdd: episodes, next: next)
        case .remove(let episodes): Wire(queueRemove: episodes)
        case .move(let episode, let position): Wire(queueMove: episode, to: UInt32(clamping: position))
        case .clear: Wire(queueClear: true)
        }
    }

    /// The edit as the daemon reads it, strictly (`PodcastsCodec.submission`).
    public init(wire: Wire) throws {
        guard case .queue(let edit) = try PodcastsCodec.submission(try WireCoding.encoder.encodeFields(wire)) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "No edit of the queue."))
        }
        self = edit
    }
}
