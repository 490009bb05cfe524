import AlmanacCore
import AlmanacFeeds
import AlmanacModels
import FoundationEssentials

/// A sync server's answers read straight into the values the client keeps, with `JSONReader`
/// and no tree in between: web URLs, episode actions, timestamps; everything else is read
/// past. So an answer costs about its own size however it is made (`{"add":[{"a":0},…]}`
/// keeps nothing). A list is kept whole or not at all: one of more than `maximumItems`
/// items is an error (`JSONReadError.tooLarge`), never a prefix taken for the whole list.
/// A reader gives `nil` for an answer that is JSON but not an object; a member of another
/// type than the API's reads as absent, and of a name given twice the first counts.
enum GpodderAnswer {
    /// Items of one list, at most: a sync server's largest answers (16 MiB of episode
    /// actions, some 250 bytes each) hold some 70,000.
    static let maximumItems = 200_000
    /// The longest URL taken from a server.
    static let maximumURLBytes = 2_048
    static let limits = JSONLimits(depth: 32, stringBytes: 64 * 1024, items: maximumItems, values: maximumItems)

    /// What a `GET` of subscription changes holds.
    struct Changes {
        var add: [String]?
        var remove: [String]?
        var timestamp: Int64?
    }

    /// What a `GET` of episode actions holds: the actions that are the API's (others dropped).
    struct Actions {
        var actions: [EpisodeAction]?
        var timestamp: Int64?
    }

    /// `{"add": [URL…], "remove": [URL…], "timestamp": N}`: only web URLs are kept.
    static func subscriptionChanges(_ data: Data) throws -> Changes? {
        var changes = Changes()
        let isObject = try object(data) { reader, name in
            switch name {
            case "add": changes.add = try urls(&reader)
            case "remove": changes.remove = try urls(&reader)
            case "timestamp": changes.timestamp = try reader.numberIfAny().flatMap(integer)
            default: break
            }
        }
        return isObject ? changes : nil
    }

    /// `{"actions": [action…], "timestamp": N}`.
    static func episodeActions(_ data: Data) throws -> Actions? {
        var answer = Actions()
        let isObject = try object(data) { reader, name in
            switch name {
            case "actions":
                guard try reader.kind() == .array else { return }
                var actions: [EpisodeAction] = []
                try reader.elements(atMost: maximumItems) { reader in
                    if let action = try action(&reader) { actions.append(action) }
                }
                answer.actions = actions
            case "timestamp": answer.timestamp = try reader.numberIfAny().flatMap(integer)
            default: break
            }
        }
        return isObject ? answer : nil
    }

    /// An upload's answer: `{"timestamp": N, "update_urls": [[from, to]…]}`.
    static func upload(_ data: Data) throws -> SyncUpload? {
        var upload = SyncUpload(timestamp: nil)
        let isObject = try object(data) { reader, name in
            switch name {
            case "timestamp": upload.timestamp = try reader.numberIfAny().flatMap(integer)
            case "update_urls":
                guard try reader.kind() == .array else { return }
                try reader.elements(atMost: maximumItems) { reader in
                    if let rewrite = try rewrite(&reader) { upload.rewrites.append(rewrite) }
                }
            default: break
            }
        }
        return isObject ? upload : nil
    }

    /// `GET sync-devices`: `{"synchronized": [[device…]…], "not-synchronized": [device…]}`.
    static func syncDevices(_ data: Data) throws -> (groups: [[String]], others: [String])? {
        var groups: [[String]] = []
        var others: [String] = []
        let isObject = try object(data) { reader, name in
            switch name {
            case "synchronized":
                guard try reader.kind() == .array else { return }
                try reader.elements(atMost: maximumItems) { reader in
                    groups.append(try strings(&reader, atMost: maximumItems) ?? [])
                }
            case "not-synchronized": others = try strings(&reader, atMost: maximumItems) ?? []
            default: break
            }
        }
        return isObject ? (groups, others) : nil
    }

    /// Whether `data` is a JSON list (`GET devices`), read past without keeping anything.
    static func isList(_ data: Data) -> Bool {
        (try? JSONReader.read(data, limits: limits) { reader in try reader.kind() == .array }) == true
    }

    /// The `message` of a JSON object (a server's reason for an error), if it has one.
    static func message(_ data: Data) -> String? {
        var message: String?
        guard (try? object(data, { reader, name in if name == "message" { message = try reader.stringIfAny() } })) == true else { return nil }
        return message
    }

    // MARK: Reading values

