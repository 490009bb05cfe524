public import DBus

// The member names of the contract's interfaces (docs/bus-api.md), for clients and tests
// that call them by name: methods, signals and properties alike are member names.
extension BusContract {
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
        public static let changed: MemberName = "Changed"
        /// The property `Revision` (`t`).
        public static let revision: MemberName = "Revision"
        /// The property `Loading` (`b`).
        public static let loading: MemberName = "Loading"
        /// The property `LastError` (`s`).
        public static let lastError: MemberName = "LastError"
        /// The property `ViewCount` (`u`).
        public static let viewCount: MemberName = "ViewCount"
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
        /// The unicast signal `Updated(t, a{sv})`.
        public static let updated: MemberName = "Updated"
        /// The property `Owner` (`s`).
        public static let owner: MemberName = "Owner"
        /// The property `Options` (`a{sv}`).
        public static let options: MemberName = "Options"
    }

    /// `org.almanac.Weather1`'s members.
    public enum Weather1 {
        /// `Current(s) → a{sv}`.
        public static let current: MemberName = "Current"
        /// `Forecast(s, u) → aa{sv}`.
        public static let forecast: MemberName = "Forecast"
        /// `HourlyForecast(s, u) → aa{sv}`.
        public static let hourlyForecast: MemberName = "HourlyForecast"
        /// `AddLocation(s)`.
        public static let addLocation: MemberName = "AddLocation"
        /// `RemoveLocation(s)`.
        public static let removeLocation: MemberName = "RemoveLocation"
        /// The property `Locations` (`as`).
        public static let locations: MemberName = "Locations"
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
        /// `GetEpisode(s) → a{sv}`.
        public static let getEpisode: MemberName = "GetEpisode"
        /// `GetEpisodeDetails(s) → a{sv}`: `GetEpisode`'s keys, the show notes, chapters and the rest.
        public static let getEpisodeDetails: MemberName = "GetEpisodeDetails"
        /// `Inspect(s) → a{sv}`.
        public static let inspect: MemberName = "Inspect"
        /// `Download(s) → o`.
        public static let download: MemberName = "Download"
        /// `GetPodcastSettings(s) → a{sv}`: one podcast's own settings.
        public static let getPodcastSettings: MemberName = "GetPodcastSettings"
        /// `SetPodcastSettings(s, a{sv})`: changes some of them.
        public static let setPodcastSettings: MemberName = "SetPodcastSettings"
        /// The property `Subscriptions` (`aa{sv}`).
        public static let subscriptions: MemberName = "Subscriptions"
    }

    /// `org.almanac.Download1`'s members.
    public enum Download1 {
        /// `Cancel()`, owner only while the owner is connected.
        public static let cancel: MemberName = "Cancel"
        /// The property `State` (`s`).
        public static let state: MemberName = "State"
    }

    /// `org.almanac.Sync1`'s members.
    public enum Sync1 {
        /// `Login(s server, s user, s password, a{sv} options) → a{sv}`.
        public static let login: MemberName = "Login"
        /// `Logout() → b`.
        public static let logout: MemberName = "Logout"
        /// `Sync() → a{sv}`, answered when the sync is done.
        public static let sync: MemberName = "Sync"
        /// The property `LastError` (`s`).
        public static let lastError: MemberName = "LastError"
        /// The property `Queued` (`u`).
        public static let queued: MemberName = "Queued"
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
