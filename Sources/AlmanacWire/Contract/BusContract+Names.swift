public import DBus

// The members of the contract's interfaces (docs/bus-api.md), one a line: typed definitions
// (`BusMethod`, `BusSignal`, `BusProperty`) that the server's tables and the client share, and
// the names of the methods not yet typed.
extension BusContract {
    /// `org.almanac.Almanac1`'s members (the root object's).
    public enum Almanac1 {
        /// `SetSetting(s name, v value) → t revision`: a daemon setting, sent to the document that owns it.
        public static let setSetting = BusMethod<Args<String, Value>, Args<UInt64>>("SetSetting", of: rootInterface, arguments: ["name", "value"], reply: ["revision"])
        /// The property `Version` (`s`).
        public static let version = BusProperty<String>("Version", of: rootInterface)
        /// The property `Provider` (`s`).
        public static let provider = BusProperty<String>("Provider", of: rootInterface)
        /// The property `Documents` (`ao`).
        public static let documents = BusProperty<[ObjectPath]>("Documents", of: rootInterface)
        /// The property `Network` (`s`): `unknown`, `offline`, `connecting`, `online` or `metered`.
        public static let network = BusProperty<String>("Network", of: rootInterface)
        /// `Backup() → s path`: a backup of the library now; its path.
        public static let backup = BusMethod<Args<>, Args<String>>("Backup", of: rootInterface, reply: ["path"])
        /// `ListBackups() → aa{sv} backups`: the backups, newest first.
        public static let listBackups = BusMethod<Args<>, Args<[VariantDictionary]>>("ListBackups", of: rootInterface, reply: ["backups"])
        /// `Restore(s backup) → (s restored, s kept)`: restores a backup (`latest`, a name, its
        /// path); the paths of the backup restored and of the backup of the library it replaced.
        public static let restore = BusMethod<Args<String>, Args<String, String>>("Restore", of: rootInterface, arguments: ["backup"], reply: ["restored", "kept"])
        /// `ImportBackup(h file) → s path`: a file passed by descriptor, checked and kept as a backup; its path.
        public static let importBackup = BusMethod<Args<UnixFD>, Args<String>>("ImportBackup", of: rootInterface, arguments: ["file"], reply: ["path"])
    }

    /// `org.almanac.Document1`'s members.
    public enum Document1 {
        /// `GetState() → (t revision, a{sv} state)`.
        public static let getState = BusMethod<Args<>, Args<UInt64, [String: Value]>>("GetState", of: documentInterface, reply: ["revision", "state"])
        /// `AddView(a{sv} options) → o view`.
        public static let addView = BusMethod<Args<[String: Value]>, Args<ObjectPath>>("AddView", of: documentInterface, arguments: ["options"], reply: ["view"])
        /// `RemoveView(o view)`, owner only.
        public static let removeView = BusMethod<Args<ObjectPath>, Args<>>("RemoveView", of: documentInterface, arguments: ["view"])
        /// `Submit(a{sv} change) → t revision`.
        public static let submit = BusMethod<Args<[String: Value]>, Args<UInt64>>("Submit", of: documentInterface, arguments: ["change"], reply: ["revision"])
        /// `Refresh()`.
        public static let refresh = BusMethod<Args<>, Args<>>("Refresh", of: documentInterface)
        /// The broadcast signal `Changed(t, a{sv})`.
        public static let changed = BusSignal<Args<UInt64, [String: Value]>>("Changed", of: documentInterface, arguments: ["revision", "changes"])
        /// The property `Revision` (`t`).
        public static let revision = BusProperty<UInt64>("Revision", of: documentInterface)
        /// The property `Loading` (`b`).
        public static let loading = BusProperty<Bool>("Loading", of: documentInterface)
        /// The property `LastError` (`s`).
        public static let lastError = BusProperty<String>("LastError", of: documentInterface)
        /// The property `ViewCount` (`u`).
        public static let viewCount = BusProperty<UInt32>("ViewCount", of: documentInterface)
        /// The property `NextRefresh` (`x`): Unix seconds of the next scheduled fetch, 0 for none.
        public static let nextRefresh = BusProperty<Int64>("NextRefresh", of: documentInterface)
        /// `GetStateDescriptor() → h payload`: `GetState`'s answer in a sealed memory file.
        public static let getStateDescriptor = BusMethod<Args<>, Args<UnixFD>>("GetStateDescriptor", of: documentInterface, reply: ["payload"])
    }

