import Locking
public import Logging
import Synchronization
public import FoundationEssentials
public import AlmanacModels

/// The weather document: the state every weather view watches, and the weather service's
/// data source (what is due to be fetched) and delegate (what arrived). It keeps the
/// refresh schedule (cadence, backoff) and, given an archive, the settings and last readings.
public final class WeatherDocument: WeatherServiceDataSource, WeatherServiceDelegate, Sendable {
    public typealias Model = Document<WeatherState, WeatherChange, WeatherViewOptions>

    public let document: Model
    /// Fetches under way and the last failure.
    public let activity = DocumentActivity()
    let archive: (any WeatherArchive)?
    /// The one owner of the state and the archive: every change (a submission, a reading, a
    /// failure, forgetting, a restored reading) waits in its mailbox, and each burst of them is
    /// saved in one transaction, then applied (`commit`).
    let owner: DocumentOwner<Command, UInt64>
    /// What it keeps of its places' fetches (`Fetching`), under one lock.
    let fetching: Locked<Fetching>

    /// What the document keeps of its places' fetches beside its state: one value, so a fetch
    /// that ends changes its forecast's and its alerts' schedules at once.
    struct Fetching {
        /// When each wanted place's forecast is fetched (cadence, backoff, claims).
        var forecasts: RefreshSchedule
        /// When each wanted place's official alerts are fetched on their own: their cadence (10
        /// minutes) is shorter than the forecast's, and a forecast fetch brings them too. Only
        /// places that have alerts (a source covers them) are in it.
        var alerts: RefreshSchedule
        /// When each place's alert source last answered: a fetch that changes nothing is not
        /// published, so the state's `fetchedAt` may be older; stale alerts are as of this.
        var alertsAnswered: [String: Date] = [:]
        /// Where the user is (`"here"`), as the locator last said; `nil` before it said anything.
        var here: Result<ResolvedPlace, PlaceNotFound>?
    }
    let clock: @Sendable () -> Date
    /// The time on the document's clock (the daemon's).
    public var now: Date { clock() }
    private let jitter: @Sendable () -> Double
    let logger: Logger
    /// Tells its listeners whenever the schedule may have changed: a claim, a fetch ending, a
    /// place wanted or let go. The daemon's `RefreshScheduler` is woken this way, and the
    /// locator of `"here"` hears whether it is wanted.
    public let scheduleChanges = ScheduleChanges()

    /// - Parameters:
    ///   - state: where to start (the daemon passes what the archive kept).
    ///   - policy: how often to fetch and how to back off.
    ///   - alertsPolicy: how often to fetch a place's official alerts between its forecasts.
    ///   - archive: where settings and readings are kept; `nil` keeps nothing.
    ///   - clock, jitter: the time and the randomness of backoff, for tests.
    public init(_ state: WeatherState = WeatherState(), policy: RefreshSchedule.Policy = .init(interval: 900),
                alertsPolicy: RefreshSchedule.Policy = .init(interval: 600), archive: (any WeatherArchive)? = nil, clock: @escaping @Sendable () -> Date = SystemClock().reading,
                jitter: @escaping @Sendable () -> Double = { Double.random(in: 0...1) },
                logger: Logger) {
        document = Model(state)
        self.archive = archive
        // A burst needs the document's rules, but the owner is made before `self` exists.
        let weather = WeakReference<WeatherDocument>()
        owner = DocumentOwner(label: "almanac.weather.owner") { burst in
            weather.object?.commit(burst) ?? burst.map { _ in .failure(SubmissionError("The weather document is gone.")) }
        }
        fetching = Locked(Fetching(forecasts: RefreshSchedule(policy: policy), alerts: RefreshSchedule(policy: alertsPolicy)))
        self.clock = clock
        self.jitter = jitter
        self.logger = logger
        weather.object = self
    }

    // MARK: Data source

