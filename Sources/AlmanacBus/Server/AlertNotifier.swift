public import AlmanacCore
public import AlmanacModels
public import DBus
import Locking
public import Logging

/// Desktop notifications of official weather alerts: one per alert id and per update of it
/// (an update replaces its notification), for severe and extreme alerts; an alert that ends
/// closes its notification. Watches the weather document like a view.
public final class AlertNotifier: Service {
    static let viewKey = ViewKey("almanacd:alert-notifications")

    /// The summary and body of an alert's notification (AlmanacViews' words, which this layer does not see).
    public typealias Wording = @Sendable (_ alert: WeatherAlert, _ place: String) -> (summary: String, body: String)

    private enum Work: Sendable {
        case show(WeatherAlert, place: String)
        case close(alertID: String)
    }

    private let weather: WeatherDocument
    private let connection: Connection
    private let wording: Wording
    private let logger: Logger
    /// The least severity notified.
    private let threshold: AlertSeverity
    /// Each alert shown, as shown, and its notification's id.
    private let shown = Locked<[String: (alert: WeatherAlert, notification: UInt32)]>([:])
    private let work: AsyncStream<Work>
    private let queue: AsyncStream<Work>.Continuation

    public init(weather: WeatherDocument, connection: Connection, threshold: AlertSeverity = .severe,
                wording: @escaping Wording, logger: Logger = Logger(label: "almanac.notifications")) {
        self.weather = weather
        self.connection = connection
        self.threshold = threshold
        self.wording = wording
        self.logger = logger
        (work, queue) = AsyncStream.makeStream(of: Work.self)
    }

    /// Hears the weather document's alerts from now on (the view's handler only queues).
    public func prepare() async throws {
        weather.document.addView(key: Self.viewKey) { [weak self] event in
            guard let self, case .changed(_, .alerts(let location, let placeAlerts, _, let ended), _) = event else { return }
            let place = weather.document.snapshot.state.readings[location]?.placeName ?? location
            for alert in placeAlerts.alerts where alert.severity >= threshold { queue.yield(.show(alert, place: place)) }
            for id in ended { queue.yield(.close(alertID: id)) }
        }
    }

    /// A `Service`: shows and closes notifications as alerts begin, change and end, until cancelled.
    public func run() async {
        await withTaskCancellationHandler {
            for await item in work {
                switch item {
                case .show(let alert, let place): await show(alert, at: place)
                case .close(let id): await close(id)
                }
            }
        } onCancel: {
            queue.finish()
        }
        weather.document.removeView(key: Self.viewKey)
    }

    private func show(_ alert: WeatherAlert, at place: String) async {
        let before = shown.withLock { $0[alert.id] }
        // Once per alert and update: the same alert fetched again shows nothing.
        guard before?.alert != alert else { return }
        let text = wording(alert, place)
        let hints: [String: Value] = ["category": .string("weather.alert"), "urgency": .byte(alert.severity == .extreme ? 2 : 1)]
        do {
            let reply = try await connection.call(
                DesktopNotifier.service, path: DesktopNotifier.path, interface: DesktopNotifier.interface, method: "Notify", timeout: .seconds(5),
                arguments: "Almanac", before?.notification ?? 0, "dialog-warning", text.summary, text.body, [String](), hints, Int32(0)
            )
            let id = try reply.arguments(UInt32.self)
            shown.withLock { $0[alert.id] = (alert, id) }
        } catch {
            logger.warning("could not show a notification of a weather alert", metadata: ["error": "\(error)"])
        }
    }

    private func close(_ alertID: String) async {
        guard let notification = shown.withLock({ $0.removeValue(forKey: alertID)?.notification }) else { return }
        do {
            _ = try await connection.call(DesktopNotifier.service, path: DesktopNotifier.path, interface: DesktopNotifier.interface,
                                          method: "CloseNotification", timeout: .seconds(5), arguments: notification)
        } catch {
            logger.warning("could not close the notification of an ended weather alert", metadata: ["error": "\(error)"])
        }
    }
}
