/// The part of the daemon a log line comes from: each line carries it as its `subsystem`
/// metadata (`subsystem=almanac.podcasts`), which the journal is filtered by (daemon.md).
/// The names are docs/architecture.md's "Logging" list, written here and nowhere else.
enum Subsystem: String, CaseIterable {
    /// The daemon's own: its start, its folders, its clock, its end.
    case daemon = "almanacd"
    case weather = "almanac.weather"
    case podcasts = "almanac.podcasts"
    case downloads = "almanac.downloads"
    case bus = "almanac.bus"
    case mpris = "almanac.mpris"
    case geoclue = "almanac.geoclue"
    case notifications = "almanac.notifications"
    case store = "almanac.store"
    case sync = "almanac.sync"
    case machine = "almanac.machine"
    case backups = "almanac.backups"
}
