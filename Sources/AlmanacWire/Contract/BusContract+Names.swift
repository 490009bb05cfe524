public import DBus

// The members of the contract's interfaces (docs/bus-api.md), one a line: typed definitions
// (`BusMethod`, `BusSignal`, `BusProperty`) that the server's tables and the client share, and
// the names of the methods not yet typed.
extension BusContract {
    /// `org.almanac.Almanac1`'s members (the root object's).
    public enum Almanac1 {
        /// `SetSetting(s name, v value) → t`: a daemon setting, sent to the document that owns it.
        public static let setSetting: MemberName = "SetSetting"
        /// The property `Version` (`s`).
        public static let version = BusProperty<String>("Version", of: rootInterface)
        /// The property `Provider` (`s`).
        public static let provider = BusProperty<String>("Provider", of: rootInterface)
        /// The property `Documents` (`ao`).
        public static let documents = BusProperty<[ObjectPath]>("Documents", of: rootInterface)
        /// The property `Network` (`s`): `unknown`, `offline`, `connecting`, `online` or `metered`.
        public static let network = BusProperty<String>("Network", of: rootInterface)
        /// `Backup() → s`: a backup of the library now; its path.
        public static let backup: MemberName = "Backup"
        /// `ListBackups() → aa{sv}`: the backups, newest first.
        public static let listBackups: MemberName = "ListBackups"
        /// `Restore(s) → (s, s)`: restores a backup (`latest`, a name, its path); the paths of
        /// the backup restored and of the backup of the library it replaced.
        public static let restore: MemberName = "Restore"
        /// `ImportBackup(h) → s`: a file passed by descriptor, checked and kept as a backup; its path.
        public static let importBackup: MemberName = "ImportBackup"
    }

    /// `org.almanac.Document1`'s members.
    public enum Document1 {
        /// `GetState() → (t, a{sv})`.
        public static let getState: MemberName = "GetState"
        /// `AddView(a{sv}) → o`.
        public static let addView: MemberName = "AddView"
        /// `RemoveView(o)`, owner only.
        public static let removeView: MemberName = "RemoveView"
        /// `Submit(a{sv}) → t`.
        public static let submit: MemberName = "Submit"
        /// `Refresh()`.
        public static let refresh: MemberName = "Refresh"
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
        /// `GetStateDescriptor() → h`: `GetState`'s answer in a sealed memory file.
        public static let getStateDescriptor: MemberName = "GetStateDescriptor"
    }

    /// `org.almanac.View1`'s members.
    public enum View1 {
        /// `SetOptions(a{sv})`, owner only.
        public static let setOptions: MemberName = "SetOptions"
        /// `Remove()`, owner only.
        public static let remove: MemberName = "Remove"
        /// `LoadMore() → b`, owner only.
        public static let loadMore: MemberName = "LoadMore"
        /// `RefreshList() → b`, owner only.
        public static let refreshList: MemberName = "RefreshList"
        /// `Ack(t)`, owner only, no reply wanted: the owner has the view's updates up to a revision.
        public static let ack: MemberName = "Ack"
        /// `Submit(a{sv}) → t`, owner only: a change with this view as its origin.
        public static let submit: MemberName = "Submit"
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
        /// `Subscribe(s) → s`.
        public static let subscribe: MemberName = "Subscribe"
        /// `Rename(s, s)`.
        public static let rename: MemberName = "Rename"
        /// `ListEpisodes(s, a{sv}) → (aa{sv}, a{sv})`.
        public static let listEpisodes: MemberName = "ListEpisodes"
        /// `Search(s, a{sv}) → aa{sv}`.
        public static let search: MemberName = "Search"
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
        /// `GetEpisodeDetails(s) → a{sv}`: `GetEpisode`'s keys, the show notes, chapters and the rest.
        public static let getEpisodeDetails: MemberName = "GetEpisodeDetails"
        /// `Inspect(s) → a{sv}`.
        public static let inspect: MemberName = "Inspect"
        /// `Download(s episode) → o job`.
        public static let download = BusMethod<Args<String>, Args<ObjectPath>>("Download", of: podcastsInterface, arguments: ["episode"], reply: ["job"])
        /// `GetPodcastSettings(s) → a{sv}`: one podcast's own settings.
        public static let getPodcastSettings: MemberName = "GetPodcastSettings"
        /// `SetPodcastSettings(s, a{sv})`: changes some of them.
        public static let setPodcastSettings: MemberName = "SetPodcastSettings"
        /// The property `Subscriptions` (`aa{sv}`).
        public static let subscriptions = BusProperty<[VariantDictionary]>("Subscriptions", of: podcastsInterface)
        /// `ImportOPML(ay) → (as, a{ss})`: subscribed, and failed with why.
        public static let importOPML: MemberName = "ImportOPML"
        /// `ImportOPMLFile(h) → (as, a{ss})`: `ImportOPML` reading a file descriptor.
        public static let importOPMLFile: MemberName = "ImportOPMLFile"
        /// `ExportOPML() → s`.
        public static let exportOPML: MemberName = "ExportOPML"
        /// `ExportOPMLDescriptor() → h`: `ExportOPML`'s answer in a sealed memory file.
        public static let exportOPMLDescriptor: MemberName = "ExportOPMLDescriptor"
        /// `Unsubscribe(s)`.
        public static let unsubscribe: MemberName = "Unsubscribe"
        /// `RefreshPodcast(s)`.
        public static let refreshPodcast: MemberName = "RefreshPodcast"
        /// `FetchFeed(s) → (h, s, s)`: the feed's bytes as fetched, its URL and base URL.
        public static let fetchFeed: MemberName = "FetchFeed"
        /// `InspectDescriptor(s) → h`: `Inspect`'s answer in a sealed memory file.
        public static let inspectDescriptor: MemberName = "InspectDescriptor"
        /// `InspectFile(h, s) → h`: inspects a feed read from a file descriptor.
        public static let inspectFile: MemberName = "InspectFile"
        /// `InspectData(ay, s) → a{sv}`: inspects a feed's bytes.
        public static let inspectData: MemberName = "InspectData"
        /// The property `Settings` (`a{sv}`).
        public static let settings = BusProperty<VariantDictionary>("Settings", of: podcastsInterface)
        /// `GetTranscript(s) → a{sv}`: an episode's transcript, fetched first when it is not kept.
        public static let getTranscript: MemberName = "GetTranscript"
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
