// swift-tools-version:6.1

import PackageDescription

let package = Package(
    name: "almanac",
    products: [
        .library(name: "DBus", targets: ["DBus"]),
        .executable(name: "almanacd", targets: ["almanacd"]),
        .executable(name: "almanac", targets: ["almanac"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CDBus",
            pkgConfig: "dbus-1",
            providers: [.apt(["libdbus-1-dev"])]
        ),
        // The state file's SQLite, under AlmanacServices' own small layer (Sources/AlmanacServices/SQLite).
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // libcurl, under the daemon's HTTP client (AlmanacServices/HTTP).
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        // `Locked`: Mutex, told to ThreadSanitizer in `make tsan` builds. Every target depends on it (below).
        .target(name: "Locking"),
        .target(name: "DBus", dependencies: ["CDBus"]),
        .target(name: "TestHarness", dependencies: ["DBus", "AlmanacCore", "AlmanacWire", "AlmanacBus", .product(name: "Logging", package: "swift-log")]),
        .target(name: "AlmanacCore", dependencies: [.product(name: "Logging", package: "swift-log")]),
        .target(name: "AlmanacViews", dependencies: ["AlmanacCore"]),
        // The feed parser and its JSON, without networking: the daemon's services and the CLI (which parses local files itself) share it.
        .target(name: "AlmanacFeeds", dependencies: ["AlmanacCore"]),
        // The client's side of the bus: the contract's names, the codecs, the proxies (AlmanacClient, BlockingClient). The CLI links this, never AlmanacBus.
        .target(name: "AlmanacWire", dependencies: ["AlmanacCore", "DBus"]),
        // The daemon's side of the bus: the documents as exported objects (AlmanacServer, DocumentObject, the adapters), MPRIS, GeoClue, notifications, Secret Service.
        .target(name: "AlmanacBus", dependencies: ["AlmanacWire", "AlmanacCore", "DBus", .product(name: "Logging", package: "swift-log")]),
        .target(name: "AlmanacServices", dependencies: [
            "AlmanacCore", "AlmanacFeeds", "CCurl", "CSQLite", .product(name: "Logging", package: "swift-log"),
        ]),
        .executableTarget(name: "almanacd", dependencies: [
            "AlmanacBus", "AlmanacWire", "AlmanacCore", "AlmanacServices", "AlmanacViews",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .executableTarget(name: "almanac", dependencies: [
            "AlmanacViews", "AlmanacWire", "AlmanacFeeds",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .executableTarget(name: "dbus-soak", dependencies: ["DBus"], path: "Examples/dbus-soak"),
        .executableTarget(name: "dbus-demo", dependencies: ["DBus"], path: "Examples/dbus-demo"),
        // `make bench`'s Swift driver; built by every `swift build` so CI sees it compile.
        .executableTarget(name: "almanac-bench", dependencies: ["AlmanacWire", "AlmanacCore", "AlmanacFeeds", "AlmanacServices", "DBus"], path: "Benchmarks/almanac-bench"),
        // libFuzzer targets (`make fuzz`); the plain build only says how to run them.
        .executableTarget(name: "almanac-fuzz", dependencies: ["AlmanacCore", "AlmanacFeeds", "AlmanacServices", "DBus"], path: "Examples/almanac-fuzz"),
        .testTarget(name: "AlmanacCoreTests", dependencies: ["AlmanacCore", "TestHarness"]),
        .testTarget(name: "AlmanacViewsTests", dependencies: ["AlmanacViews", "AlmanacCore", "TestHarness"]),
        .testTarget(name: "AlmanacFeedsTests", dependencies: ["AlmanacFeeds", "AlmanacCore", "TestHarness"]),
        .testTarget(name: "AlmanacServicesTests", dependencies: [
            "AlmanacServices", "AlmanacFeeds", "AlmanacCore", "CSQLite", "TestHarness", .product(name: "Logging", package: "swift-log"),
        ]),
        .testTarget(name: "AlmanacBusTests", dependencies: ["AlmanacBus", "AlmanacWire", "AlmanacCore", "DBus", "TestHarness"]),
        .testTarget(name: "IntegrationTests", dependencies: ["AlmanacWire", "DBus", "TestHarness", "almanacd", "almanac"]),
        .testTarget(name: "DBusTests", dependencies: ["DBus", "CDBus", "TestHarness"]),
    ]
)

for target in package.targets where target.type != .system {
    if target.name != "Locking" { target.dependencies.append("Locking") }
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
    target.swiftSettings = settings
}
