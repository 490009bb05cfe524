public import DBus

/// The fixed names of Almanac's bus contract (v1); see docs/bus-api.md.
public enum BusContract {
    /// `org.almanac.Almanac1`, the name the daemon owns.
    public static let serviceName = try! BusName("org.almanac.Almanac1")
    /// `/org/almanac/Almanac1`: the root object, an ObjectManager.
    public static let rootPath = try! ObjectPath("/org/almanac/Almanac1")
    /// `org.almanac.Almanac1`, the root object's interface.
    public static let rootInterface = try! InterfaceName("org.almanac.Almanac1")
    /// `org.almanac.Document1`, on every document.
    public static let documentInterface = try! InterfaceName("org.almanac.Document1")
    /// `org.almanac.View1`, on every view object.
    public static let viewInterface = try! InterfaceName("org.almanac.View1")
    /// `org.almanac.Weather1`, on the weather document.
    public static let weatherInterface = try! InterfaceName("org.almanac.Weather1")
    /// `org.almanac.Podcasts1`, on the podcasts document.
    public static let podcastsInterface = try! InterfaceName("org.almanac.Podcasts1")

    /// `org.almanac.Download1`, on every download job.
    public static let downloadInterface = try! InterfaceName("org.almanac.Download1")
    /// `/org/almanac/Almanac1/downloads`, below which the jobs are.
    public static let downloadsPath = try! rootPath.appending("downloads")

    /// The object path of download job `id`.
    public static func downloadPath(_ id: UInt64) -> ObjectPath {
        try! downloadsPath.appending(String(id))
    }

    /// The object path of a document.
    public static func documentPath(_ name: DocumentName) -> ObjectPath {
        try! rootPath.appending(name.rawValue)
    }

    /// `org.almanac.Error.<name>`.
    public static func errorName(_ name: String) -> ErrorName {
        try! ErrorName("org.almanac.Error." + name)
    }

    /// Error names the daemon uses where no standard one fits.
    public static let noSuchView = errorName("NoSuchView")
    public static let unknownLocation = errorName("UnknownLocation")
    public static let notAFeed = errorName("NotAFeed")
    public static let fetchFailed = errorName("FetchFailed")
}