    /// `org.almanac.View1`'s members.
    public enum View1 {
        /// `SetOptions(a{sv} options)`, owner only.
        public static let setOptions = BusMethod<Args<[String: Value]>, Args<>>("SetOptions", of: viewInterface, arguments: ["options"])
        /// `Remove()`, owner only.
        public static let remove = BusMethod<Args<>, Args<>>("Remove", of: viewInterface)
        /// `LoadMore() → b started`, owner only.
        public static let loadMore = BusMethod<Args<>, Args<Bool>>("LoadMore", of: viewInterface, reply: ["started"])
        /// `RefreshList() → b started`, owner only.
        public static let refreshList = BusMethod<Args<>, Args<Bool>>("RefreshList", of: viewInterface, reply: ["started"])
        /// `Ack(t revision)`, owner only, no reply wanted: the owner has the view's updates up to a revision.
        public static let ack = BusMethod<Args<UInt64>, Args<>>("Ack", of: viewInterface, arguments: ["revision"])
        /// `Submit(a{sv} change) → t revision`, owner only: a change with this view as its origin.
        public static let submit = BusMethod<Args<[String: Value]>, Args<UInt64>>("Submit", of: viewInterface, arguments: ["change"], reply: ["revision"])
        /// The unicast signal `Updated(t, a{sv})`.
        public static let updated = BusSignal<Args<UInt64, [String: Value]>>("Updated", of: viewInterface, arguments: ["revision", "data"])
        /// The property `Owner` (`s`).
        public static let owner = BusProperty<String>("Owner", of: viewInterface)
        /// The property `Options` (`a{sv}`).
        public static let options = BusProperty<VariantDictionary>("Options", of: viewInterface)
    }

    /// `org.almanac.Weather1`'s members.
    public enum Weather1 {
        /// `Current(s location) → a{sv} reading`.
        public static let current = BusMethod<Args<String>, Args<VariantDictionary>>("Current", of: weatherInterface, arguments: ["location"], reply: ["reading"])
        /// `Forecast(s location, u days) → aa{sv} days`.
        public static let forecast = BusMethod<Args<String, UInt32>, Args<[VariantDictionary]>>("Forecast", of: weatherInterface, arguments: ["location", "days"], reply: ["days"])
        /// `HourlyForecast(s location, u hours) → aa{sv} hours`.
        public static let hourlyForecast = BusMethod<Args<String, UInt32>, Args<[VariantDictionary]>>("HourlyForecast", of: weatherInterface, arguments: ["location", "hours"], reply: ["hours"])
        /// `AddLocation(s location)`.
        public static let addLocation = BusMethod<Args<String>, Args<>>("AddLocation", of: weatherInterface, arguments: ["location"])
        /// `RemoveLocation(s location)`.
        public static let removeLocation = BusMethod<Args<String>, Args<>>("RemoveLocation", of: weatherInterface, arguments: ["location"])
        /// The property `Locations` (`as`).
        public static let locations = BusProperty<[String]>("Locations", of: weatherInterface)
        /// `SearchPlaces(s name, u count) → aa{sv} places`.
        public static let searchPlaces = BusMethod<Args<String, UInt32>, Args<[VariantDictionary]>>("SearchPlaces", of: weatherInterface, arguments: ["name", "count"], reply: ["places"])
        /// The property `Units` (`s`).
        public static let units = BusProperty<String>("Units", of: weatherInterface)
    }

