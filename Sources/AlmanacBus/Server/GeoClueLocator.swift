public import AlmanacCore
import AlmanacModels
import DBus
public import Logging

/// Where the user is, for the weather of `"here"`, from GeoClue (`org.freedesktop.GeoClue2`
/// on the system bus), the way GNOME Weather asks it: `Manager.GetClient`, the client's
/// `DesktopId` and `RequestedAccuracyLevel` (city: weather needs no more), `Start`, then
/// every `LocationUpdated` read and told to the weather document; `Stop` (and the connection
/// closed) when no view or saved place wants `"here"` any more. No GeoClue, a refusal, or no
/// fix within `patience`: the document hears why, and only `"here"` fails. Every wait on the
/// system bus is bounded (`SystemBus`; `Start` longer, as GeoClue may be asking the user) and
/// ends when the daemon stops; almanacd starts it after the session bus name is taken.
public final class GeoClueLocator: Service {
    static let service: BusName = "org.freedesktop.GeoClue2"
    static let managerPath: ObjectPath = "/org/freedesktop/GeoClue2/Manager"
    static let manager: InterfaceName = "org.freedesktop.GeoClue2.Manager"
    static let client: InterfaceName = "org.freedesktop.GeoClue2.Client"
    static let location: InterfaceName = "org.freedesktop.GeoClue2.Location"
    /// GeoClue's `GCLUE_ACCURACY_LEVEL_CITY`.
    static let cityAccuracy: UInt32 = 4
    /// How long `Start` may take: GeoClue answers once its agent allowed the app, which may
    /// mean a question on the screen (GNOME asks the first time).
    static let startTimeout: Duration = .seconds(60)
    /// How long `Stop` may take: sent on the way out, so short (and GeoClue forgets a client
    /// whose connection closes anyway).
    static let stopTimeout: Duration = .seconds(2)

    private let weather: WeatherDocument
    /// The system bus (`nil`: the default one, or `DBUS_SYSTEM_BUS_ADDRESS`).
    private let systemBusAddress: String?
    private let desktopID: String
    private let patience: Duration
    private let logger: Logger
    /// The weather schedule's changes: whether `"here"` is wanted may have changed.
    private let changes: AsyncStream<Void>

    public init(weather: WeatherDocument, systemBusAddress: String? = nil, desktopID: String = "almanacd",
                patience: Duration = .seconds(30), logger: Logger) {
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
    /// Each following is a child task, which its signal stops when `"here"` is let go.
    public func run() async {
        await withDiscardingTaskGroup { group in
            var following: StopSignal?
            var changes = self.changes.makeAsyncIterator()
            repeat {
                let wanted = weather.wantsHere
                if wanted, following == nil {
                    let stop = StopSignal()
                    following = stop
                    group.addTask { await stop.run { await self.follow() } }
                } else if !wanted, let stop = following {
                    stop.stop()
                    following = nil
                }
            } while await changes.next() != nil
            // Cancelled: the following (a child) is cancelled with it, and tells GeoClue `Stop`.
        }
    }

    /// One run of following, until it fails or its task is cancelled: a system bus
    /// connection, a GeoClue client, its updates told to the weather document. Then GeoClue
    /// is told `Stop` (once a client was had: a Start that a cancellation cut short may still
    /// have reached it) and the connection closed.
    private func follow() async {
        let connection: Connection
        do {
            connection = try await SystemBus.connect(systemBusAddress)
        } catch is CancellationError {
            return
        } catch {
            return unavailable("Where you are cannot be found: the system bus is not reachable (\(error)).")
        }
        var client: ObjectPath?
        do {
            let path = try await connection.call(Self.service, path: Self.managerPath, interface: Self.manager, method: "GetClient",
                                                 timeout: SystemBus.callTimeout).arguments(ObjectPath.self)
            client = path
            try await set("DesktopId", .string(desktopID), on: path, connection)
            try await set("RequestedAccuracyLevel", .uint32(Self.cityAccuracy), on: path, connection)
            let updates = try await connection.signals(matching: MatchRule(sender: Self.service, interface: Self.client, member: "LocationUpdated", path: path),
                                                       bufferLimit: 16)
            _ = try await connection.call(Self.service, path: path, interface: Self.client, method: "Start", timeout: Self.startTimeout)
            if !Task.isCancelled { await follow(updates, connection) }
        } catch where Task.isCancelled {
            // Let go: nothing to report.
        } catch is CancellationError {
        } catch let error as BusError {
            unavailable(Self.explain(error))
        } catch {
            unavailable("Where you are cannot be found: \(error).")
        }
        await Self.end(client, on: connection)
    }

    /// Reads each location GeoClue announces until the task is cancelled. No fix for a
    /// while: `"here"` says so (a child task), and a fix that comes later still counts.
    private func follow(_ updates: SignalStream, _ connection: Connection) async {
        await withDiscardingTaskGroup { group in
            group.addTask { [patience] in
                guard (try? await RealTime.sleep(for: patience)) != nil else { return }
                self.unavailable("The location service (GeoClue) has not found where you are yet.")
            }
            for await update in updates {
                guard !Task.isCancelled else { break }
                guard let (_, new) = try? update.arguments(ObjectPath.self, ObjectPath.self) else { continue }
                group.cancelAll()
                await read(new, connection)
            }
            group.cancelAll()
        }
    }

    /// Tells GeoClue `Stop` when a client was had, answered before the connection closes (a
    /// message still queued would be lost).
    private static func end(_ client: ObjectPath?, on connection: Connection) async {
        if let client {
            // The one task left unstructured here, and awaited: by now the following's task is
            // cancelled ("here" let go, or the daemon stopping), and a cancelled task's call
            // is not sent; this one must reach GeoClue, which otherwise keeps locating.
            await Task.detached {
                _ = try? await connection.call(Self.service, path: client, interface: Self.client, method: "Stop", timeout: Self.stopTimeout)
            }.value
        }
        await connection.close()
    }

    private func set(_ property: String, _ value: Value, on path: ObjectPath, _ connection: Connection) async throws {
        _ = try await connection.call(Self.service, path: path, interface: .properties, method: "Set", timeout: SystemBus.callTimeout,
                                      arguments: Self.client.rawValue, property, value)
    }

    /// Reads a location object and tells the document; values that are no coordinates are ignored.
    private func read(_ path: ObjectPath, _ connection: Connection) async {
        guard let properties = try? await connection.call(Self.service, path: path, interface: .properties, method: "GetAll", timeout: SystemBus.callTimeout,
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
        logger.notice("where you are is not known", metadata: ["reason": "\(reason)"])
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
