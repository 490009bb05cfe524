public import AlmanacCore
import AlmanacModels
import DBus
import Locking
public import Logging

/// Where the user is, for the weather of `"here"`, from GeoClue (`org.freedesktop.GeoClue2`
/// on the system bus), the way GNOME Weather asks it: `Manager.GetClient`, the client's
/// `DesktopId` and `RequestedAccuracyLevel` (city: weather needs no more), `Start`, then
/// every `LocationUpdated` read and told to the weather document; `Stop` (and the connection
/// closed) when no view or saved place wants `"here"` any more. No GeoClue, a refusal, or no
/// fix within `patience`: the document hears why, and only `"here"` fails.
public final class GeoClueLocator: Service {
    static let service: BusName = "org.freedesktop.GeoClue2"
    static let managerPath: ObjectPath = "/org/freedesktop/GeoClue2/Manager"
    static let manager: InterfaceName = "org.freedesktop.GeoClue2.Manager"
    static let client: InterfaceName = "org.freedesktop.GeoClue2.Client"
    static let location: InterfaceName = "org.freedesktop.GeoClue2.Location"
    /// GeoClue's `GCLUE_ACCURACY_LEVEL_CITY`.
    static let cityAccuracy: UInt32 = 4

    private let weather: WeatherDocument
    /// The system bus (`nil`: the default one, or `DBUS_SYSTEM_BUS_ADDRESS`).
    private let systemBusAddress: String?
    private let desktopID: String
    private let patience: Duration
    private let logger: Logger
    /// The task following GeoClue while `"here"` is wanted, and its session.
    private let following = Locked<(task: Task<Void, Never>, session: Session)?>(nil)
    /// The weather schedule's changes: whether `"here"` is wanted may have changed.
    private let changes: AsyncStream<Void>

    public init(weather: WeatherDocument, systemBusAddress: String? = nil, desktopID: String = "almanacd",
                patience: Duration = .seconds(30), logger: Logger = Logger(label: "almanac.geoclue")) {
        self.weather = weather
        self.systemBusAddress = systemBusAddress
        self.desktopID = desktopID
        self.patience = patience
        self.logger = logger
        changes = weather.scheduleChanges.stream()
    }

    /// A `Service`: starts or stops following GeoClue as `"here"` comes to be wanted or stops
    /// being wanted (looked at again whenever the weather schedule may have changed, bursts
    /// coalesced: `ScheduleChanges` keeps one change unread), until cancelled; then stops.
    public func run() async {
        check()
        for await _ in changes { check() }
        stop()
    }

    private func check() {
        let wanted = weather.wantsHere
        following.withLock { following in
            if wanted, following == nil {
                let session = Session()
                following = (Task { [weak self] in await self?.follow(session) ?? () }, session)
            } else if !wanted, let running = following {
                running.task.cancel()
                running.session.end()
                following = nil
            }
        }
    }

    /// Stops following (the daemon is ending).
    private func stop() {
        following.withLock { following in
            following?.task.cancel()
            following?.session.end()
            following = nil
        }
    }

    /// One run of following: its system bus connection and GeoClue client once it has one.
    /// Ending it tells GeoClue `Stop` and then closes the connection (which ends the run's
    /// stream of updates), once, whoever ends it first.
    final class Session: Sendable {
        private let held = Locked<(connection: Connection, client: ObjectPath)?>(nil)
        private let ended = Locked(false)

        /// The client is had (a Start that a cancellation cut short may still reach GeoClue,
        /// so from here on ending stops it).
        func hold(_ connection: Connection, _ client: ObjectPath) {
            let endedAlready = ended.withLock { $0 }
            held.withLock { $0 = (connection, client) }
            if endedAlready { end(force: true) }
        }

        func end(force: Bool = false) {
            guard ended.withLock({ ended in defer { ended = true }; return !ended || force }) else { return }
            guard let (connection, client) = held.withLock({ held in defer { held = nil }; return held }) else { return }
            // On a task of its own (the caller's may be cancelled), answered before the
            // connection closes (a message still queued would be lost).
            Task.detached {
                _ = try? await connection.call(GeoClueLocator.service, path: client, interface: GeoClueLocator.client, method: "Stop", timeout: .seconds(5))
                await connection.close()
            }
        }

