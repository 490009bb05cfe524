public import AlmanacCore
import AlmanacModels
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
    /// Each reading heard, with the state and the time it was heard at, from the document's
    /// handler (which must not wait) to `run`, which alone keeps the rule's memory and the
    /// notifications shown (one owner: no lock). The newest 32 wait while a notification
    /// server is slow to answer.
    private let pending: AsyncStream<(reading: WeatherReading, state: WeatherState, now: Date)>
    private let queue: AsyncStream<(reading: WeatherReading, state: WeatherState, now: Date)>.Continuation

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
            queue.yield((reading, weather.document.snapshot.state, clock()))
        }
    }

    /// A `Service`: shows what is announced until cancelled; then it hears no more readings.
    public func run() async {
        await withDiscardingTaskGroup { group in
            group.addTask { [weak self] in
                guard let stream = self?.pending else { return }
                var rule = RainAnnouncements()
                // The last notification of each place, which the next one replaces.
                var shown: [String: UInt32] = [:]
                for await heard in stream {
                    guard let outlook = rule.announcement(for: heard.reading, in: heard.state, now: heard.now) else { continue }
                    await self?.show((heard.reading.placeName, heard.reading.location, outlook.sentence), &shown)
                }
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