    /// `org.almanac.Podcasts1`'s members.
    public enum Podcasts1 {
        /// `Subscribe(s url) → s podcast`: the daemon reads the feed first; the podcast's id.
        public static let subscribe = BusMethod<Args<String>, Args<String>>("Subscribe", of: podcastsInterface, arguments: ["url"], reply: ["podcast"])
        /// `Rename(s podcast, s title)`.
        public static let rename = BusMethod<Args<String, String>, Args<>>("Rename", of: podcastsInterface, arguments: ["podcast", "title"])
        /// `ListEpisodes(s podcast, a{sv} query) → (aa{sv} page, a{sv} info)`.
        public static let listEpisodes = BusMethod<Args<String, [String: Value]>, Args<[VariantDictionary], [String: Value]>>("ListEpisodes", of: podcastsInterface, arguments: ["podcast", "query"], reply: ["page", "info"])
        /// `Search(s term, a{sv} options) → aa{sv} results`.
        public static let search = BusMethod<Args<String, [String: Value]>, Args<[VariantDictionary]>>("Search", of: podcastsInterface, arguments: ["term", "options"], reply: ["results"])
        /// `GetEpisode(s episode) → a{sv} record`.
        public static let getEpisode = BusMethod<Args<String>, Args<[String: Value]>>("GetEpisode", of: podcastsInterface, arguments: ["episode"], reply: ["record"])
        /// `GetEpisodes(as episodes) → aa{sv} records`: `GetEpisode`'s records of up to 500
        /// different episodes at once, in the order asked; unknown ids are left out.
        public static let getEpisodes = BusMethod<Args<[String]>, Args<[VariantDictionary]>>("GetEpisodes", of: podcastsInterface, arguments: ["episodes"], reply: ["records"])
        /// `GetQueue() → aa{sv}`: the Up Next queue's episodes, head first, as `GetEpisode` gives them.
        public static let getQueue = BusMethod<Args<>, Args<[VariantDictionary]>>("GetQueue", of: podcastsInterface, reply: ["episodes"])
        /// `GetListeningStats(u days) → aa{sv}`: how long each podcast was listened to on each
        /// of the last `days` local days (`day s`, `podcast s`, `title s`, `seconds d`).
        public static let getListeningStats = BusMethod<Args<UInt32>, Args<[VariantDictionary]>>("GetListeningStats", of: podcastsInterface, arguments: ["days"], reply: ["totals"])
        /// `GetEpisodeDetails(s episode) → a{sv} record`: `GetEpisode`'s keys, the show notes, chapters and the rest.
        public static let getEpisodeDetails = BusMethod<Args<String>, Args<[String: Value]>>("GetEpisodeDetails", of: podcastsInterface, arguments: ["episode"], reply: ["record"])
        /// `Inspect(s url) → a{sv} feed`: a feed read without subscribing.
        public static let inspect = BusMethod<Args<String>, Args<VariantDictionary>>("Inspect", of: podcastsInterface, arguments: ["url"], reply: ["feed"])
        /// `Download(s episode) → o job`.
        public static let download = BusMethod<Args<String>, Args<ObjectPath>>("Download", of: podcastsInterface, arguments: ["episode"], reply: ["job"])
        /// `GetPodcastSettings(s podcast) → a{sv} settings`: one podcast's own settings.
        public static let getPodcastSettings = BusMethod<Args<String>, Args<VariantDictionary>>("GetPodcastSettings", of: podcastsInterface, arguments: ["podcast"], reply: ["settings"])
        /// `SetPodcastSettings(s podcast, a{sv} settings)`: changes some of them.
        public static let setPodcastSettings = BusMethod<Args<String, [String: Value]>, Args<>>("SetPodcastSettings", of: podcastsInterface, arguments: ["podcast", "settings"])
        /// The property `Subscriptions` (`aa{sv}`).
        public static let subscriptions = BusProperty<[VariantDictionary]>("Subscriptions", of: podcastsInterface)
        /// `ImportOPML(ay opml) → (as subscribed, a{ss} failed)`: subscribed, and failed with why.
        public static let importOPML = BusMethod<Args<[UInt8]>, Args<[String], [String: String]>>("ImportOPML", of: podcastsInterface, arguments: ["opml"], reply: ["subscribed", "failed"])
        /// `ImportOPMLFile(h opml) → (as subscribed, a{ss} failed)`: `ImportOPML` reading a file descriptor.
        public static let importOPMLFile = BusMethod<Args<UnixFD>, Args<[String], [String: String]>>("ImportOPMLFile", of: podcastsInterface, arguments: ["opml"], reply: ["subscribed", "failed"])
        /// `ExportOPML() → s opml`.
        public static let exportOPML = BusMethod<Args<>, Args<String>>("ExportOPML", of: podcastsInterface, reply: ["opml"])
        /// `ExportOPMLDescriptor() → h payload`: `ExportOPML`'s answer in a sealed memory file.
        public static let exportOPMLDescriptor = BusMethod<Args<>, Args<UnixFD>>("ExportOPMLDescriptor", of: podcastsInterface, reply: ["payload"])
        /// `Unsubscribe(s podcast)`.
        public static let unsubscribe = BusMethod<Args<String>, Args<>>("Unsubscribe", of: podcastsInterface, arguments: ["podcast"])
        /// `RefreshPodcast(s podcast)`: reads its feed now; answered when it is read.
        public static let refreshPodcast = BusMethod<Args<String>, Args<>>("RefreshPodcast", of: podcastsInterface, arguments: ["podcast"])
        /// `FetchFeed(s url) → (h feed, s feedURL, s baseURL)`: the feed's bytes as fetched, its URL and base URL.
        public static let fetchFeed = BusMethod<Args<String>, Args<UnixFD, String, String>>("FetchFeed", of: podcastsInterface, arguments: ["url"], reply: ["feed", "feedURL", "baseURL"])
        /// `InspectDescriptor(s url) → h payload`: `Inspect`'s answer in a sealed memory file.
        public static let inspectDescriptor = BusMethod<Args<String>, Args<UnixFD>>("InspectDescriptor", of: podcastsInterface, arguments: ["url"], reply: ["payload"])
        /// `InspectFile(h feed, s baseURL) → h payload`: inspects a feed read from a file descriptor.
        public static let inspectFile = BusMethod<Args<UnixFD, String>, Args<UnixFD>>("InspectFile", of: podcastsInterface, arguments: ["feed", "baseURL"], reply: ["payload"])
        /// `InspectData(ay data, s baseURL) → a{sv} feed`: inspects a feed's bytes.
        public static let inspectData = BusMethod<Args<[UInt8], String>, Args<VariantDictionary>>("InspectData", of: podcastsInterface, arguments: ["data", "baseURL"], reply: ["feed"])
        /// The property `Settings` (`a{sv}`).
        public static let settings = BusProperty<VariantDictionary>("Settings", of: podcastsInterface)
        /// `GetTranscript(s episode) → a{sv} transcript`: an episode's transcript, fetched first when it is not kept.
        public static let getTranscript = BusMethod<Args<String>, Args<[String: Value]>>("GetTranscript", of: podcastsInterface, arguments: ["episode"], reply: ["transcript"])
        /// `SearchTranscripts(s, as) → aa{sv}`: where a search's words are said in those episodes' transcripts.
        public static let searchTranscripts = BusMethod<Args<String, [String]>, Args<[VariantDictionary]>>("SearchTranscripts", of: podcastsInterface, arguments: ["search", "episodes"], reply: ["moments"])
    }

