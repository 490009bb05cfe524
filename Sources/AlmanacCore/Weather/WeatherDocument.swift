import Locking
import Synchronization
public import FoundationEssentials

/// The weather document: the state every weather view watches, and the weather service's
/// data source (what is due to be fetched) and delegate (what arrived). It keeps the
/// refresh schedule (cadence, backoff) and, given an archive, the settings and last readings.
public final class WeatherDocument: WeatherServiceDataSource, WeatherServiceDelegate, Sendable {
    public typealias Model = Document<WeatherState, WeatherChange>

    /// The view option that names the place a view watches.
    public static let locationOption = "location"
    /// How long a kept reading counts as fresh (Open-Meteo's own cadence); clients use the same.
    public static let freshFor: Double = 15 * 60

    public let document: Model
    private let archive: (any WeatherArchive)?
    /// Submissions waiting to be saved and applied together.
    private let submissions: GroupCommit<QueuedSubmission>
    private let schedule: Locked<RefreshSchedule>
    private let clock: @Sendable () -> Date
    private let jitter: @Sendable () -> Double
    /// Told when the archive refused to keep a reading (the daemon logs it).
    public let onArchiveFailure: @Sendable (String) -> Void

    /// - Parameters:
    ///   - state: where to start (the daemon passes what the archive kept).
    ///   - policy: how often to fetch and how to back off.
    ///   - archive: where settings and readings are kept; `nil` keeps nothing.
    ///   - clock, jitter: the time and the randomness of backoff, for tests.
    public init(_ state: WeatherState = WeatherState(), policy: RefreshSchedule.Policy = .init(interval: 900),
                archive: (any WeatherArchive)? = nil, clock: @escaping @Sendable () -> Date = { Date() },
                jitter: @escaping @Sendable () -> Double = { Double.random(in: 0...1) },
                onArchiveFailure: @escaping @Sendable (String) -> Void = { _ in }) {
        document = Model(state)
        self.archive = archive
        submissions = GroupCommit { [document] queued in Self.commit(queued, to: document, archive: archive) }
        schedule = Locked(RefreshSchedule(policy: policy))
        self.clock = clock
        self.jitter = jitter
        self.onArchiveFailure = onArchiveFailure
    }

    // MARK: Data source

    /// The wanted places that are due now, claimed (see `take`).
    public func locationsToFetch(for service: any WeatherService) -> [String] {
        take(wantedLocations)
    }

    /// Of `locations`, those to fetch now, marked in flight so that no one else fetches them
    /// meanwhile: the ones due (never fetched, or their interval or backoff has passed), or,
    /// when `force`, all that are not already being fetched.
    public func take(_ locations: [String], force: Bool = false) -> [String] {
        let now = clock()
        return schedule.withLock { $0.take(locations, now: now, force: force) }
    }

    /// When the next wanted place falls due.
    public var nextDue: Date? {
        let wanted = wantedLocations
        let now = clock()
        return schedule.withLock { $0.nextDue(among: wanted, now: now) }
    }

    /// Failures in a row of `location`.
    public func failuresInARow(of location: String) -> Int {
        schedule.withLock { $0.failures(of: location) }
    }