    /// The wanted places that are due now, claimed (see `take`); each counts as a fetch under
    /// way (`Loading`) until the service reports it back.
    public func locationsToFetch(for service: any WeatherService) -> [String] {
        let locations = take(wantedLocations)
        activity.claimed(locations)
        return locations
    }

    /// The wanted places with alerts whose alerts are due, claimed; `besides` (fetched with
    /// their forecast now) are claimed too, and fetched with it.
    public func alertLocationsToFetch(for service: any WeatherService, besides: [String]) -> [String] {
        let (now, wanted) = (clock(), alertsWanted)
        defer { scheduleChanged() }
        return fetching.withLock { fetching in
            _ = fetching.alerts.take(besides.filter(wanted.contains), now: now, force: true)
            return fetching.alerts.take(wanted, now: now)
        }
    }

    /// The wanted places whose alerts are kept fresh: those a source covers (which have
    /// alerts, none or some, in the state).
    private var alertsWanted: [String] {
        let alerts = document.snapshot.state.alerts
        return (waitingForHere ? wantedLocations.filter { $0 != Self.here } : wantedLocations).filter { alerts[$0] != nil }
    }

    /// Which provider to ask first (the `provider` setting).
    public func weatherProvider(for service: any WeatherService) -> WeatherProvider {
        document.snapshot.state.provider
    }

    /// The place that means wherever the user is (`almanac weather here`, `{"location": "here"}`).
    public static let here = "here"

    /// Where the user is, as the locator (GeoClue) last said, or why it cannot say.
    public func hereMoved(to place: ResolvedPlace) {
        fetching.withLock { $0.here = .success(place) }
        fetchHereNow()
    }

    /// The locator cannot say where the user is: `"here"` fails with `reason` (its views show
    /// it), and every other place goes on.
    public func hereUnavailable(_ reason: String) {
        fetching.withLock { $0.here = .failure(PlaceNotFound(reason)) }
        fetchHereNow()
    }

    /// Whether a view or a saved place wants `"here"` (the locator runs only then).
    public var wantsHere: Bool { wantedLocations.contains(Self.here) }

    /// `"here"` is due at once: forgotten by the schedule, it counts as never fetched.
    private func fetchHereNow() {
        let others = Set(wantedLocations).subtracting([Self.here])
        fetching.withLock { $0.forecasts.keep(only: others) }
        scheduleChanged()
    }

    /// Where `location` was found: for `"here"`, the locator's last word; else from its
    /// reading, in memory or kept (a saved place's last reading is kept while it is saved; the
    /// owner reads it).
    public func resolvedPlace(for location: String) async throws -> ResolvedPlace? {
        if location == Self.here {
            switch fetching.withLock({ $0.here }) {
            case .success(let place): return place
            case .failure(let problem): throw problem
            case nil: throw PlaceNotFound("Where you are is not known yet: waiting for the location service (GeoClue).")
            }
        }
        var known = document.snapshot.state.readings[location]
        if known == nil, let archive { known = try await owner.run { try archive.lastReading(at: location) } }
        guard let reading = known, reading.latitude.isFinite, reading.longitude.isFinite else { return nil }
        return ResolvedPlace(name: reading.placeName, latitude: reading.latitude, longitude: reading.longitude)
    }

    func scheduleChanged() {
        scheduleChanges.send()
    }

    /// The places `request` calls for now, each claimed from the schedule so that no other
    /// refresh fetches it meanwhile (two views of one place share a fetch): a new view's place
    /// (served its last known reading at once, by the owner), the due ones, or every wanted one.
    public func claim(_ request: RefreshRequest<WeatherViewOptions>) async -> [String] {
        switch request {
        case .view(let options):
            guard let location = options.location else { return [] }
            await restoreLastKnown(location)
            return take([location])
        case .due:
            return take(wantedLocations)
        case .everything:
            return take(wantedLocations, force: true)
        }
    }