        var isHeld: Bool { held.withLock { $0 != nil } }
    }

    private func follow(_ session: Session) async {
        let connection: Connection
        do {
            if let systemBusAddress {
                connection = try await Connection.connect(to: systemBusAddress)
            } else {
                connection = try await Connection.system()
            }
        } catch {
            return unavailable("Where you are cannot be found: the system bus is not reachable (\(error)).")
        }
        // Whatever happens below, the client is stopped and the connection closed once
        // (`endSession`), or just closed when no client was had.
        defer {
            if session.isHeld { session.end(force: true) } else { Task.detached { await connection.close() } }
        }
        do {
            let path = try await connection.call(Self.service, path: Self.managerPath, interface: Self.manager, method: "GetClient").arguments(ObjectPath.self)
            // From here `endSession` owns the client: a Start that a cancellation cut short
            // may still have reached GeoClue, and is stopped.
            session.hold(connection, path)
            try await set("DesktopId", .string(desktopID), on: path, connection)
            try await set("RequestedAccuracyLevel", .uint32(Self.cityAccuracy), on: path, connection)
            let updates = try await connection.signals(matching: MatchRule(sender: Self.service, interface: Self.client, member: "LocationUpdated", path: path),
                                                       bufferLimit: 16)
            _ = try await connection.call(Self.service, path: path, interface: Self.client, method: "Start")
            if Task.isCancelled { return }
            // No fix for a while: "here" says so, and a fix that comes later still counts.
            let impatience = Task { [weak self, patience] in
                try? await Task.sleep(for: patience)
                guard !Task.isCancelled else { return }
                self?.unavailable("The location service (GeoClue) has not found where you are yet.")
            }
            defer { impatience.cancel() }
            for await update in updates {
                guard !Task.isCancelled else { break }
                guard let (_, new) = try? update.arguments(ObjectPath.self, ObjectPath.self) else { continue }
                impatience.cancel()
                await read(new, connection)
            }
        } catch where Task.isCancelled {
            // Let go: nothing to report.
        } catch is CancellationError {
        } catch let error as BusError {
            unavailable(Self.explain(error))
        } catch {
            unavailable("Where you are cannot be found: \(error).")
        }
    }

    private func set(_ property: String, _ value: Value, on path: ObjectPath, _ connection: Connection) async throws {
        _ = try await connection.call(Self.service, path: path, interface: .properties, method: "Set", arguments: Self.client.rawValue, property, value)
    }

    /// Reads a location object and tells the document; values that are no coordinates are ignored.
    private func read(_ path: ObjectPath, _ connection: Connection) async {
        guard let properties = try? await connection.call(Self.service, path: path, interface: .properties, method: "GetAll",
                                                          arguments: Self.location.rawValue).arguments([String: Value].self),
              case .double(let latitude)? = properties["Latitude"]?.unwrapped, case .double(let longitude)? = properties["Longitude"]?.unwrapped,
              (-90...90).contains(latitude), (-180...180).contains(longitude) else {
            logger.warning("GeoClue gave a location that is not one", metadata: ["path": "\(path)"])
            return
        }
        let description = properties["Description"]?.stringValue?.printableLine(maximumLength: 100) ?? ""
        let name = description.isEmpty ? "Here" : "Here (\(description))"
        weather.hereMoved(to: ResolvedPlace(name: name, latitude: latitude, longitude: longitude))
    }

    private func unavailable(_ reason: String) {
        logger.notice("\(reason)")
        weather.hereUnavailable(reason)
    }

    /// What a GeoClue error means to the user.
    static func explain(_ error: BusError) -> String {
        switch error.name.rawValue {
        case "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner":
            return "Where you are cannot be found: no location service (GeoClue) is running. Give a place's name instead."
        case "org.freedesktop.DBus.Error.AccessDenied":
            return "The location service (GeoClue) refused to say where you are; allow almanacd in the system's privacy settings, or give a place's name."
        default:
            return "The location service (GeoClue) failed: \(error.message)"
        }
    }
}
