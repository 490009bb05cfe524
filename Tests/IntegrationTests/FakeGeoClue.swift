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
    struct State: Sendable {
        /// What the last client set.
        var desktopID = ""
        var accuracy: UInt32 = 0
        var clients = 0
        var starts = 0
        var stops = 0
        /// The clients started and not stopped (each `GetClient` caller has its own, as in GeoClue).
        var active: Set<ObjectPath> = []
        var locations = 0
        var where_: (latitude: Double, longitude: Double, description: String)?
    }

    let connection: Connection
    let state = Locked(State())

    /// - Parameter refusing: `GetClient` answers `AccessDenied`.
    init(address: String, refusing: Bool = false) async throws {
        connection = try await Connection.connect(to: address)
        try connection.export([
            try Interface("org.freedesktop.GeoClue2.Manager", methods: [
                Method("GetClient", outputs: [Argument("client", .objectPath)]) { [self] _, reply in
                    if refusing { throw BusError(.accessDenied, "'almanacd' disallowed, no agent for UID 1000") }
                    let number = state.withLock { $0.clients += 1; return $0.clients }
                    let path = try ObjectPath("/org/freedesktop/GeoClue2/Client/\(number)")
                    try exportClient(at: path)
                    try reply.write(path)
                },
            ]),
        ], at: "/org/freedesktop/GeoClue2/Manager")
        _ = try await connection.requestName("org.freedesktop.GeoClue2", flags: .doNotQueue)
    }

    private func exportClient(at path: ObjectPath) throws {
        try connection.export([
            try Interface("org.freedesktop.GeoClue2.Client", methods: [
                Method("Start") { [self] _, _ in
                    state.withLock { $0.starts += 1; $0.active.insert(path) }
                    // The first location comes once the client has started, as GeoClue sends it.
                    Task { [self] in
                        try? await Task.sleep(for: .milliseconds(50))
                        try? announce(to: [path])
                    }
                },
                Method("Stop") { [self] _, _ in state.withLock { $0.stops += 1; $0.active.remove(path) } },
            ], properties: [
                Property("DesktopId", .string, get: { [self] in .string(state.withLock { $0.desktopID }) },
                         set: { [self] value in state.withLock { $0.desktopID = value.stringValue ?? "" } }),
                Property("RequestedAccuracyLevel", .uint32, get: { [self] in .uint32(state.withLock { $0.accuracy }) },
                         set: { [self] value in if case .uint32(let level) = value { state.withLock { $0.accuracy = level } } }),
            ]),
        ], at: path)
    }

    /// Sets where the user is; every started client hears it.
    func move(to latitude: Double, _ longitude: Double, description: String = "") throws {
        let active = state.withLock { state in
            state.where_ = (latitude, longitude, description)
            return state.active
        }
        try announce(to: active)
    }

    /// A new location object and `LocationUpdated` for it, to each of `clients`.
    private func announce(to clients: Set<ObjectPath>) throws {
        guard let place = state.withLock({ $0.where_ }), !clients.isEmpty else { return }
        let new = try state.withLock { state -> ObjectPath in
            state.locations += 1
            return try ObjectPath("/org/freedesktop/GeoClue2/Location/\(state.locations)")
        }
        try connection.export([
            try Interface("org.freedesktop.GeoClue2.Location", properties: [
                Property("Latitude", .double) { .double(place.latitude) },
                Property("Longitude", .double) { .double(place.longitude) },
                Property("Accuracy", .double) { .double(5_000) },
                Property("Description", .string) { .string(place.description) },
            ]),
        ], at: new)
        for client in clients {
            try connection.emit(path: client, interface: "org.freedesktop.GeoClue2.Client", signal: "LocationUpdated", arguments: ObjectPath("/"), new)
        }
    }
}
