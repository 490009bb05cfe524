import AlmanacModels
import Foundation
import TestHarness
import Testing

/// `Setting` names each daemon setting once; its other spellings are derived from the case.
@Suite(.onTestThreads, .timeLimit(.hang)) struct SettingTests {
    @Test(arguments: [
        (Setting.notify, "notify", "notify", "podcasts.notify", Setting.Section.podcasts),
        (.deleteWhenPlayed, "delete-when-played", "deleteWhenPlayed", "podcasts.deleteWhenPlayed", .podcasts),
        (.playedAt, "played-at", "playedAt", "podcasts.playedAt", .podcasts),
        (.minimumFreeSpace, "minimum-free-space", "minimumFreeSpace", "podcasts.minimumFreeSpace", .podcasts),
        (.continuous, "continuous", "continuous", "podcasts.continuous", .podcasts),
        (.units, "units", "units", "weather.units", .weather),
        (.provider, "provider", "provider", "weather.provider", .weather),
        (.rainNotify, "rain-notify", "rainNotify", "weather.rainNotify", .weather),
        (.windUnit, "wind-unit", "windUnit", "weather.windUnit", .weather),
        (.precipitationUnit, "precipitation-unit", "precipitationUnit", "weather.precipitationUnit", .weather),
        (.weatherAlerts, "weather-alerts", "weatherAlerts", "weather.weatherAlerts", .weather),
        (.metered, "metered", "metered", "podcasts.metered", .podcasts),
        (.backupsKept, "backups-kept", "backupsKept", "podcasts.backupsKept", .podcasts),
    ])
    func eachSettingIsSpelledOnceAndTheRestDerived(setting: Setting, name: String, busKey: String, storeKey: String, section: Setting.Section) {
        #expect(setting.name == name)
        #expect(setting.busKey == busKey)
        #expect(setting.storeKey == storeKey)
        #expect(setting.section == section)
        #expect(Setting(name: name) == setting)
        #expect(Setting(busKey: busKey) == setting)
    }

    /// Words that are a setting's key and also something else, written as literals for that:
    /// a weather change's kind and a view's JSON field (`units`, `provider`), a reading's
    /// provider, a podcast's own `notify` preference.
    static let sharedWords: Set<String> = ["units", "provider", "notify"]
    /// Literals that equal a setting's spelling but are something else, with where.
    static let allowed: Set<String> = [
        // A column of the episodes table (when an episode was played), not the setting.
        "AlmanacServices/Store/StateStore+Preferences.swift: \"playedAt\"",
    ]

    /// Each setting is spelled once, in `Setting`: no string literal in Sources (outside the
    /// harness and comments) is a setting's bus key or CLI name, so a setting added or
    /// renamed there cannot be missed by a hand-written key elsewhere.
    @Test func noSettingIsSpelledOutsideSetting() throws {
        let spellings = Set(Setting.allCases.flatMap { [$0.busKey, $0.name] }).subtracting(Self.sharedWords)
        let sources = SourceTree.path("Sources")
        let files = try #require(FileManager.default.enumerator(atPath: sources)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") && !$0.hasPrefix("TestHarness/") && !$0.hasPrefix("AlmanacModels/Settings/") }
        #expect(files.count > 100, "the sources were found: \(files.count)")
        var found: [String] = []
        for file in files.sorted() {
            let text = try String(contentsOfFile: sources + "/" + file, encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                for literal in line.matches(of: /"([^"\\]*)"/) where spellings.contains(String(literal.1)) {
                    guard !Self.allowed.contains("\(file): \"\(literal.1)\"") else { continue }
                    found.append("\(file):\(number + 1): \"\(literal.1)\"")
                }
            }
        }
        #expect(found.isEmpty, "use Setting's busKey, name or storeKey instead:\n\(found.joined(separator: "\n"))")
    }

    @Test func everySettingIsCoveredAndNoOtherNameIsOne() {
        #expect(Setting.allCases.count == 13)
        // `player` is the CLI's own; a bus key is not a CLI name, nor the other way round.
        for other in ["player", "deleteWhenPlayed", "delete-when-played ", "", "Units"] { #expect(Setting(name: other) == nil, "\(other)") }
        for other in ["player", "delete-when-played", "locations", "episode"] { #expect(Setting(busKey: other) == nil, "\(other)") }
    }
}