    /// Of `locations`, those to fetch now, marked in flight so that no one else fetches them
    /// meanwhile: the ones due (never fetched, or their interval or backoff has passed), or,
    /// when `force`, all that are not already being fetched.
    public func take(_ locations: [String], force: Bool = false) -> [String] {
        let now = clock()
        let locations = waitingForHere ? locations.filter { $0 != Self.here } : locations
        defer { scheduleChanged() }
        return fetching.withLock { $0.forecasts.take(locations, now: now, force: force) }
    }

    /// A catch-up after the machine slept or the network was away (`NetworkConditions`):
    /// every wanted place is due now, but for those fetched at or after `since` (when it went
    /// away; `nil`: not known), which were fetched after it came back — by this scheduler, whose
    /// due time passed while the machine slept. The scheduler fetches them (with their alerts),
    /// so no place is fetched twice for one wake, and each is next due a cadence after its fetch.
    public func catchUp(since: Date?) {
        let (now, wanted) = (clock(), wantedLocations)
        fetching.withLock { $0.forecasts.dueNow(wanted, now: now, unlessSucceededSince: since) }
        scheduleChanged()
    }

    /// `"here"` is not fetched before the locator has said where (or why not).
    private var waitingForHere: Bool { fetching.withLock { $0.here == nil } }

    /// When the next wanted place falls due.
    public var nextDue: Date? {
        let wanted = waitingForHere ? wantedLocations.filter { $0 != Self.here } : wantedLocations
        let now = clock()
        let forecast = fetching.withLock { $0.forecasts.nextDue(among: wanted, now: now) }
        let alertsWanted = alertsWanted
        let alerts = fetching.withLock { $0.alerts.nextDue(among: alertsWanted, now: now) }
        return [forecast, alerts].compactMap { $0 }.min()
    }

    /// Failures in a row of `location`.
    public func failuresInARow(of location: String) -> Int {
        fetching.withLock { $0.forecasts.failures(of: location) }
    }

