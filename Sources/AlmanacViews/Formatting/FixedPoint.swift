/// `value` rounded to a whole number, or `nil` when it is not finite or too large for `Int`:
/// `Int(_:)` would trap, and a value from a provider or the bus can be anything.
public func wholeNumber(_ value: Double, rounding rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero) -> Int? {
    let rounded = value.rounded(rule)
    guard rounded.isFinite, abs(rounded) < 9e15 else { return nil }
    return Int(rounded)
}

/// `value` with exactly `decimals` digits after the point ("21.3", "-4.0", "0.10"), rounded
/// half away from zero. Pure Swift: `String(format:)` would pull ICU's locale data into the
/// CLI and slow its start-up.
public func fixedPoint(_ value: Double, decimals: Int) -> String {
    guard value.isFinite else { return value.isNaN ? "?" : (value < 0 ? "-∞" : "∞") }
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    let negative = value < 0 && scaled != 0
    guard scaled < 9e15 else { return String(value) }
    let whole = Int64(scaled)
    let factor = Int64(scale)
    var text = String(whole / factor)
    if decimals > 0 {
        let fraction = String(whole % factor)
        text += "." + String(repeating: "0", count: decimals - fraction.count) + fraction
    }
    return negative ? "-" + text : text
}
