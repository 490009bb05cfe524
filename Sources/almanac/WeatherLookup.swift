import AlmanacWire
import AlmanacModels
import DBus
import FoundationEssentials

/// Gets the weather of a place the daemon may not be watching yet: when it has no reading,
/// a view is registered until the first fresh reading or failure arrives (15 s at most), and
/// the state is taken while the view still stands (the daemon forgets places nobody watches).
struct WeatherLookup {
    let client: AlmanacClient

    /// How old a reading may be and still answer at once (what the daemon calls fresh).
    static let freshEnough: Double = WeatherReading.freshFor
    /// What to do when the provider refuses a place.
    static let placeHint = "check the name, or give coordinates such as 52.52,13.41"

    /// What to do after `failure` of `location`: nothing more when the failure says it
    /// already (a name not found suggests coordinates, several matches ask which) or when
    /// the place is "here", which no other name stands for.
    static func hint(after failure: String?, of location: String) -> String {
        guard location.lowercased() != "here", let failure else { return failure == nil ? placeHint : "" }
        let advised = ["coordinates", "Say which", "its id"].contains { failure.contains($0) }
        return advised ? "" : placeHint
    }
    /// How long to wait for the first answer.
    static let patience: Duration = .seconds(15)

    /// The weather state, with `location`'s reading in it when there is one, holding its first
    /// `hours` hours where it has them: as many as the state carries, or more, are asked for
    /// with `HourlyForecast` while the place is still watched (the state's begin with the
    /// hours gone by since the reading was fetched).
    func state(for location: String?, hours: Int = 0) async throws -> (revision: UInt64, state: WeatherState) {
        guard let location, hours >= WeatherReading.hoursOnTheBus else { return try await state(for: location.map { [$0] } ?? []) }
        var (revision, fields) = try await client.state(of: .weather)
        var extended: [HourlyForecast]?
        if fields["readings"]?.stringKeyedEntries?[location] != nil {
            extended = try? await client.hourlyForecast(location, hours: hours)
        } else {
            (revision, fields, extended) = try await firstUpdate(location, hours: hours)
        }
        var state = try WireCoding.decode(WeatherState.self, fromFields: fields)
        if let extended, !extended.isEmpty { state.readings[location]?.hourly = extended }
        return (revision, state)
    }

    /// The weather state, with a reading of each of `locations` in it where there is one.
    func state(for locations: [String]) async throws -> (revision: UInt64, state: WeatherState) {
        var (revision, fields) = try await client.state(of: .weather)
        var state = try WireCoding.decode(WeatherState.self, fromFields: fields)
        for location in locations where state.readings[location] == nil && state.failures[location] == nil {
            (revision, fields, _) = try await firstUpdate(location)
            state = try WireCoding.decode(WeatherState.self, fromFields: fields)
        }
        return (revision, state)
    }

    /// The state once `location` has its first answer, and (`hours` > 0) its first `hours`
    /// hours, asked for before its view goes.
    private func firstUpdate(_ location: String, hours: Int = 0) async throws -> (UInt64, [String: Value], [HourlyForecast]?) {
        let owner = try await client.startDaemon()
        let updates = try await client.updates(of: .weather, from: owner)
        let view = try await client.addView(WeatherViewOptions(location: location))
        let answered = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                for await message in updates where message.path == view {
                    guard let (_, data) = try? BusContract.View1.updated.values(of: message),
                          case .changed(let change)? = try? WireCoding.decode(ViewUpdate<WeatherState, WeatherChange>.self, fromFields: data), change.location == location else { continue }
                    switch change {
                    case .failed: return true
                    // A last-known reading the daemon kept from before is shown only if no fresh one comes.
                    case .reading(let reading) where clockNow().timeIntervalSince(reading.fetchedAt) < Self.freshEnough: return true
                    default: continue
                    }
                }
                return false
            }
            group.addTask {
                try? await Task.sleep(for: Self.patience)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
        let snapshot = try await client.state(of: .weather)
        let extended = hours > 0 ? try? await client.hourlyForecast(location, hours: hours) : nil
        try? await client.removeView(.weather, view)
        guard answered || snapshot.state["readings"]?.stringKeyedEntries?[location] != nil else {
            await client.connection.close()
            throw CLIError.refused("no reading for '\(location)' within 15 seconds; the provider may be slow or unreachable",
                                   "try again, or watch it with `almanac watch weather --location \(location)`")
        }
        return (snapshot.revision, snapshot.state, extended)
    }
}
