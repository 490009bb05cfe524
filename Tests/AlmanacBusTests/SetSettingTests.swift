import AlmanacCore
import AlmanacModels
import AlmanacServices
import AlmanacWire
import DBus
import TestHarness
import Testing

/// `Almanac1.SetSetting` through an in-process server: each setting lands in the document
/// that owns it, whichever that is, and a wrong value or an unknown name is refused with
/// nothing changed in either document.
@Suite(.onTestThreads, .timeLimit(.hang)) struct SetSettingTests {
    /// A value other than the default for every setting.
    static let changes: [(Setting, Value)] = [
        (.units, .string("imperial")),
        (.provider, .string("met-norway")),
        (.notify, .boolean(true)),
        (.deleteWhenPlayed, .boolean(true)),
        (.playedAt, .double(0.8)),
        (.minimumFreeSpace, .uint64(2 << 30)),
        (.continuous, .boolean(false)),
        (.rainNotify, .string("30m")),
        (.windUnit, .string("bft")),
        (.precipitationUnit, .string("in")),
        (.weatherAlerts, .string("all")),
        (.metered, .string("allow")),
        (.backupsKept, .uint32(3)),
    ]

    @Test(arguments: changes)
    func eachSettingLandsInTheDocumentThatOwnsIt(setting: Setting, value: Value) async throws {
        try await withInProcessAlmanac(podcastStore: StateStore.inMemory(logger: .discarding)) { almanac in
            let client = try await almanac.connect()
            let (weather, podcasts) = (almanac.weather.document.revision, almanac.podcasts.document.revision)
            let revision = try await client.setSetting(setting, value)
            let weatherState = almanac.weather.document.snapshot.state
            let settings = almanac.podcasts.document.snapshot.state.settings
            switch setting.section {
            case .weather:
                #expect(revision == weather + 1 && almanac.weather.document.revision == revision)
                #expect(almanac.podcasts.document.revision == podcasts)
            case .podcasts:
                #expect(revision == podcasts + 1 && almanac.podcasts.document.revision == revision)
                #expect(almanac.weather.document.revision == weather)
            }
            switch setting {
            case .units: #expect(weatherState.units == .imperial)
            case .provider: #expect(weatherState.provider == .metNorway)
            case .notify: #expect(settings.notify)
            case .deleteWhenPlayed: #expect(settings.deleteWhenPlayed)
            case .playedAt: #expect(settings.playedAt == 0.8)
            case .minimumFreeSpace: #expect(settings.minimumFreeSpace == 2 << 30)
            case .continuous: #expect(!settings.continuous)
            case .rainNotify: #expect(weatherState.rainNotify == .thirtyMinutes)
            case .windUnit: #expect(weatherState.windUnit == .beaufort)
            case .precipitationUnit: #expect(weatherState.precipitationUnit == .inches)
            case .weatherAlerts: #expect(weatherState.weatherAlerts == .all)
            case .metered: #expect(settings.metered == .allow)
            case .backupsKept: #expect(settings.backupsKept == 3)
            }
        }
    }

    /// Each setting is read back under its bus key where the bus shows it: the weather
    /// document's `GetState`, the podcasts document's `Podcasts1.Settings` property.
    @Test(arguments: changes)
    func eachSettingIsShownUnderItsBusKey(setting: Setting, value: Value) async throws {
        try await withInProcessAlmanac(podcastStore: StateStore.inMemory(logger: .discarding)) { almanac in
            let client = try await almanac.connect()
            _ = try await client.setSetting(setting, value)
            let shown: [String: Value]
            switch setting.section {
            case .weather:
                shown = try await client.state(of: .weather).state
            case .podcasts:
                shown = try await client.connection.property(BusContract.Podcasts1.settings, on: BusContract.serviceName, path: BusContract.documentPath(.podcasts)).entries
            }
            #expect(shown[setting.busKey]?.unwrapped == value, "\(setting): \(shown)")
        }
    }

    @Test func theChangesCoverEverySetting() {
        #expect(Set(Self.changes.map(\.0)) == Set(Setting.allCases))
    }

    @Test(arguments: [
        (Setting.units, Value.string("kelvin"), "units"),
        (.provider, .string("accuweather"), "provider"),
        (.notify, .string("yes"), "notify"),
        (.playedAt, .double(0.2), "playedAt"),
        (.minimumFreeSpace, .double(-1), "minimumFreeSpace"),
        (.rainNotify, .string("45m"), "rainNotify"),
        (.windUnit, .string("furlongs/fortnight"), "windUnit"),
        (.precipitationUnit, .string("cm"), "precipitationUnit"),
        (.weatherAlerts, .string("extreme"), "weatherAlerts"),
        (.backupsKept, .uint32(0), "backupsKept"),
        (.backupsKept, .uint32(101), "backupsKept"),
        (.backupsKept, .double(2.5), "backupsKept"),
    ])
    func aWrongValueIsRefusedAndChangesNothing(setting: Setting, value: Value, named: String) async throws {
        try await withInProcessAlmanac(podcastStore: StateStore.inMemory(logger: .discarding)) { almanac in
            let client = try await almanac.connect()
            let (weather, podcasts) = (almanac.weather.document.snapshot, almanac.podcasts.document.snapshot)
            let error = await #expect(throws: BusError.self) { _ = try await client.setSetting(setting, value) }
            #expect(error?.name == .invalidArgs && error?.message.contains(named) == true, "\(String(describing: error))")
            #expect(almanac.weather.document.snapshot.revision == weather.revision && almanac.weather.document.snapshot.state == weather.state)
            #expect(almanac.podcasts.document.snapshot.revision == podcasts.revision && almanac.podcasts.document.snapshot.state.settings == podcasts.state.settings)
        }
    }

    @Test func anUnknownNameIsRefusedListingTheNames() async throws {
        try await withInProcessAlmanac(podcastStore: StateStore.inMemory(logger: .discarding)) { almanac in
            let client = try await almanac.connect()
            for name in ["player", "delete-when-played", "colour"] {
                let error = await #expect(throws: BusError.self) {
                    _ = try await client.connection.call(BusContract.serviceName, path: BusContract.rootPath, interface: BusContract.rootInterface,
                                                         method: BusContract.Almanac1.setSetting.name) { try $0.write(arguments: name, Value.boolean(true)) }
                }
                #expect(error?.name == .invalidArgs && error?.message.contains("There is no setting '\(name)'; there are: notify, deleteWhenPlayed") == true,
                        "\(String(describing: error))")
            }
        }
    }
}
