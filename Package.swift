// swift-tools-version:6.1

import PackageDescription

let package = Package(
    name: "almanac",
    products: [
        .library(name: "DBus", targets: ["DBus"]),
        .executable(name: "almanacd", targets: ["almanacd"]),
        .executable(name: "almanac", targets: ["almanac"]),
    ],
    targets: [
        .systemLibrary(
            name: "CDBus",
            pkgConfig: "dbus-1",
            providers: [.apt(["libdbus-1-dev"])]
        ),
        .target(name: "DBus", dependencies: ["CDBus"]),
        .target(name: "DBusTestSupport", dependencies: ["DBus"]),
        .target(name: "AlmanacCore"),
        .target(name: "AlmanacViews", dependencies: ["AlmanacCore"]),
        .target(name: "AlmanacBus", dependencies: ["AlmanacCore", "DBus"]),
        .executableTarget(name: "almanacd", dependencies: ["AlmanacBus"]),
        .executableTarget(name: "almanac", dependencies: ["AlmanacViews", "AlmanacBus"]),
        .executableTarget(name: "dbus-soak", dependencies: ["DBus"], path: "Examples/dbus-soak"),
        .executableTarget(name: "dbus-demo", dependencies: ["DBus", "DBusTestSupport"], path: "Examples/dbus-demo"),
        .testTarget(name: "AlmanacCoreTests", dependencies: ["AlmanacCore"]),
        .testTarget(name: "DBusTests", dependencies: ["DBus", "CDBus", "DBusTestSupport"]),
    ]
)

for target in package.targets where target.type != .system {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
    target.swiftSettings = settings
}
