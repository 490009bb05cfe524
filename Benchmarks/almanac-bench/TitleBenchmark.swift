import AlmanacModels
import Foundation

/// Title patterns: how long `TitlePattern` takes per title, for the worst pattern it takes
/// (on the worst title for it) and for a usual one over FILE's titles, beside Swift's
/// `Regex` and Foundation's `NSRegularExpression` on the usual one (both backtrack: the
/// worst pattern is no fair question for them). Prints
/// "worst_ns W usual_ns U regex_ns R nsregex_ns N titles T matched M", nanoseconds per title.
struct TitleBenchmark {
    /// The worst pattern `TitlePattern` takes: 1,000 steps (its most), every one of them live
    /// at every character of a title of word characters without an "x".
    static let worst = "(?:\\w?){499}x"
    /// The worst title for it: `TitlePattern.matchedLength` word characters.
    static let worstTitle = String(repeating: "a", count: TitlePattern.matchedLength)
    /// A usual pattern: an episode number, then an interview or a Q&A.
    static let usual = "^episode \\d+:.*\\b(interview|q&a)\\b"

    let file: String
    let seconds: Double

    func run() throws {
        let titles = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").map(String.init)
        guard !titles.isEmpty else { throw BenchmarkFailure("no titles in \(file)") }
        guard let worst = TitlePattern(Self.worst), let usual = TitlePattern(Self.usual) else { throw BenchmarkFailure("a pattern was refused") }
        let regex = try Regex(Self.usual).ignoresCase()
        let nsregex = try NSRegularExpression(pattern: Self.usual, options: [.caseInsensitive])
        let matched = titles.filter { usual.matches($0) }.count
        let regexMatched = try titles.filter { try regex.firstMatch(in: $0) != nil }.count
        let nsMatched = titles.filter { nsregex.firstMatch(in: $0, range: NSRange($0.startIndex..., in: $0)) != nil }.count
        guard matched == regexMatched, matched == nsMatched else {
            throw BenchmarkFailure("the matchers disagree: \(matched), Regex \(regexMatched), NSRegularExpression \(nsMatched)")
        }
        let worstNs = measure(1) { _ = worst.matches(Self.worstTitle) }
        let usualNs = measure(titles.count) { for title in titles { _ = usual.matches(title) } }
        let regexNs = measure(titles.count) { for title in titles { _ = try? regex.firstMatch(in: title) } }
        let nsregexNs = measure(titles.count) {
            for title in titles { _ = nsregex.firstMatch(in: title, range: NSRange(title.startIndex..., in: title)) }
        }
        print("worst_ns \(worstNs) usual_ns \(usualNs) regex_ns \(regexNs) nsregex_ns \(nsregexNs) titles \(titles.count) matched \(matched)")
    }

    /// Nanoseconds per title: `pass` (over `count` titles) again and again for `seconds`.
    private func measure(_ count: Int, _ pass: () -> Void) -> Double {
        pass()
        var passes = 0
        let start = AlmanacBench.now()
        var elapsed = 0.0
        repeat {
            pass()
            passes += 1
            elapsed = AlmanacBench.now() - start
        } while elapsed < seconds
        return elapsed / Double(passes * count) * 1e9
    }
}
