public import DBus

// The member names of the contract's interfaces (docs/bus-api.md), for clients and tests
// that call them by name: methods, signals and properties alike are member names.
extension BusContract {
    /// `org.almanac.Document1`'s members.
    public enum Document1 {
        /// `GetState() → (t, a{sv})`.
        public static let getState = try! MemberName("GetState")
        /// `AddView(a{sv}) → o`.
        public static let addView = try! MemberName("AddView")
        /// `RemoveView(o)`, owner only.
        public static let removeView = try! MemberName("RemoveView")
        /// `Submit(a{sv}) → t`.
        public static let submit = try! MemberName("Submit")
        /// `Refresh()`.
        public static let refresh = try! MemberName("Refresh")
        /// The broadcast signal `Changed(t, a{sv})`.
        public static let changed = try! MemberName("Changed")
        /// The property `Revision` (`t`).
        public static let revision = try! MemberName("Revision")
        /// The property `Loading` (`b`).
        public static let loading = try! MemberName("Loading")
        /// The property `LastError` (`s`).
        public static let lastError = try! MemberName("LastError")
        /// The property `ViewCount` (`u`).
        public static let viewCount = try! MemberName("ViewCount")
    }

    /// `org.almanac.View1`'s members.
    public enum View1 {
        /// `SetOptions(a{sv})`, owner only.
        public static let setOptions = try! MemberName("SetOptions")
        /// `Remove()`, owner only.
        public static let remove = try! MemberName("Remove")
        /// `LoadMore() → b`, owner only.
        public static let loadMore = try! MemberName("LoadMore")
        /// `RefreshList() → b`, owner only.
        public static let refreshList = try! MemberName("RefreshList")
        /// The unicast signal `Updated(t, a{sv})`.
        public static let updated = try! MemberName("Updated")
        /// The property `Owner` (`s`).
        public static let owner = try! MemberName("Owner")
        /// The property `Options` (`a{sv}`).
        public static let options = try! MemberName("Options")
    }

    /// `org.almanac.Weather1`'s members.
    public enum Weather1 {
        /// `Current(s) → a{sv}`.
        public static let current = try! MemberName("Current")
        /// `Forecast(s, u) → aa{sv}`.
        public static let forecast = try! MemberName("Forecast")
        /// `HourlyForecast(s, u) → aa{sv}`.
        public static let hourlyForecast = try! MemberName("HourlyForecast")
        /// `AddLocation(s)`.
        public static let addLocation = try! MemberName("AddLocation")
        /// `RemoveLocation(s)`.
        public static let removeLocation = try! MemberName("RemoveLocation")
        /// The property `Locations` (`as`).
        public static let locations = try! MemberName("Locations")
    }

    /// `org.almanac.Podcasts1`'s members.
    public enum Podcasts1 {
        /// `Subscribe(s) → s`.
        public static let subscribe = try! MemberName("Subscribe")
        /// `Rename(s, s)`.
        public static let rename = try! MemberName("Rename")
        /// `ListEpisodes(s, a{sv}) → (aa{sv}, a{sv})`.
        public static let listEpisodes = try! MemberName("ListEpisodes")
        /// `Inspect(s) → a{sv}`.
        public static let inspect = try! MemberName("Inspect")
        /// `Download(s) → o`.
        public static let download = try! MemberName("Download")
    }

    /// `org.almanac.Download1`'s members.
    public enum Download1 {
        /// `Cancel()`, owner only while the owner is connected.
        public static let cancel = try! MemberName("Cancel")
        /// The property `State` (`s`).
        public static let state = try! MemberName("State")
    }

    /// The object path of view `number` of `document` (`…/weather/views/1`).
    public static func viewPath(_ document: DocumentName, _ number: Int) -> ObjectPath {
        try! documentPath(document).appending("views").appending(String(number))
    }
}
