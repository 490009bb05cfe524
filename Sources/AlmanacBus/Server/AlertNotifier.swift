public import AlmanacCore
public import AlmanacModels
public import DBus
public import Logging

/// Desktop notifications of official weather alerts: one per alert id and per update of it
/// (an update replaces its notification), for the alerts the `weatherAlerts` setting names
/// (severe and extreme by default); an alert that ends closes its notification, and so does
/// letting its place go or a setting that no longer names it — once no other place has it. Watches the weather document
/// like a view. Alerts restored after a restart are not news: they were notified when they began.
public final class AlertNotifier: Service {
    static let viewKey = ViewKey("almanacd:alert-notifications")

    /// The summary and body of an alert's notification, as plain text (AlmanacViews' words,
    /// which this layer does not see; `DesktopNotifications` escapes the body for the server).
    public typealias Wording = @Sendable (_ alert: WeatherAlert, _ place: String) -> (summary: String, body: String)

    /// What the document's handler hands `run`, in the order it heard it.
    private enum Work: Sendable {
        /// The alerts kept from last time (known, not news).
        case kept([String: PlaceAlerts])
        /// A change, with the state as it was when the change was heard.
        case heard(WeatherChange, WeatherState)
    }

    /// What `run` alone keeps (its one owner: no lock).
    private struct Notified {
        /// The alerts last heard at each place, by id: an alert that differs from its entry is
        /// an update. Places may share an alert id; its notification is one.
        var known: [String: [String: WeatherAlert]] = [:]
        /// Each alert shown, as shown, and its notification's id.
        var shown: [String: (alert: WeatherAlert, notification: UInt32)] = [:]
    }

    private let weather: WeatherDocument
    private let connection: Connection
    private let wording: Wording
    private let logger: Logger
    private let work: AsyncStream<Work>
    private let queue: AsyncStream<Work>.Continuation

    public init(weather: WeatherDocument, connection: Connection, wording: @escaping Wording,
                logger: Logger) {
        self.weather = weather
        self.connection = connection
        self.wording = wording
        self.logger = logger
        (work, queue) = AsyncStream.makeStream(of: Work.self)
    }

    /// Hears the weather document's alerts from now on (the view's handler only queues); the
    /// alerts it holds already (kept from last time) are known, not news.
    public func prepare() async throws {
        weather.document.addView(key: Self.viewKey) { [weak self] event in
            guard let self, case .changed(_, let change, _) = event else { return }
            queue.yield(.heard(change, weather.document.snapshot.state))
        }
        queue.yield(.kept(weather.document.snapshot.state.alerts))
    }

    /// What a change means for the notifications: alerts to show (new ones, and updates of
    /// known ones, that the setting names) and to close (ended, let go, no longer named).
    private static func heard(_ change: WeatherChange, in state: WeatherState, _ notified: inout Notified) -> [Action] {
        var actions: [Action] = []
        switch change {
        case .alerts(let location, let placeAlerts, let began, let ended):
            let before = notified.known[location] ?? [:]
            notified.known[location] = Dictionary(placeAlerts.alerts.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            let held = Self.held(in: notified.known)
            let place = state.readings[location]?.placeName ?? location
            for alert in placeAlerts.alerts where state.weatherAlerts.notifies(alert.severity) {
                let updated = before[alert.id].map { $0 != alert } ?? false
                if began.contains(alert.id) || updated { actions.append(.show(alert, place: place)) }
            }
            for id in ended where !held.contains(id) { actions.append(.close(alertID: id)) }
        case .forgotten(let locations):
            let gone = Set(locations.flatMap { notified.known.removeValue(forKey: $0)?.keys.map { $0 } ?? [] })
            for id in gone.subtracting(Self.held(in: notified.known)) { actions.append(.close(alertID: id)) }
        case .weatherAlerts(let notice):
            for id in notified.shown.filter({ !notice.notifies($0.value.alert.severity) }).map(\.key) { actions.append(.close(alertID: id)) }
        default:
            break
        }
        return actions
    }

    private enum Action {
        case show(WeatherAlert, place: String)
        case close(alertID: String)
    }

    /// The alert ids some place still has: one notification serves every place with the alert
    /// ("here" and a saved place, two places in one NWS zone or MeteoAlarm region), so it
    /// closes only when none has it.
    private static func held(in known: [String: [String: WeatherAlert]]) -> Set<String> {
        Set(known.values.flatMap(\.keys))
    }

    /// A `Service`: shows and closes notifications as alerts begin, change and end, until
    /// cancelled. It alone keeps what was heard and shown, one change after another.
    public func run() async {
        var notified = Notified()
        await withTaskCancellationHandler {
            for await item in work {
                switch item {
                case .kept(let kept):
                    for (location, placeAlerts) in kept where notified.known[location] == nil {
                        notified.known[location] = Dictionary(placeAlerts.alerts.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
                    }
                case .heard(let change, let state):
                    for action in Self.heard(change, in: state, &notified) {
                        switch action {
                        case .show(let alert, let place): await show(alert, at: place, &notified.shown)
                        case .close(let id): await close(id, &notified.shown)
                        }
                    }
                }
            }
        } onCancel: {
            queue.finish()
        }
        weather.document.removeView(key: Self.viewKey)
    }

    private func show(_ alert: WeatherAlert, at place: String, _ shown: inout [String: (alert: WeatherAlert, notification: UInt32)]) async {
        let before = shown[alert.id]
        // Once per alert and update: the same alert fetched again shows nothing.
        guard before?.alert != alert else { return }
        let text = wording(alert, place)
        var notice = DesktopNotifications.Notice(summary: text.summary, body: text.body, icon: "dialog-warning")
        notice.replaces = before?.notification ?? 0
        notice.hints = ["category": .string("weather.alert"), "urgency": .byte(alert.severity == .extreme ? 2 : 1)]
        notice.expires = 0
        do {
            let (id, _) = try await DesktopNotifications(connection: connection).notify(notice)
            shown[alert.id] = (alert, id)
        } catch {
            logger.warning("could not show a notification of a weather alert", metadata: ["error": "\(error)"])
        }
    }

    private func close(_ alertID: String, _ shown: inout [String: (alert: WeatherAlert, notification: UInt32)]) async {
        guard let notification = shown.removeValue(forKey: alertID)?.notification else { return }
        do {
            try await DesktopNotifications(connection: connection).close(notification)
        } catch {
            logger.warning("could not close the notification of an ended weather alert", metadata: ["error": "\(error)"])
        }
    }
}
