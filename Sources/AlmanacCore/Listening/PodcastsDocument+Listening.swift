public import AlmanacModels
public import FoundationEssentials

/// The listening history (docs/core.md, "Listening history"): what the listening rule
/// (`ListeningRun`) counted, kept per episode and local day, and read back per podcast and day.
extension PodcastsDocument {
    /// Adds `seconds` a media player was heard to play of an episode to the history, on the
    /// local day of `date` (the document's clock when `nil`), through the owner, in its burst.
    /// Nothing changes in the state: no revision is spent. An unknown episode adds nothing.
    public func recordListening(_ seconds: Double, to episodeID: String, at date: Date? = nil) throws {
        guard seconds.isFinite, seconds > 0 else { return }
        let day = Self.localDay(of: date ?? clock())
        try write { [archive] _ in
            try archive.addListening(seconds, to: episodeID, on: day)
            return nil
        }
    }

    /// How long each podcast was listened to on each of the last `days` local days, today
    /// among them (oldest day first); `SubmissionError` for a number of days out of range,
    /// `StorageError` when the history could not be read.
    public func listeningTotals(days: Int) throws -> [ListeningTotal] {
        guard (1...ListeningTotal.maximumDays).contains(days) else {
            throw SubmissionError("Ask for 1 to \(ListeningTotal.maximumDays) days of listening, not \(days).")
        }
        let first = Self.localDay(of: clock(), minus: days - 1)
        return try reading { try archive.listening(since: first) }
    }

    /// "2026-11-28": the local day of `date`, `minus` days before.
    static func localDay(of date: Date, minus days: Int = 0) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let day = calendar.date(byAdding: .day, value: -days, to: date) ?? date
        let parts = calendar.dateComponents([.year, .month, .day], from: day)
        func two(_ number: Int?) -> String { let text = String(number ?? 0); return text.count < 2 ? "0" + text : text }
        return "\(parts.year ?? 1970)-\(two(parts.month))-\(two(parts.day))"
    }
}