    /// `org.almanac.Download1`'s members.
    public enum Download1 {
        /// `Cancel()`, owner only while the owner is connected.
        public static let cancel = BusMethod<Args<>, Args<>>("Cancel", of: downloadInterface)
        /// The property `State` (`s`).
        public static let state = BusProperty<String>("State", of: downloadInterface)
        /// The property `Episode` (`s`).
        public static let episode = BusProperty<String>("Episode", of: downloadInterface)
        /// The property `Podcast` (`s`).
        public static let podcast = BusProperty<String>("Podcast", of: downloadInterface)
        /// The property `URL` (`s`).
        public static let url = BusProperty<String>("URL", of: downloadInterface)
        /// The property `Received` (`t`).
        public static let received = BusProperty<UInt64>("Received", of: downloadInterface)
        /// The property `Total` (`t`).
        public static let total = BusProperty<UInt64>("Total", of: downloadInterface)
        /// The property `Error` (`s`).
        public static let error = BusProperty<String>("Error", of: downloadInterface)
        /// The property `File` (`s`).
        public static let file = BusProperty<String>("File", of: downloadInterface)
        /// The property `Owner` (`s`).
        public static let owner = BusProperty<String>("Owner", of: downloadInterface)
    }

    /// `org.almanac.Sync1`'s members.
    public enum Sync1 {
        /// `Login(s server, s user, s password, a{sv} options) → a{sv} account`.
        public static let login = BusMethod<Args<String, String, String, [String: Value]>, Args<VariantDictionary>>("Login", of: syncInterface, arguments: ["server", "user", "password", "options"], reply: ["account"])
        /// `Logout() → b wasLoggedIn`.
        public static let logout = BusMethod<Args<>, Args<Bool>>("Logout", of: syncInterface, reply: ["wasLoggedIn"])
        /// `Sync() → a{sv} report`, answered when the sync is done.
        public static let sync = BusMethod<Args<>, Args<VariantDictionary>>("Sync", of: syncInterface, reply: ["report"])
        /// The property `LastError` (`s`).
        public static let lastError = BusProperty<String>("LastError", of: syncInterface)
        /// The property `Queued` (`u`).
        public static let queued = BusProperty<UInt32>("Queued", of: syncInterface)
        /// The property `LoggedIn` (`b`).
        public static let loggedIn = BusProperty<Bool>("LoggedIn", of: syncInterface)
        /// The property `Server` (`s`).
        public static let server = BusProperty<String>("Server", of: syncInterface)
        /// The property `User` (`s`).
        public static let user = BusProperty<String>("User", of: syncInterface)
        /// The property `Device` (`s`).
        public static let device = BusProperty<String>("Device", of: syncInterface)
        /// The property `Caption` (`s`).
        public static let caption = BusProperty<String>("Caption", of: syncInterface)
        /// The property `Flavour` (`s`).
        public static let flavour = BusProperty<String>("Flavour", of: syncInterface)
        /// The property `LastSync` (`x`).
        public static let lastSync = BusProperty<Int64>("LastSync", of: syncInterface)
        /// The property `Syncing` (`b`).
        public static let syncing = BusProperty<Bool>("Syncing", of: syncInterface)
        /// The property `PasswordStore` (`s`).
        public static let passwordStore = BusProperty<String>("PasswordStore", of: syncInterface)
    }

