import AlmanacCore
import AlmanacModels

/// The changes of the weather document as an in-process view hears them, each noted with
/// whether it was heard on the document's owner (where a change made there is delivered).
struct HeardChanges {
    private var changes: AsyncStream<(change: WeatherChange, onOwner: Bool)>.Iterator
    /// Every change heard so far.
    private(set) var all: [(change: WeatherChange, onOwner: Bool)] = []

    init(_ weather: WeatherDocument) {
        let (stream, continuation) = AsyncStream.makeStream(of: (change: WeatherChange, onOwner: Bool).self)
        weather.document.addView(key: ViewKey("heard")) { [weak weather] event in
            if case .changed(_, let change, _) = event { continuation.yield((change, weather?.isOnOwner == true)) }
        }
        changes = stream.makeAsyncIterator()
    }

    /// What `change` is, short enough for a failure's message (a reading is long).
    static func named(_ change: WeatherChange) -> String {
        if case .reading(let reading) = change { "reading(\(reading.location))" } else { "\(change)" }
    }

    /// Waits for a change that `matches`, noting every change heard meanwhile.
    mutating func wait(for matches: (WeatherChange) -> Bool) async -> Bool {
        while let heard = await changes.next() {
            all.append(heard)
            if matches(heard.change) { return true }
        }
        return false
    }
}