    /// One episode action of a list: `nil` when it is not one the API describes (no web
    /// URLs, an unknown action, a time past any sensible one).
    static func action(_ reader: inout JSONReader) throws -> EpisodeAction? {
        guard try reader.kind() == .object else { return nil }
        var podcast: String?, episode: String?, kind: String?, device: String?
        var seconds: Int64?
        var numbers: [String: Double] = [:]
        var seen = Set<String>()
        try reader.members { reader, name in
            guard ["podcast", "episode", "action", "timestamp", "device", "started", "position", "total"].contains(name),
                  seen.insert(name).inserted else { return }
            switch name {
            case "podcast": podcast = try reader.stringIfAny()
            case "episode": episode = try reader.stringIfAny()
            case "action": kind = try reader.stringIfAny()
            case "device": device = try reader.stringIfAny()
            case "timestamp":
                switch try reader.kind() {
                case .string: seconds = FeedDate.unixTime(try reader.string())
                case .number: seconds = integer(try reader.number())
                default: break
                }
            default: numbers[name] = try reader.numberIfAny()
            }
        }
        guard let podcast, let episode, isWebURL(podcast), isWebURL(episode),
              let kind = kind.flatMap({ EpisodeAction.Kind(rawValue: $0.lowercased()) }),
              let seconds, abs(seconds) < 100_000_000_000 else { return nil }
        func value(_ key: String) -> Int? {
            guard let number = numbers[key].flatMap(integer), number >= 0, number < 1_000_000_000 else { return nil }
            return Int(number)
        }
        return EpisodeAction(podcast: podcast, episode: episode, kind: kind, timestamp: Date(timeIntervalSince1970: Double(seconds)),
                             started: value("started"), position: value("position"), total: value("total"),
                             device: device.map { $0.printableLine(maximumLength: 200) })
    }

    /// `[from, to]`: what was sent and what the server keeps instead ("": nothing); `nil`
    /// for anything else.
    private static func rewrite(_ reader: inout JSONReader) throws -> URLRewrite? {
        guard try reader.kind() == .array else { return nil }
        var pair: [String] = []
        var count = 0
        try reader.elements { reader in
            count += 1
            if count <= 2, let text = try reader.stringIfAny() { pair.append(text) }
        }
        guard count == 2, pair.count == 2, pair[0].utf8.count <= maximumURLBytes, pair[1].isEmpty || isWebURL(pair[1]) else { return nil }
        return URLRewrite(from: pair[0], to: pair[1])
    }

    /// Reads `data`'s object with `member` at each member's value (the first of a name given
    /// twice; the rest read past); `false` when `data` is JSON but no object.
    private static func object(_ data: Data, _ member: (inout JSONReader, String) throws -> Void) throws -> Bool {
        try JSONReader.read(data, limits: limits) { reader in
            guard try reader.kind() == .object else { return false }
            var seen = Set<String>()
            try reader.members { reader, name in
                // Only names a reader knows are remembered: a thousand others cost nothing.
                guard ["add", "remove", "timestamp", "actions", "update_urls", "synchronized", "not-synchronized", "message"].contains(name),
                      seen.insert(name).inserted else { return }
                try member(&reader, name)
            }
            return true
        }
    }

    /// The web URLs of a list (other items read past); `nil` when the value is no list.
    private static func urls(_ reader: inout JSONReader) throws -> [String]? {
        guard try reader.kind() == .array else { return nil }
        var urls: [String] = []
        try reader.elements(atMost: maximumItems) { reader in
            if let text = try reader.stringIfAny(), isWebURL(text) { urls.append(text) }
        }
        return urls
    }

    /// The strings of a list of at most `limit` items (others read past); `nil` when the
    /// value is no list.
    private static func strings(_ reader: inout JSONReader, atMost limit: Int) throws -> [String]? {
        guard try reader.kind() == .array else { return nil }
        var strings: [String] = []
        try reader.elements(atMost: limit) { reader in
            if let text = try reader.stringIfAny() { strings.append(text) }
        }
        return strings
    }

    /// Only http(s) URLs of sensible length, without spaces or controls, are taken from a server.
    static func isWebURL(_ text: String) -> Bool {
        let lower = text.prefix(8).lowercased()
        return (lower.hasPrefix("http://") || lower.hasPrefix("https://")) && text.utf8.count <= maximumURLBytes
            && !text.unicodeScalars.contains { $0.value < 0x21 || $0.value == 0x7F }
    }

    /// A whole number of seconds from a JSON number: `nil` when it is not finite or is beyond
    /// any time (±9e15).
    static func integer(_ number: Double) -> Int64? {
        number.isFinite && abs(number) < 9e15 ? Int64(number.rounded(.down)) : nil
    }
}
