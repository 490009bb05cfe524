import AlmanacModels
import TestHarness
import Testing

/// `Setting` names each daemon setting once; its other spellings are derived from the case.
@Suite(.onTestThreads, .timeLimit(.hang)) struct SettingTests {
    @Test(arguments: [
        (Setting.notify, "notify", "notify", "podcasts.notify", Setting.Section.podcasts),
        (.deleteWhenPlayed, "delete-when-played", "deleteWhenPlayed", "podcasts.deleteWhenPlayed", .podcasts),
        (.playedAt, "played-at", "playedAt", "podcasts.playedAt", .podcasts),
        (.minimumFreeSpace, "minimum-free-space", "minimumFreeSpace", "podcasts.minimumFreeSpace", .podcasts),
        (.units, "units", "units", "weather.units", .weather),
        (.provider, "provider", "provider", "weather.provider", .weather),
    ])
    func eachSettingIsSpelledOnceAndTheRestDerived(setting: Setting, name: String, busKey: String, storeKey: String, section: Setting.Section) {
        #expect(setting.name == name)
        #expect(setting.busKey == busKey)
        #expect(setting.storeKey == storeKey)
        #expect(setting.section == section)
        #expect(Setting(name: name) == setting)
        #expect(Setting(busKey: busKey) == setting)
    }

    @Test func everySettingIsCoveredAndNoOtherNameIsOne() {
        #expect(Setting.allCases.count == 6)
        // `player` is the CLI's own; a bus key is not a CLI name, nor the other way round.
        for other in ["player", "deleteWhenPlayed", "delete-when-played ", "", "Units"] { #expect(Setting(name: other) == nil, "\(other)") }
        for other in ["player", "delete-when-played", "locations", "episode"] { #expect(Setting(busKey: other) == nil, "\(other)") }
    }
}
