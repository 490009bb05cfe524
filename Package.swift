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
        // libcurl, under the daemon's HTTP client (AlmanacServices/HTTP): loaded at the first
        // request (dlopen), so only its header (libcurl4-openssl-dev) is needed to build.
        .target(name: "CCurl"),
        // `Locked`: Mutex, told to ThreadSanitizer in `make tsan` builds. Every target depends on it (below).
        .target(name: "Locking"),
        .target(name: "DBus", dependencies: ["CDBus"]),
        .target(name: "TestHarness", dependencies: ["DBus", "AlmanacModels", "AlmanacCore", "AlmanacDemo", "AlmanacWire", "AlmanacBus", .product(name: "Logging", package: "swift-log")]),
        // The values both ends share: states, changes, submissions, settings, episodes, places, forecasts, sync status; the paging mediator. No documents, no rules that keep state.
        .target(name: "AlmanacModels"),
        // The documents and every rule (submissions, refresh schedule, downloads, sync), the services' protocols: the daemon's, never the CLI's.
        .target(name: "AlmanacCore", dependencies: ["AlmanacModels", .product(name: "Logging", package: "swift-log")]),
        // The demo providers (`almanacd --provider demo`, the tests): weather and podcasts made up from a seed.
        .target(name: "AlmanacDemo", dependencies: ["AlmanacCore", "AlmanacModels"]),
        .target(name: "AlmanacViews", dependencies: ["AlmanacModels"]),
        // The feed parser and its JSON, without networking: the daemon's services and the CLI (which parses local files itself) share it.
        .target(name: "AlmanacFeeds", dependencies: ["AlmanacModels"]),
        // The client's side of the bus and what both sides share: the contract's names, the codecs, flow control (UpdateWindow), the proxies (AlmanacClient, BlockingClient). The CLI links this, never AlmanacBus.
        .target(name: "AlmanacWire", dependencies: ["AlmanacModels", "DBus"]),
        // The daemon's side of the bus: the documents as exported objects (AlmanacServer, DocumentObject, the adapters), MPRIS, GeoClue, notifications, Secret Service.
        .target(name: "AlmanacBus", dependencies: ["AlmanacWire", "AlmanacModels", "AlmanacCore", "DBus", .product(name: "Logging", package: "swift-log")]),
        .target(name: "AlmanacServices", dependencies: [
            "AlmanacModels", "AlmanacCore", "AlmanacFeeds", "CCurl", "CSQLite", .product(name: "Logging", package: "swift-log"),
        ]),
        .executableTarget(name: "almanacd", dependencies: [
            "AlmanacBus", "AlmanacWire", "AlmanacModels", "AlmanacCore", "AlmanacDemo", "AlmanacServices", "AlmanacViews",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // The CLI: the client's modules only, never AlmanacBus, AlmanacCore, AlmanacDemo or AlmanacServices (CLILayerTests checks the binary).
        .executableTarget(name: "almanac", dependencies: [
            "AlmanacViews", "AlmanacWire", "AlmanacModels", "AlmanacFeeds",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .executableTarget(name: "dbus-soak", dependencies: ["DBus"], path: "Examples/dbus-soak"),
        .executableTarget(name: "dbus-demo", dependencies: ["DBus"], path: "Examples/dbus-demo"),
        // `make bench`'s Swift driver; built by every `swift build` so CI sees it compile.
        .executableTarget(name: "almanac-bench", dependencies: ["AlmanacWire", "AlmanacModels", "AlmanacCore", "AlmanacFeeds", "AlmanacServices", "DBus"], path: "Benchmarks/almanac-bench"),
        // libFuzzer targets (`make fuzz`); the plain build only says how to run them.
        .executableTarget(name: "almanac-fuzz", dependencies: ["AlmanacModels", "AlmanacCore", "AlmanacFeeds", "AlmanacServices", "DBus"], path: "Examples/almanac-fuzz"),
        // AlmanacServices for its store alone: the documents' tests run on the real SQLite store
        // in memory (`StateStore.inMemory()`); the AlmanacCore module itself knows no SQLite.
        .testTarget(name: "AlmanacCoreTests", dependencies: ["AlmanacCore", "AlmanacModels", "AlmanacDemo", "AlmanacServices", "TestHarness", .product(name: "Logging", package: "swift-log")]),
        .testTarget(name: "AlmanacViewsTests", dependencies: ["AlmanacViews", "AlmanacModels", "TestHarness"]),
        .testTarget(name: "AlmanacFeedsTests", dependencies: ["AlmanacFeeds", "AlmanacModels", "TestHarness"]),
        .testTarget(name: "AlmanacServicesTests", dependencies: [
            "AlmanacServices", "AlmanacFeeds", "AlmanacModels", "AlmanacCore", "CSQLite", "TestHarness", .product(name: "Logging", package: "swift-log"),
        ]),
        .testTarget(name: "AlmanacBusTests", dependencies: [
            "AlmanacBus", "AlmanacWire", "AlmanacModels", "AlmanacCore", "AlmanacDemo", "AlmanacServices", "DBus", "TestHarness",
        ]),
        .testTarget(name: "IntegrationTests", dependencies: ["AlmanacWire", "AlmanacModels", "DBus", "TestHarness", "almanacd", "almanac"]),
        .testTarget(name: "DBusTests", dependencies: ["DBus", "CDBus", "TestHarness"]),
    ]
)

for target in package.targets where target.type != .system && target.name != "CCurl" {
    if target.name != "Locking" { target.dependencies.append("Locking") }
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
    target.swiftSettings = settings
}
