import FoundationEssentials

/// "7d", "2h", "1h30m", "45s": seconds as `almanac podcasts settings` takes and shows them.
/// Fractions of a second are rounded.
public func compactDuration(_ seconds: Double) -> String {
    guard seconds.isFinite, seconds >= 0, let total = wholeNumber(seconds) else { return "?" }
    if total == 0 { return "0s" }
    let units: [(Int, String)] = [(86_400, "d"), (3_600, "h"), (60, "m"), (1, "s")]
    var rest = total
    var text = ""
    for (size, unit) in units where rest >= size {
        text += "\(rest / size)\(unit)"
        rest %= size
    }
    return text
}

/// Seconds from "7d", "12h", "30m", "45s", "1h30m" (units in any order of size, each once:
/// d, h, m, s, also spelled day(s), hour(s), min(s)/minute(s), sec(s)/second(s)), or a plain
/// number of seconds; `nil` for anything else.
public func parseCompactDuration(_ text: String) -> Double? {
    let spelled: [String: Double] = ["d": 86_400, "day": 86_400, "days": 86_400, "h": 3_600, "hour": 3_600, "hours": 3_600,
                                     "m": 60, "min": 60, "mins": 60, "minute": 60, "minutes": 60,
                                     "s": 1, "sec": 1, "secs": 1, "second": 1, "seconds": 1]
    let text = text.lowercased().filter { $0 != " " }
    guard !text.isEmpty else { return nil }
    if let plain = Double(text), plain.isFinite { return plain >= 0 ? plain : nil }
    var total = 0.0
    var number = ""
    var unit = ""
    var used = Set<Double>()
    func close() -> Bool {
        guard let value = Double(number), value.isFinite, value >= 0, let size = spelled[unit], used.insert(size).inserted else { return false }
        total += value * size
        (number, unit) = ("", "")
        return true
    }
    for character in text {
        if character.isNumber || character == "." {
            if !unit.isEmpty, !close() { return nil }
            number.append(character)
        } else if character.isLetter {
            guard !number.isEmpty else { return nil }
            unit.append(character)
        } else {
            return nil
        }
    }
    guard !unit.isEmpty, close() else { return nil }
    return total
}

/// Bytes from "500MiB", "1GiB", "2 GB", "750M", "0": binary units (KiB, MiB, GiB, TiB, PiB; K,
/// M, G, T, P alone are binary too, as `df -h` counts) or decimal ones (kB, MB, GB, TB, PB), or a plain
/// number of bytes; `nil` for anything else.
public func parseByteCount(_ text: String) -> Double? {
    let text = text.filter { $0 != " " }
    let digits = text.prefix { $0.isNumber || $0 == "." }
    guard let value = Double(digits), value.isFinite, value >= 0 else { return nil }
    let (kib, mib, gib, tib, pib) = (1024.0, 1_048_576.0, 1_073_741_824.0, 1_099_511_627_776.0, 1_125_899_906_842_624.0)
    let units: [String: Double] = ["": 1, "b": 1, "k": kib, "kib": kib, "kb": 1e3, "m": mib, "mib": mib, "mb": 1e6,
                                   "g": gib, "gib": gib, "gb": 1e9, "t": tib, "tib": tib, "tb": 1e12, "p": pib, "pib": pib, "pb": 1e15]
    guard let size = units[text.dropFirst(digits.count).lowercased()] else { return nil }
    return (value * size).rounded()
}
