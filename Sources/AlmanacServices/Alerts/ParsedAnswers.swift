import AlmanacCore
import FoundationEssentials
import AlmanacModels

/// The last answer of each URL that parsed, with the validators it came with. A URL is asked
/// conditionally only with those validators, so a `304` means that answer: never one that
/// failed to parse, never an empty body. An answer not asked for within `forgetAfter` is
/// dropped (a place let go, a country no longer wanted), so the memory held stays that of
/// the places watched.
final class ParsedAnswers<Value: Sendable>: Sendable {
    struct Answer: Sendable {
        let etag: String?
        let lastModified: String?
        let value: Value
        /// When it was last asked for.
        var asked: Date
    }

    private let answers = KeyedCache<URL, Answer>()
    /// How long an answer not asked for is kept.
    let forgetAfter: TimeInterval
    /// The time an answer is asked at (the daemon's clock).
    private let clock: @Sendable () -> Date

    init(forgetAfter: TimeInterval, clock: @escaping @Sendable () -> Date = SystemClock().reading) {
        self.forgetAfter = forgetAfter
        self.clock = clock
    }

    /// `url`'s answer as `parse` reads it, asked of `http` (a client that is not conditional
    /// itself) with the validators of the last answer that parsed, which a `304` gives back.
    /// Throws what the fetch or `parse` throws; the answer kept before stays, with its validators.
    func fetch(_ url: URL, with http: HTTPClient, now: Date? = nil, parse: (Data) throws -> Value) async throws -> Value {
        let now = now ?? clock()
        let kept = recall(url, now: now)
        var validators: [String: String] = [:]
        if let etag = kept?.etag { validators["If-None-Match"] = etag }
        if let lastModified = kept?.lastModified { validators["If-Modified-Since"] = lastModified }
        let response = try await http.get(url, headers: validators, conditional: false)
        // Only a conditional request gets a 304 (the client refuses one to another), so `kept` is there.
        if response.status == 304, let kept { return kept.value }
        let value = try parse(response.body)
        remember(url, Answer(etag: response.headers["etag"], lastModified: response.headers["last-modified"], value: value, asked: now))
        return value
    }

    /// The answer kept for `url`, now marked asked; the answers not asked for within
    /// `forgetAfter` of `now` are dropped first.
    func recall(_ url: URL, now: Date) -> Answer? {
        answers.removeAll { _, answer in now.timeIntervalSince(answer.asked) > forgetAfter }
        return answers.update(url) { answer in
            answer?.asked = now
            return answer
        }
    }

    /// Keeps `answer` as `url`'s.
    func remember(_ url: URL, _ answer: Answer) {
        answers[url] = answer
    }

    /// The URLs whose answers are kept.
    var urls: Set<URL> { answers.keys }
}
