import Locking
import Logging
import Synchronization
import FoundationEssentials
import AlmanacModels

/// The owner's side: each burst of changes from the mailbox settled, kept in one
/// transaction and applied to the state.
extension WeatherDocument {
    // MARK: The owner

    /// A change waiting in the owner's mailbox. Each is answered with the revision after it
    /// (the current one when it changed nothing).
    enum Command: Sendable {
        /// What a view submitted (validated), and the view.
        case submission(WeatherSubmission, from: ViewKey?)
        /// What the service fetched.
        case reading(WeatherReading)
        /// Why the service could not fetch a place a view or the saved places want.
        case failure(location: String, message: String)
        /// The alerts the service fetched for a place, or why it could not (`nil` alerts), and when.
        case alerts(location: String, [WeatherAlert]?, failure: String?, at: Date)
        /// Drop what no view and no saved place wants.
        case forgetUnwanted
        /// Serve a newly watched place's kept reading.
        case restoreLastKnown(String)
    }

    /// The owner's burst. Settles each submission in order against the places the ones before
    /// it leave (`addLocation`/`removeLocation` become the whole list; one that is refused
    /// changes nothing and does not stop the others); then saves, in one transaction (`keep`),
    /// the settings they lead to (once, and only if they differ from the current ones, which
    /// are on disk already) and every reading; then applies each command in order. A change the
    /// caller is told about survives a crash; when the settings cannot be written no
    /// submission is applied (a reading that cannot be kept is still shown). Places no longer
    /// saved nor watched are forgotten after the change that let them go.
    func commit(_ commands: [Command]) -> [Result<UInt64, any Error>] {
        // Only the owner's bursts change the state, one at a time, so nothing else moves it meanwhile.
        let current = document.snapshot.state
        var (units, locations, provider) = (current.units, current.savedLocations, current.provider)
        var rainNotify = current.rainNotify
        var (windUnit, precipitationUnit) = (current.windUnit, current.precipitationUnit)
        var weatherAlerts = current.weatherAlerts
        var settled: [Result<Command, any Error>] = []
        for command in commands {
            settled.append(Result {
                guard case .submission(let submission, let view) = command else { return command }
                let settledSubmission = try submission.settled(against: locations)
                switch settledSubmission {
                case .units(let value): units = value
                case .provider(let value): provider = value
                case .savedLocations(let value): locations = value
                case .rainNotify(let value): rainNotify = value
                case .windUnit(let value): windUnit = value
                case .precipitationUnit(let value): precipitationUnit = value
                case .weatherAlerts(let value): weatherAlerts = value
                case .addLocation, .removeLocation: preconditionFailure("a settled submission is units or places")
                }
                return .submission(settledSubmission, from: view)
            })
        }
        let settingsChanged = units != current.units || locations != current.savedLocations || provider != current.provider
            || rainNotify != current.rainNotify
            || windUnit != current.windUnit || precipitationUnit != current.precipitationUnit
            || weatherAlerts != current.weatherAlerts
        let readings = commands.compactMap { command -> WeatherReading? in
            if case .reading(let reading) = command { reading } else { nil }
        }
        // A place's alerts are kept with its reading each time their source answers (a failure
        // keeps the last good ones on disk as they were).
        let alerts = commands.compactMap { command -> (String, PlaceAlerts)? in
            guard case .alerts(let location, let alerts?, _, let fetchedAt) = command, wantedLocations.contains(location) else { return nil }
            return (location, PlaceAlerts(alerts: alerts, fetchedAt: fetchedAt))
        }
        let settingsFailure = keep(settings: settingsChanged ? (units, locations, provider, rainNotify, windUnit, precipitationUnit, weatherAlerts) : nil,
                                   readings: readings, alerts: alerts)
        return settled.map { entry in
            entry.flatMap { command in
                if case .submission = command, let settingsFailure { return .failure(settingsFailure) }
                return .success(apply(command))
            }
        }
    }

