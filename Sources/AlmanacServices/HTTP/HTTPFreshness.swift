import AlmanacCore
import AlmanacModels
import FoundationEssentials

/// How long a server says its answer stays fresh: `Cache-Control: max-age` (or `s-maxage`),
/// else `Expires`; `no-cache`/`no-store` mean not at all.
enum HTTPFreshness {
    static func freshUntil(_ headers: [String: String], now: Date) -> Date? {
        if let control = headers["cache-control"]?.lowercased() {
            let directives = control.split(separator: ",").map(\.trimmed)
            if directives.contains(where: { $0 == "no-cache" || $0 == "no-store" }) { return nil }
            for directive in directives where directive.hasPrefix("max-age=") || directive.hasPrefix("s-maxage=") {
                let value = directive.split(separator: "=", maxSplits: 1).last.map { $0.filter { $0 != "\"" && $0 != " " } }  // a number, quoted or not
                if let seconds = value.flatMap(Double.init), seconds.isFinite, seconds > 0 { return now.addingTimeInterval(min(seconds, 86_400 * 7)) }
            }
        }
        if let expires = headers["expires"], let date = httpDate(expires), date > now { return date }
        return nil
    }

    /// "Sun, 06 Nov 1994 08:49:37 GMT" (the form RFC 9110 requires of servers).
    static func httpDate(_ text: String) -> Date? {
        let parts = text.split(whereSeparator: { $0 == " " || $0 == ":" || $0 == "," }).map(String.init)
        let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
        guard parts.count >= 7, let day = Int(parts[1]), let month = months.firstIndex(of: parts[2].lowercased()),
              let year = Int(parts[3]), let hour = Int(parts[4]), let minute = Int(parts[5]), let second = Int(parts[6]),
              (1...31).contains(day), (1970...9999).contains(year), (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        var components = DateComponents()
        (components.year, components.month, components.day, components.hour, components.minute, components.second) = (year, month + 1, day, hour, minute, second)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        return calendar.date(from: components)
    }
}