    /// The saved places and every place a live view asked for, each once.
    public var wantedLocations: [String] {
        var wanted = document.snapshot.state.savedLocations
        for view in document.views.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            if let location = view.options[Self.locationOption], !wanted.contains(location) { wanted.append(location) }
        }
        return wanted
    }

    // MARK: Delegate

    public func weatherService(_ service: any WeatherService, didFetch reading: WeatherReading) {
        let now = clock()
        schedule.withLock { $0.succeeded(reading.location, now: now) }
        do {
            try archive?.saveReading(reading)
        } catch {
            onArchiveFailure("could not keep the reading of \(reading.location): \(error)")
        }
        // A fetch that finishes after every view of its place has gone is not kept.
        guard wantedLocations.contains(reading.location) else { return }
        document.update { state in
            state.readings[reading.location] = reading
            state.failures[reading.location] = nil
            return .reading(reading)
        }
    }

    public func weatherService(_ service: any WeatherService, didFailToFetch location: String, error: any Error) {
        let (now, jitter) = (clock(), jitter())
        _ = schedule.withLock { $0.failed(location, now: now, jitter: jitter) }
        guard wantedLocations.contains(location) else { return }
        let message = String(describing: error)
        document.update { state in
            guard state.failures[location] != message else { return nil }
            state.failures[location] = message
            return .failed(location: location, message: message)
        }
    }

    /// Drops the readings and failures of places no view and no saved location wants, so the
    /// state cannot grow with every place a client ever asked for. Call when views go or change.
    @discardableResult
    public func forgetUnwanted() -> UInt64? {
        let wanted = Set(wantedLocations)
        schedule.withLock { $0.keep(only: wanted) }
        return document.update { state in
            let unwanted = Set(state.readings.keys).union(state.failures.keys).subtracting(wanted).sorted()
            guard !unwanted.isEmpty else { return nil }
            for location in unwanted {
                state.readings[location] = nil
                state.failures[location] = nil
            }
            return .forgotten(unwanted)
        }
    }

    // MARK: Submissions

    /// Applies what a view submitted, after validating it and saving the settings; every
    /// view hears the change. Returns the revision after it.
    @discardableResult
    public func submit(_ submission: WeatherSubmission, from view: ViewKey?) throws -> UInt64 {
        try submissions.commitNow(QueuedSubmission(submission: submission.validated(), view: view))
    }

    /// Validates `submission` (throwing `SubmissionError` at once) and queues it; the next
    /// `commitSubmissions()` saves it with the others queued, applies it, and then calls
    /// `answer` with its revision or, when the settings could not be saved, the error (and
    /// then it changed nothing).
    public func enqueue(_ submission: WeatherSubmission, from view: ViewKey?,
                        answer: @escaping @Sendable (Result<UInt64, any Error>) -> Void) throws {
        submissions.enqueue(QueuedSubmission(submission: try submission.validated(), view: view), answer: answer)
    }

    /// Saves, applies and answers the queued submissions: one write for all of them.
    public func commitSubmissions() {
        submissions.commit()
    }

    /// A validated submission waiting for its commit.
    struct QueuedSubmission: Sendable {
        let submission: WeatherSubmission
        let view: ViewKey?
    }

    /// Saves the settings that `queued` leads to (once, and only if they differ from the
    /// current ones, which are on disk already), then applies each in order. A change the
    /// caller is told about survives a crash; when the write fails none of them is applied.
    static func commit(_ queued: [QueuedSubmission], to document: Model, archive: (any WeatherArchive)?) -> [Result<UInt64, any Error>] {
        // Only commits change the settings, one at a time, so nothing else moves them meanwhile.
        let current = document.snapshot.state
        var (units, locations) = (current.units, current.savedLocations)
        for entry in queued {
            switch entry.submission {
            case .units(let value): units = value
            case .savedLocations(let value): locations = value
            }
        }
        if units != current.units || locations != current.savedLocations {
            do {
                try archive?.saveSettings(units: units, savedLocations: locations)
            } catch {
                return queued.map { _ in .failure(error) }
            }
        }
        return queued.map { entry in
            let apply: (inout WeatherState) -> WeatherChange? = { state in
                switch entry.submission {
                case .units(let units):
                    guard state.units != units else { return nil }
                    state.units = units
                    return .units(units)
                case .savedLocations(let locations):
                    guard state.savedLocations != locations else { return nil }
                    state.savedLocations = locations
                    return .savedLocations(locations)
                }
            }
            return .success(document.update(origin: entry.view, apply) ?? document.revision)
        }
    }

    /// A view now watches `location`: when the document has no reading of it, the archive's
    /// last one is served at once (its age shows it), until a fresh one arrives. One fetched
    /// less than an interval (at most 15 minutes, what clients call fresh) ago is not
    /// fetched again before the interval after it.
    public func restoreLastKnown(_ location: String) {
        guard document.snapshot.state.readings[location] == nil, let reading = archive?.lastReading(at: location) else { return }
        let now = clock()
        schedule.withLock { schedule in
            let age = now.timeIntervalSince(reading.fetchedAt)
            if age >= 0, age < min(schedule.policy.interval, Self.freshFor), schedule.failures(of: location) == 0 {
                schedule.succeeded(location, now: reading.fetchedAt)
            }
        }
        document.update { state in
            guard state.readings[location] == nil else { return nil }
            state.readings[location] = reading
            return .reading(reading)
        }
    }
}
