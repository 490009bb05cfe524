/// A setting of the daemon's, named once (issue 31): its key on the bus (`Almanac1.SetSetting`'s
/// `name`, a key of `Document1.Submit`'s change), its name on the command line
/// (`almanac settings set NAME`) and its key in the store, each derived from the case.
/// Not `player`: the program `episode play` runs is the CLI's own setting, not the daemon's.
public enum Setting: String, CaseIterable, Sendable, Hashable {
    case notify
    case deleteWhenPlayed
    case playedAt
    case minimumFreeSpace
    case continuous
    case units
    case provider
    case rainNotify
    case windUnit
    case precipitationUnit
    case weatherAlerts
    case metered
    case backupsKept

    /// The part of the daemon's state that holds it, and so the document that owns it.
    public var section: Section {
        switch self {
        case .notify, .deleteWhenPlayed, .playedAt, .minimumFreeSpace, .continuous, .metered: .podcasts
        // The library's own setting: the podcasts document holds the library.
        case .backupsKept: .podcasts
        case .units, .provider: .weather
        case .rainNotify: .weather
        case .windUnit, .precipitationUnit: .weather
        case .weatherAlerts: .weather
        }
    }

    /// Its key on the bus: `deleteWhenPlayed`.
    public var busKey: String { rawValue }

    /// Its name on the command line: the bus key with its words in lower case joined by
    /// hyphens, `delete-when-played`.
    public var name: String {
        var name = ""
        for character in rawValue {
            if character.isUppercase { name += "-" + character.lowercased() } else { name.append(character) }
        }
        return name
    }

    /// Its key in the daemon's store: `podcasts.deleteWhenPlayed`.
    public var storeKey: String { section.rawValue + "." + busKey }

    /// The setting the command line calls `name`, if any.
    public init?(name: String) {
        guard let setting = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = setting
    }

    /// The setting the bus calls `busKey`, if any.
    public init?(busKey: String) {
        self.init(rawValue: busKey)
    }
}
