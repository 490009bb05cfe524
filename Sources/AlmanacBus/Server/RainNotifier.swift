public import AlmanacCore
import AlmanacModels
import Locking
public import DBus
public import FoundationEssentials
public import Logging

/// Desktop notifications of rain soon (`rain-notify`): a view of the weather document that
/// hears each new reading, asks `RainAnnouncements` (the rule) whether it is worth telling,
/// and sends `org.freedesktop.Notifications` the place and the sentence ("Rain starting in
/// about 25 min, for 40 min"), replacing its last notification of that place.
public final class RainNotifier: Service {
    static let viewKey = ViewKey("almanacd:rain")

    private let weather: WeatherDocument
    private let connection: Connection
    private let logger: Logger
    private let clock: @Sendable () -> Date
    /// The rule's memory (which places are announced), asked in the document's handler for
    /// every reading, so that a slow notification server can make it drop notices but never
    /// readings the rule must hear (a "dry" one forgotten would silence that place's next
    /// spell).
    private let rule = Locked(RainAnnouncements())
    /// What to show, from the document's handler (which must not wait) to `run`, which alone
    /// keeps the notifications shown. The newest 32 wait while a notification server is slow.
    private let pending: AsyncStream<(place: String, location: String, sentence: String)>
    private let queue: AsyncStream<(place: String, location: String, sentence: String)>.Continuation

    public init(weather: WeatherDocument, connection: Connection, clock: @escaping @Sendable () -> Date = SystemClock().reading,
                logger: Logger) {
        self.weather = weather
        self.connection = connection
        self.clock = clock
        self.logger = logger
        (pending, queue) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(32))
    }

    /// Hears the weather document from before the bus name is taken.
    public func prepare() async throws {
        weather.document.addView(key: Self.viewKey) { [weak self] event in
            guard let self, case .changed(_, .reading(let reading), _) = event else { return }
            let (state, now) = (weather.document.snapshot.state, clock())
            guard let outlook = rule.withLock({ $0.announcement(for: reading, in: state, now: now) }) else { return }
            queue.yield((reading.placeName, reading.location, outlook.sentence))
        }
    }

    /// A `Service`: shows what is announced until cancelled; then it hears no more readings.
    public func run() async {
        await withDiscardingTaskGroup { group in
            group.addTask { [weak self] in
                guard let stream = self?.pending else { return }
                // The last notification of each place, which the next one replaces.
                var shown: [String: UInt32] = [:]
                for await notice in stream { await self?.show(notice, &shown) }
            }
            await Task.untilCancelled()
            group.cancelAll()
        }
        weather.document.removeView(key: Self.viewKey)
    }

    private func show(_ notice: (place: String, location: String, sentence: String), _ shown: inout [String: UInt32]) async {
        let replaces = shown[notice.location] ?? 0
        var message = DesktopNotifications.Notice(summary: "Rain soon in \(notice.place)", body: notice.sentence, icon: "weather-showers")
        message.replaces = replaces
        message.hints = ["category": .string("x-almanac.weather"), "urgency": .byte(1)]
        do {
            let (id, _) = try await DesktopNotifications(connection: connection).notify(message)
            shown[notice.location] = id
        } catch {
            // No notification server (a session without a desktop): nothing to show it on.
            logger.warning("could not show a notification of rain soon", metadata: ["error": "\(error)"])
        }
    }
}