    /// The saved places and every place a live view asked for, each once.
    public var wantedLocations: [String] {
        var wanted = document.snapshot.state.savedLocations
        for view in document.views.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            if let location = view.options.location, !wanted.contains(location) { wanted.append(location) }
        }
        return wanted
    }

    // MARK: Delegate

    /// Counts the fetch as done and its place fresh, then hands the reading to the owner, and
    /// returns once it is kept and published (or left out: no one wants the place any more).
    public func weatherService(_ service: any WeatherService, didFetch reading: WeatherReading) async {
        let now = clock()
        fetching.withLock { fetching in
            fetching.forecasts.succeeded(reading.location, now: now)
            // Its alerts came before it, when a source covers it; the claim ends either way.
            fetching.alerts.release(reading.location)
        }
        scheduleChanged()
        activity.succeeded(reading.location)
        // The user moved while "here" was being fetched: the reading is of where they were,
        // and where they are is fetched at once.
        if reading.location == Self.here, case .success(let place)? = fetching.withLock({ $0.here }),
           abs(place.latitude - reading.latitude) > 1e-6 || abs(place.longitude - reading.longitude) > 1e-6 {
            fetchHereNow()
        }
        _ = try? await owner.submit(.reading(reading))
    }

    /// Backs `location` off, then hands the failure to the owner, and returns once it is
    /// published (once, not on every retry; not at all for a place no one wants).
    public func weatherService(_ service: any WeatherService, didFailToFetch location: String, error: any Error) async {
        let (now, jitter) = (clock(), jitter())
        fetching.withLock { fetching in
            _ = fetching.forecasts.failed(location, now: now, jitter: jitter)
            // Its alerts were not asked: they stay due on their own cadence.
            fetching.alerts.release(location)
        }
        scheduleChanged()
        guard wantedLocations.contains(location) else {
            activity.succeeded(location)  // ends its count; a place no one wants is not failing
            return
        }
        let message = String(describing: error)
        logger.warning("could not fetch the weather", metadata: ["location": "\(location)", "error": "\(message)"])
        activity.failed(location, WeatherChange.failed(location: location, message: message).failure ?? message)
        _ = try? await owner.submit(.failure(location: location, message: message))
    }

    /// Hands the place's alerts to the owner, which publishes them when they differ from the
    /// ones shown (ids that began and ended); the place's alerts no longer fail.
    public func weatherService(_ service: any WeatherService, didFetchAlerts alerts: [WeatherAlert], for location: String) async {
        let now = clock()
        fetching.withLock { fetching in
            fetching.alerts.succeeded(location, now: now)
            fetching.alertsAnswered[location] = now
        }
        scheduleChanged()
        activity.succeeded(Self.alertsItem(location))
        _ = try? await owner.submit(.alerts(location: location, alerts, failure: nil, at: now))
    }

    /// The place's last good alerts stay, marked stale, with the failure; `LastError` names
    /// the source ("Oslo: MET Norway alerts: HTTP 500 …"). Apart from the forecast's failure:
    /// the reading is not touched, and the alerts back off on their own.
    public func weatherService(_ service: any WeatherService, didFailToFetchAlertsFor location: String, source: String, error: any Error) async {
        let (now, jitter) = (clock(), jitter())
        _ = fetching.withLock { $0.alerts.failed(location, now: now, jitter: jitter) }
        scheduleChanged()
        guard wantedLocations.contains(location) else { return }
        let message = "\(source) alerts: \(error)"
        logger.warning("could not fetch the alerts", metadata: ["location": "\(location)", "source": "\(source)", "error": "\(error)"])
        activity.failed(Self.alertsItem(location), "\(location): \(message)")
        _ = try? await owner.submit(.alerts(location: location, nil, failure: message, at: now))
    }

    /// The item a place's alerts count as in `activity` (apart from its forecast).
    static func alertsItem(_ location: String) -> String { location + " (alerts)" }

    /// Drops the readings and failures of places no view and no saved location wants, so the
    /// state cannot grow with every place a client ever asked for. Call when views go or
    /// change: it goes into the owner's mailbox and returns at once (the bus's thread calls it).
    public func forgetUnwanted() {
        owner.send(.forgetUnwanted) { _ in }
    }

    /// A view now watches `location`: when the document has no reading of it, the archive's
    /// last one is served at once (its age shows it), until a fresh one arrives. One fetched
    /// less than an interval (at most 15 minutes, what clients call fresh) ago is not
    /// fetched again before the interval after it. Returns once the owner has done it.
    public func restoreLastKnown(_ location: String) async {
        _ = try? await owner.submit(.restoreLastKnown(location))
    }

    // MARK: Submissions

    /// Applies what a view submitted, after validating it and saving the settings, with
    /// whatever else is in the owner's mailbox; every view hears the change. Returns the
    /// revision after it. Waits for the owner: callers that must not wait use `send`.
    @discardableResult
    public func submit(_ submission: WeatherSubmission, from view: ViewKey?) throws -> UInt64 {
        try owner.perform(.submission(submission.validated(), from: view))
    }

    /// Validates `submission` (throwing `SubmissionError` at once) and puts it in the owner's
    /// mailbox: the burst that takes it saves it with the others there, applies it, and then
    /// calls `answer` (on the owner's queue) with its revision or, when it was refused or the
    /// settings could not be saved, the error (and then it changed nothing).
    public func send(_ submission: WeatherSubmission, from view: ViewKey?,
                     answer: @escaping @Sendable (Result<UInt64, any Error>) -> Void) throws {
        owner.send(.submission(try submission.validated(), from: view), answer: answer)
    }

    /// Runs `work` on the owner's queue, in turn with its bursts, without waiting for it: what
    /// was sent before it is published when it runs.
    public func onOwner(_ work: @escaping @Sendable () -> Void) {
        owner.post(work)
    }

    /// Whether the caller runs on the owner's queue, where every call of the archive is made.
    public var isOnOwner: Bool { owner.isCurrent }

    /// How many changes wait in the owner's mailbox for its next burst.
    public var waitingForOwner: Int { owner.waiting }

}