    /// `org.almanac.Player1`'s members.
    public enum Player1 {
        /// `Sleep(a{sv} options) → a{sv} timer`: sets the sleep timer (`seconds`, or `end`: `episode`/`chapter`).
        public static let sleep = BusMethod<Args<[String: Value]>, Args<[String: Value]>>("Sleep", of: playerInterface, arguments: ["options"], reply: ["timer"])
        /// `CancelSleep() → b wasSet`: cancels it; whether one was set.
        public static let cancelSleep = BusMethod<Args<>, Args<Bool>>("CancelSleep", of: playerInterface, reply: ["wasSet"])
        /// `SeekChapter(i offset) → a{sv} chapter`: moves the player that many chapters on (-1: back).
        public static let seekChapter = BusMethod<Args<Int32>, Args<[String: Value]>>("SeekChapter", of: playerInterface, arguments: ["offset"], reply: ["chapter"])
        /// The property `SleepTimer` (`a{sv}`; empty when none is set).
        public static let sleepTimer = BusProperty<VariantDictionary>("SleepTimer", of: playerInterface)
        /// The property `NowPlaying` (`a{sv}`; empty when no player has an episode open).
        public static let nowPlaying = BusProperty<VariantDictionary>("NowPlaying", of: playerInterface)
    }

    /// The object path of view `number` of `document` (`…/weather/views/1`).
    public static func viewPath(_ document: DocumentName, _ number: UInt64) -> ObjectPath {
        viewsPath(of: document).appending(number)
    }

    /// The folder of a document's views, `/org/almanac/Almanac1/<document>/views`.
    public static func viewsPath(of document: DocumentName) -> ObjectPath {
        switch document {
        case .weather: "/org/almanac/Almanac1/weather/views"
        case .podcasts: "/org/almanac/Almanac1/podcasts/views"
        }
    }
}