    /// Writes what a burst keeps: the settings (when they changed) and every reading, in one
    /// transaction when there is more than one write (a single write is atomic by itself and
    /// needs no BEGIN and COMMIT: performance.md). Returns why the settings could not be
    /// written; a reading that could not be kept is logged, and shown all the same.
    private func keep(settings: (units: Units, locations: [String], provider: WeatherProvider, rainNotify: RainNotice,
                                 windUnit: WindUnit, precipitationUnit: PrecipitationUnit, weatherAlerts: AlertNotice)?,
                      readings: [WeatherReading], alerts: [(location: String, alerts: PlaceAlerts)]) -> (any Error)? {
        guard let archive else { return nil }
        var settingsFailure: (any Error)?
        func write() {
            if let settings {
                do {
                    try archive.saveSettings(units: settings.units, savedLocations: settings.locations, provider: settings.provider,
                                             rainNotify: settings.rainNotify,
                                             windUnit: settings.windUnit, precipitationUnit: settings.precipitationUnit,
                                             weatherAlerts: settings.weatherAlerts)
                } catch {
                    settingsFailure = error
                }
            }
            for reading in readings {
                do {
                    try archive.saveReading(reading)
                } catch {
                    logger.error("could not keep the reading of a place", metadata: ["location": "\(reading.location)", "error": "\(error)"])
                }
            }
            for (location, placeAlerts) in alerts {
                do {
                    try archive.saveAlerts(placeAlerts, at: location)
                } catch {
                    logger.error("could not keep the alerts of a place", metadata: ["location": "\(location)", "error": "\(error)"])
                }
            }
        }
        guard (settings == nil ? 0 : 1) + readings.count + alerts.count > 1 else {
            write()
            return settingsFailure
        }
        do {
            try archive.transaction(write)
        } catch {
            if !readings.isEmpty || !alerts.isEmpty { logger.error("could not keep the readings of a burst", metadata: ["error": "\(error)"]) }
            return settingsFailure ?? (settings == nil ? nil : error)
        }
        return settingsFailure
    }

    /// Applies one settled command; the revision after it.
    private func apply(_ command: Command) -> UInt64 {
        switch command {
        case .submission(let submission, let view):
            let revision = document.update(origin: view) { state -> WeatherChange? in
                switch submission {
                case .units(let units):
                    guard state.units != units else { return nil }
                    return state.apply(.units(units))
                case .provider(let provider):
                    guard state.provider != provider else { return nil }
                    return state.apply(.provider(provider))
                case .savedLocations(let locations):
                    guard state.savedLocations != locations else { return nil }
                    return state.apply(.savedLocations(locations))
                case .rainNotify(let notice):
                    guard state.rainNotify != notice else { return nil }
                    return state.apply(.rainNotify(notice))
                case .windUnit(let unit):
                    guard state.windUnit != unit else { return nil }
                    return state.apply(.windUnit(unit))
                case .precipitationUnit(let unit):
                    guard state.precipitationUnit != unit else { return nil }
                    return state.apply(.precipitationUnit(unit))
                case .weatherAlerts(let notice):
                    guard state.weatherAlerts != notice else { return nil }
                    return state.apply(.weatherAlerts(notice))
                case .addLocation, .removeLocation:
                    return nil
                }
            } ?? document.revision
            guard case .savedLocations = submission else { return revision }
            return forget() ?? revision
        case .reading(let reading):
            // A fetch that finishes after every view of its place has gone is not shown.
            guard wantedLocations.contains(reading.location) else { return document.revision }
            return document.update { state in
                // A reading without a nowcast (the other provider's, a server that left it out)
                // keeps the last one: its steps still say what they said until they are over.
                var reading = reading
                if reading.nowcast == nil { reading.nowcast = state.readings[reading.location]?.nowcast }
                return state.apply(.reading(reading))
            } ?? document.revision
        case .failure(let location, let message):
            guard wantedLocations.contains(location) else { return document.revision }
            return document.update { state in
                guard state.failures[location] != message else { return nil }
                return state.apply(.failed(location: location, message: message))
            } ?? document.revision
        case .alerts(let location, let alerts, let failure, let at):
            guard wantedLocations.contains(location) else { return document.revision }
            return document.update { state in
                let before = state.alerts[location]
                // The same alerts fetched again, still fresh, are not news (not even their time).
                if let alerts, let before, !before.stale, before.alerts == alerts { return nil }
                // A failure keeps the last good alerts, stale, as of their last answer; those
                // that have expired meanwhile end.
                let answered = fetching.withLock { $0.alertsAnswered[location] } ?? before?.fetchedAt
                let now = alerts.map { PlaceAlerts(alerts: $0, fetchedAt: at) }
                    ?? PlaceAlerts(alerts: before?.alerts ?? [], stale: true, error: failure, fetchedAt: answered).inForce(at: at)
                guard now != before else { return nil }
                let (began, ended) = now.difference(from: before)
                return state.apply(.alerts(location: location, now, began: began, ended: ended))
            } ?? document.revision
        case .forgetUnwanted:
            return forget() ?? document.revision
        case .restoreLastKnown(let location):
            return restore(location) ?? document.revision
        }
    }

