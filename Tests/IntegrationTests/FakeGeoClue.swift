import DBus
import Foundation
import Locking
import TestHarness

/// A GeoClue2 service on a private bus standing for the system bus, as GeoClue answers
/// (`Manager.GetClient`, a client with `DesktopId`, `RequestedAccuracyLevel`, `Start`,
/// `Stop` and `LocationUpdated(o old, o new)`, location objects with `Latitude`,
/// `Longitude`, `Accuracy`, `Description`); it can refuse, as GeoClue does for an app the
/// user has not allowed.
final class FakeGeoClue: Sendable {
    static let clientPath: ObjectPath = "/org/freedesktop/GeoClue2/Client/1"

    struct State: Sendable {
        var desktopID = ""
        var accuracy: UInt32 = 0
        var starts = 0
        var stops = 0
        var locations = 0
        var current: ObjectPath = "/"
        var where_: (latitude: Double, longitude: Double, description: String)?
    }

    let connection: Connection
    let state = Locked(State())

    /// - Parameter refusing: `GetClient` answers `AccessDenied`.
    init(address: String, refusing: Bool = false) async throws {
        connection = try await Connection.connect(to: address)
        try connection.export([
            try Interface("org.freedesktop.GeoClue2.Manager", methods: [
                Method("GetClient", outputs: [Argument("client", .objectPath)]) { _, reply in
                    if refusing { throw BusError(.accessDenied, "'almanacd' disallowed, no agent for UID 1000") }
                    try reply.write(Self.clientPath)
                },
            ]),
        ], at: "/org/freedesktop/GeoClue2/Manager")
        try connection.export([
            try Interface("org.freedesktop.GeoClue2.Client", methods: [
                Method("Start") { [self] _, _ in
                    state.withLock { $0.starts += 1 }
                    // The first location comes once the client has started, as GeoClue sends it.
                    Task { [self] in
                        try? await Task.sleep(for: .milliseconds(50))
                        try? announce()
                    }
                },
                Method("Stop") { [self] _, _ in state.withLock { $0.stops += 1 } },
            ], properties: [
                Property("DesktopId", .string, get: { [self] in .string(state.withLock { $0.desktopID }) },
                         set: { [self] value in state.withLock { $0.desktopID = value.stringValue ?? "" } }),
                Property("RequestedAccuracyLevel", .uint32, get: { [self] in .uint32(state.withLock { $0.accuracy }) },
                         set: { [self] value in if case .uint32(let level) = value { state.withLock { $0.accuracy = level } } }),
                Property("Location", .objectPath) { [self] in .objectPath(state.withLock { $0.current }) },
            ]),
        ], at: Self.clientPath)
        _ = try await connection.requestName("org.freedesktop.GeoClue2", flags: .doNotQueue)
    }

    /// Sets where the user is; once started, the client hears it.
    func move(to latitude: Double, _ longitude: Double, description: String = "") throws {
        state.withLock { $0.where_ = (latitude, longitude, description) }
        if state.withLock({ $0.starts > $0.stops }) { try announce() }
    }

    /// A new location object and `LocationUpdated` for it.
    private func announce() throws {
        guard let place = state.withLock({ $0.where_ }) else { return }
        let (old, new) = try state.withLock { state -> (ObjectPath, ObjectPath) in
            state.locations += 1
            let old = state.current
            state.current = try ObjectPath("/org/freedesktop/GeoClue2/Client/1/Location/\(state.locations)")
            return (old, state.current)
        }
        try connection.export([
            try Interface("org.freedesktop.GeoClue2.Location", properties: [
                Property("Latitude", .double) { .double(place.latitude) },
                Property("Longitude", .double) { .double(place.longitude) },
                Property("Accuracy", .double) { .double(5_000) },
                Property("Description", .string) { .string(place.description) },
            ]),
        ], at: new)
        try connection.emit(path: Self.clientPath, interface: "org.freedesktop.GeoClue2.Client", signal: "LocationUpdated", arguments: old, new)
    }
}
