import AlmanacCore
import AlmanacBus
import AlmanacModels
import ArgumentParser
import DBus
import Dispatch
import FoundationEssentials
import Logging

@main
struct Almanacd: AsyncParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "almanacd",
        abstract: "Keeps live weather and podcast documents and publishes every change on the D-Bus session bus.",
        discussion: """
            Owns org.almanac.Almanac1 on the session bus. Watch it with
              dbus-monitor --session "type='signal',interface='org.almanac.Document1'"
            or use the almanac command. Normally started by systemd (almanacd.service) or by
            D-Bus activation.
            """,
        version: version
    )

    enum Provider: String, ExpressibleByArgument, CaseIterable {
        case demo, real
    }

    @Option(help: "Where data comes from: 'real' uses Open-Meteo and the podcasts' feeds; 'demo' simulates weather and podcasts offline.")
    var provider: Provider = .real

    @Option(help: ArgumentHelp("The demo provider's seed: the same seed, the same simulated weather and episodes (default: from the clock).", visibility: .hidden))
    var demoSeed: UInt64?

    @Option(help: "Open-Meteo forecast API base URL (or ALMANAC_WEATHER_URL); /v1/forecast is appended.")
    var weatherURL: String?

    @Option(help: "Open-Meteo geocoding API base URL (or ALMANAC_GEOCODING_URL); /v1/search is appended.")
    var geocodingURL: String?

    @Option(help: "MET Norway API base URL (or ALMANAC_MET_NORWAY_URL); /weatherapi/locationforecast/2.0/complete is appended.")
    var metNorwayURL: String?

    @Option(help: "The system bus, where the location service (GeoClue) is asked for the weather of \"here\" (default: the system's, or DBUS_SYSTEM_BUS_ADDRESS).")
    var systemBusAddress: String?

    @Option(help: "US National Weather Service API base URL for alerts (or ALMANAC_NWS_URL); /alerts/active is appended.")
    var nwsURL: String?

    @Option(help: "MET Norway MetAlerts base URL (or ALMANAC_METALERTS_URL); /weatherapi/metalerts/2.0/current.json is appended.")
    var metalertsURL: String?

    @Option(help: "MeteoAlarm feeds base URL for alerts in Europe (or ALMANAC_METEOALARM_URL); /api/v1/warnings/feeds-<country> is appended.")
    var meteoalarmURL: String?

    @Option(help: "Open-Meteo air-quality API base URL (or ALMANAC_AIR_QUALITY_URL); /v1/air-quality is appended.")
    var airQualityURL: String?

    @Option(help: "iTunes Search API base URL for `almanac podcasts search` (or ALMANAC_PODCAST_SEARCH_URL); /search is appended.")
    var podcastSearchURL: String?

    @Option(help: "Folder for settings and data (default: $XDG_STATE_HOME/almanac).")
    var stateDir: String?

    @Option(help: "Folder downloaded episodes go under, a folder per podcast (default: $XDG_DATA_HOME/almanac).")
    var dataDir: String?

    @Option(help: "Episode downloads at the same time.")
    var downloadsAtOnce: Int = 2

    @Option(help: "Seconds a finished download stays listed (on the bus and in `almanac downloads`).")
    var downloadLinger: Double = 300

    @Option(help: ArgumentHelp("Seconds new episodes are gathered into one desktop notification.", visibility: .hidden))
    var notificationGathering: Double = 2

    @Option(help: ArgumentHelp("Seconds between readings of a playing media player's position.", visibility: .hidden))
    var mprisPoll: Double = 15

    @Option(help: ArgumentHelp("The shortest refresh interval a podcast's own settings may name, in seconds (for tests).", visibility: .hidden))
    var refreshIntervalFloor: Double = PodcastPreferences.minimumRefreshInterval

    enum LogLevel: String, ExpressibleByArgument, CaseIterable {
        case trace, debug, info, notice, warning, error, critical
        var level: Logger.Level { Logger.Level(rawValue: rawValue) ?? .info }
    }

    @Option(help: "How much to log.")
    var logLevel: LogLevel = .info

    @Option(help: "Seconds between weather refreshes (default: 900 with the real provider, 3 with demo).")
    var weatherInterval: Double?

    @Option(help: "Seconds between fetches of a wanted place's official alerts, apart from its forecast's.")
    var alertsInterval: Double = 600

    @Option(help: "Seconds between podcast feed refreshes (default: 3600 with the real provider, 5 with demo).")
    var podcastInterval: Double?

    @Option(help: "Seconds between syncs with the podcast sync server when nothing changes here (`almanac sync login`).")
    var syncInterval: Double = 900

    @Option(help: "Seconds a change here waits for others before they are synced together.")
    var syncDebounce: Double = 30

    @Option(help: ArgumentHelp("Seconds before the first retry of a failed sync (doubling up to an hour).", visibility: .hidden))
    var syncFirstRetry: Double = 60

    /// The weather cadence in force: Open-Meteo is polled every 15 minutes unless told otherwise.
    var effectiveWeatherInterval: Double { weatherInterval ?? (provider == .real ? 900 : 3) }
    var effectivePodcastInterval: Double { podcastInterval ?? (provider == .real ? 3_600 : 5) }

    @Option(help: "A D-Bus address to use instead of the session bus (for tests).")
    var address: String?

    func validate() throws {
        guard (1...16).contains(downloadsAtOnce) else { throw ValidationError("--downloads-at-once goes from 1 to 16, not \(downloadsAtOnce).") }
        guard (0.05...3_600).contains(mprisPoll) else { throw ValidationError("--mpris-poll goes from 0.05 to 3600 seconds.") }
        guard (0.1...PodcastPreferences.minimumRefreshInterval).contains(refreshIntervalFloor) else {
            throw ValidationError("--refresh-interval-floor goes from 0.1 to \(Int(PodcastPreferences.minimumRefreshInterval)) seconds, not \(refreshIntervalFloor).")
        }
        guard (0...60).contains(notificationGathering) else { throw ValidationError("--notification-gathering goes from 0 to 60 seconds.") }
        guard (0...86_400).contains(downloadLinger) else { throw ValidationError("--download-linger goes from 0 to 86400 seconds, not \(downloadLinger).") }
        guard (1...86_400).contains(syncInterval) else { throw ValidationError("--sync-interval goes from 1 to 86400 seconds, not \(syncInterval).") }
        guard (0...3_600).contains(syncDebounce) else { throw ValidationError("--sync-debounce goes from 0 to 3600 seconds, not \(syncDebounce).") }
        guard (0.05...3_600).contains(syncFirstRetry) else { throw ValidationError("--sync-first-retry goes from 0.05 to 3600 seconds.") }
        for interval in [effectiveWeatherInterval, effectivePodcastInterval, alertsInterval] where !(0.1...86_400).contains(interval) {
            throw ValidationError("Refresh intervals go from 0.1 seconds to 86400 (a day), not \(interval).")
        }
        for (option, text) in [("--weather-url", weatherURL), ("--geocoding-url", geocodingURL), ("--air-quality-url", airQualityURL), ("--met-norway-url", metNorwayURL), ("--podcast-search-url", podcastSearchURL),
                               ("--nws-url", nwsURL), ("--metalerts-url", metalertsURL), ("--meteoalarm-url", meteoalarmURL)] {
            guard let text else { continue }
            guard let url = URL(string: text), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
                throw ValidationError("\(option) needs an http or https URL such as https://api.open-meteo.com, not '\(text)'.")
            }
        }
    }

    func run() async throws {
        // The one logger every part's is derived from (`subsystem`): nothing else makes one.
        let exitCode = await Daemon(options: self, logger: .root(level: logLevel.level)).run()
        if exitCode != 0 { throw ExitCode(exitCode) }
    }
}
