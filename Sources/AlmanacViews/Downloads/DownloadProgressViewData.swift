public import AlmanacModels

/// One download as a progress line shows it: "[=========>          ] 45%  21.6 MB of 48.0 MB
/// 1.2 MB/s  0:22 left". Rate and time left come from the caller's measurement (bytes per
/// second over the last few seconds), so this stays a pure transformation.
public struct DownloadProgressViewData: Sendable, Hashable, JSONRepresentable {
    public let job: UInt64
    public let episode: String
    /// "queued", "downloading", "completed", "failed", "cancelled".
    public let state: String
    /// "45%", or "" while the size is unknown.
    public let percent: String
    /// "21.6 MB of 48.0 MB", or "21.6 MB" while the size is unknown.
    public let bytes: String
    /// "1.2 MB/s", or "" before there is a rate.
    public let rate: String
    /// "0:22 left", "1:02:03 left", or "" when it cannot be told.
    public let eta: String
    /// Where the file went, once completed.
    public let file: String
    public let error: String
    /// 0…1, for a bar; 0 while queued; `nil` while the size of a started download is unknown.
    public let fraction: Double?
    /// Bytes received so far, and in all (`nil` while unknown).
    public let received: UInt64
    public let total: UInt64?
    /// Bytes a second, `nil` before there is a rate.
    public let bytesPerSecond: Double?
    /// Seconds left, `nil` when it cannot be told.
    public let secondsLeft: Double?

    public init(job: DownloadJob, bytesPerSecond: Double?) {
        self.job = job.id
        episode = job.episodeID
        state = job.state.rawValue
        file = job.file
        error = job.error
        let total = job.total
        // A queued job has done none of it, whatever its size: 0, not unknown.
        fraction = total > 0 ? min(1, Double(job.received) / Double(total)) : (job.state == .queued && job.received == 0 ? 0 : nil)
        percent = fraction.map { "\(wholeNumber($0 * 100, rounding: .down) ?? 0)%" } ?? ""
        bytes = total > 0 ? "\(Self.size(job.received)) of \(Self.size(total))" : Self.size(job.received)
        received = job.received
        self.total = total > 0 ? total : nil
        if job.state == .downloading, let rate = bytesPerSecond, rate.isFinite, rate > 0 {
            self.rate = Self.size(UInt64(min(rate, 1e15))) + "/s"
            self.bytesPerSecond = rate
            secondsLeft = total > job.received ? Double(total - job.received) / rate : nil
            eta = secondsLeft.map { Self.clock($0) + " left" } ?? ""
        } else {
            rate = ""
            eta = ""
            self.bytesPerSecond = nil
            secondsLeft = nil
        }
    }

    /// The time left as a value: "0:22", "" when it cannot be told (`eta` is "0:22 left").
    public var timeLeft: String { eta.hasSuffix(" left") ? String(eta.dropLast(5)) : eta }

    /// The names `fields` has.
    public static let fieldNames = ["job", "episode", "state", "percent", "bytes", "rate", "eta", "fraction", "file", "error"]

    /// The fields a `--format` template can use: values, so `eta` is "0:22", not "0:22 left".
    public var fields: [String: String] {
        ["job": String(job), "episode": episode, "state": state, "percent": percent, "bytes": bytes,
         "rate": rate, "eta": timeLeft, "fraction": fraction.map { fixedPoint($0, decimals: 3) } ?? "", "file": file, "error": error]
    }

    /// The `--json` object (docs/cli.md, "JSON keys"): every key always there, numbers as
    /// numbers (`null` while unknown), the words beside them under `…Text`.
    public var json: JSONValue {
        .object([
            "job": .integer(Int64(clamping: job)), "episode": .string(episode), "state": .string(state),
            "fraction": .number(fraction, decimals: 4),
            "percent": .number(fraction.map { $0 * 100 }, decimals: 1), "percentText": .string(percent),
            "received": .integer(Int64(clamping: received)), "total": total.map { .integer(Int64(clamping: $0)) } ?? .null,
            "bytesText": .string(bytes),
            "rate": .number(bytesPerSecond, decimals: 0), "rateText": .string(rate),
            "eta": .number(secondsLeft, decimals: 0), "etaText": .string(timeLeft),
            "file": .text(file), "error": .text(error),
        ])
    }

    /// A bar of `width` cells: "[=====>    ]".
    public func bar(width: Int) -> String {
        let cells = max(1, width - 2)
        guard let fraction else { return "[" + String(repeating: "?", count: cells) + "]" }
        let filled = min(cells, wholeNumber(fraction * Double(cells), rounding: .down) ?? 0)
        let head = filled < cells && filled > 0 ? ">" : ""
        return "[" + String(repeating: "=", count: max(0, filled - head.count)) + head + String(repeating: " ", count: cells - filled) + "]"
    }

    /// "512 B", "1.5 KB", "21.6 MB", "1.20 GB" (decimal units, as download tools show them).
    static func size(_ bytes: UInt64) -> String {
        let value = Double(bytes)
        if bytes < 1_000 { return "\(bytes) B" }
        if bytes < 1_000_000 { return fixedPoint(value / 1e3, decimals: 1) + " KB" }
        if bytes < 1_000_000_000 { return fixedPoint(value / 1e6, decimals: 1) + " MB" }
        return fixedPoint(value / 1e9, decimals: 2) + " GB"
    }

    /// "0:22", "12:05", "1:02:03".
    static func clock(_ seconds: Double) -> String {
        guard let total = wholeNumber(max(0, seconds), rounding: .up), total < 360_000 else { return "--:--" }
        let (hours, minutes, rest) = (total / 3_600, (total % 3_600) / 60, total % 60)
        let two = { (n: Int) in n < 10 ? "0\(n)" : "\(n)" }
        return hours > 0 ? "\(hours):\(two(minutes)):\(two(rest))" : "\(minutes):\(two(rest))"
    }
}