    /// Drops what no view and no saved place wants (see `forgetUnwanted`); the revision after,
    /// or `nil` when there was nothing to drop.
    private func forget() -> UInt64? {
        let wanted = Set(wantedLocations)
        fetching.withLock { fetching in
            fetching.forecasts.keep(only: wanted)
            fetching.alerts.keep(only: wanted)
            fetching.alertsAnswered = fetching.alertsAnswered.filter { wanted.contains($0.key) }
        }
        activity.keep(only: wanted.union(wanted.map(Self.alertsItem)))
        scheduleChanged()
        return document.update { state in
            let unwanted = Set(state.readings.keys).union(state.failures.keys).union(state.alerts.keys).subtracting(wanted).sorted()
            guard !unwanted.isEmpty else { return nil }
            return state.apply(.forgotten(unwanted))
        }
    }

    /// Serves the archive's last reading of `location` when the document has none (see
    /// `restoreLastKnown`), and then the alerts kept with it, without those that have expired;
    /// the revision after, or `nil` when nothing was served.
    private func restore(_ location: String) -> UInt64? {
        guard document.snapshot.state.readings[location] == nil else { return nil }
        let kept: WeatherReading?
        let keptAlerts: PlaceAlerts?
        do {
            kept = try archive?.lastReading(at: location)
            keptAlerts = kept == nil ? nil : try archive?.lastAlerts(at: location)
        } catch {
            // Nothing is served for it until a fetch brings a reading; the fault is said.
            logger.error("could not read the last reading of a place", metadata: ["location": "\(location)", "error": "\(error)"])
            return nil
        }
        guard let reading = kept else { return nil }
        let now = clock()
        fetching.withLock { fetching in
            let age = now.timeIntervalSince(reading.fetchedAt)
            if age >= 0, age < min(fetching.forecasts.policy.interval, WeatherReading.freshFor), fetching.forecasts.failures(of: location) == 0 {
                fetching.forecasts.succeeded(location, now: reading.fetchedAt)
            }
        }
        let revision = document.update { state in
            // A reading restored from the archive is the last good one: a failure of the place
            // since then stands in the document (a view, which hears only `reading`, drops it
            // until the next fetch fails again).
            let failure = state.failures[location]
            state.apply(.reading(reading))
            state.failures[location] = failure
            return .reading(reading)
        }
        scheduleChanged()
        return restoreAlerts(keptAlerts, at: location, now: now) ?? revision
    }

    /// Serves `kept`, a place's alerts as the archive had them, when the document has none
    /// of its own: those in force, not news (no id began: they were notified when they did).
    /// Their own cadence counts from when they were fetched. The revision after, or `nil`.
    private func restoreAlerts(_ kept: PlaceAlerts?, at location: String, now: Date) -> UInt64? {
        guard let kept = kept?.inForce(at: now), document.snapshot.state.alerts[location] == nil else { return nil }
        if let fetchedAt = kept.fetchedAt {
            fetching.withLock { fetching in
                fetching.alertsAnswered[location] = fetching.alertsAnswered[location] ?? fetchedAt
                let age = now.timeIntervalSince(fetchedAt)
                if age >= 0, age < fetching.alerts.policy.interval, fetching.alerts.failures(of: location) == 0 {
                    fetching.alerts.succeeded(location, now: fetchedAt)
                }
            }
        }
        scheduleChanged()
        return document.update { state in
            guard state.alerts[location] == nil else { return nil }
            return state.apply(.alerts(location: location, kept, began: [], ended: []))
        }
    }
}
