import AlmanacModels
import DBus

/// Edits of the Up Next queue as the daemon reads them from a `Submit` (docs/bus-api.md,
/// "What `Submit` accepts"; a client writes them as `QueueSubmission.Wire` is shaped).
extension PodcastsCodec {
    private static let queueKeys = ["queueAdd", "queueRemove", "queueMove", "queueClear"]

    /// The queue edit a `Submit` asks for; `nil` when it names none of the queue's keys;
    /// `InvalidArgs` for more than one, keys that do not go with it, or values of another type.
    static func queueSubmission(_ values: [String: Value]) throws -> QueueSubmission? {
        let named = queueKeys.filter { values[$0] != nil }
        guard let key = named.first else { return nil }
        guard named.count == 1 else {
            throw BusError.invalidArgs("One edit of the queue at a time: \(named.joined(separator: " and ")) were both given. Nothing was changed.")
        }
        switch key {
        case "queueAdd":
            let options = try OptionsReader(values, allowed: ["queueAdd", "next"], what: "queue edit")
            return .add(try episodes(options, key), next: try options.bool("next") ?? false)
        case "queueRemove":
            return .remove(try episodes(try OptionsReader(values, allowed: ["queueRemove"], what: "queue edit"), key))
        case "queueMove":
            let options = try OptionsReader(values, allowed: ["queueMove", "to"], what: "queue edit")
            guard let episode = try options.string("queueMove"), let to = try options.number("to") else {
                throw BusError.invalidArgs("Say which episode to move and where: {\"queueMove\": <s>, \"to\": <u>} (1: the head).")
            }
            guard to.isFinite, to == to.rounded(), to >= 1, to <= Double(QueueSubmission.maximumLength) else {
                throw BusError.invalidArgs("'to' is a position in the queue, a whole number from 1 (the head) up; not \(to.echoedText). Nothing was moved.")
            }
            return .move(episode, to: Int(to))
        default:
            let options = try OptionsReader(values, allowed: ["queueClear"], what: "queue edit")
            guard try options.bool("queueClear") == true else { throw BusError.invalidArgs("'queueClear' can only be true.") }
            return .clear
        }
    }

    /// A list of episode ids (`as`): 1 to `QueueSubmission.maximumLength` of them, none empty.
    private static func episodes(_ options: OptionsReader, _ key: String) throws -> [String] {
        guard let ids = try options.strings(key), !ids.isEmpty else {
            throw BusError.invalidArgs("'\(key)' names at least one episode id. Nothing was changed.")
        }
        return ids
    }
}
