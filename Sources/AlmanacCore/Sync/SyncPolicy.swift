/// When the sync runs and how it backs off, and the defaults of a login.
public struct SyncPolicy: Sendable, Hashable {
    /// Seconds between syncs when nothing changes here.
    public var interval: Double
    /// Seconds a local change waits for others before a sync sends them together.
    public var debounce: Double
    /// Seconds before the first retry after a failure (doubling, with jitter, up to
    /// `longestRetry`).
    public var firstRetry: Double
    public var longestRetry: Double
    /// The most seconds the server's clock may differ from this computer's.
    public var clockTolerance: Double
    /// The device ID and caption a login uses when none is given.
    public var defaultDevice: String
    public var defaultCaption: String
    /// Episode actions per upload request.
    public var actionsPerUpload: Int
    /// Feeds read at once when the server lists new ones.
    public var feedsAtOnce: Int
    /// Seconds before the last answer's timestamp that episode actions are asked from again.
    public var actionsOverlap: Double
    /// Seconds before the last answer's timestamp that subscription changes are also asked
    /// from (a second request; 0: none): servers that stamp a change with its whole second and
    /// give the changes *after* `since` (gpodder-fastapi-router, Nextcloud) give one made in
    /// the second of the last answer only then (docs/sync.md, "The second's edge").
    public var subscriptionsOverlap: Double
    /// A hang guard: the most seconds a run waits to hear the local changes made before it
    /// was asked for (`PodcastSync.hearEverything`); past it the run fails and sends nothing.
    public var catchUpGuard: Double

    public init(interval: Double = 900, debounce: Double = 30, firstRetry: Double = 60, longestRetry: Double = 3600, clockTolerance: Double = 600,
                defaultDevice: String = "almanac", defaultCaption: String = "Almanac", actionsPerUpload: Int = 100, feedsAtOnce: Int = 4, actionsOverlap: Double = 60,
                subscriptionsOverlap: Double = 1, catchUpGuard: Double = 120) {
        self.interval = max(interval, 1)
        self.debounce = max(debounce, 0)
        self.firstRetry = max(firstRetry, 0.01)
        self.longestRetry = max(longestRetry, self.firstRetry)
        self.clockTolerance = clockTolerance
        self.defaultDevice = defaultDevice
        self.defaultCaption = defaultCaption
        self.actionsPerUpload = max(actionsPerUpload, 1)
        self.feedsAtOnce = max(feedsAtOnce, 1)
        self.actionsOverlap = max(actionsOverlap, 0)
        // A whole number of seconds the engine can subtract without trapping: a day at most.
        self.subscriptionsOverlap = subscriptionsOverlap.isFinite ? min(max(subscriptionsOverlap, 0), 86_400).rounded(.up) : 1
        self.catchUpGuard = catchUpGuard.isNaN ? 120 : max(catchUpGuard, 0)
    }
}
