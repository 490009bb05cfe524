import AlmanacModels

/// Reads a time as people write it and `clockDuration` prints it: "12:31", "1:02:03",
/// "0:45", or a number of seconds ("90"). `nil` for anything else: minutes or seconds past
/// 59 after a colon, signs, fractions, empty parts, more than three parts.
public func clockSeconds(_ text: String) -> Double? {
    let parts = text.trimmed.split(separator: ":", omittingEmptySubsequences: false)
    guard (1...3).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.count <= 9 && $0.allSatisfy { $0.isASCII && $0.isNumber } }) else { return nil }
    let numbers = parts.compactMap { Int($0) }
    guard numbers.count == parts.count, numbers.dropFirst().allSatisfy({ $0 < 60 }) else { return nil }
    return Double(numbers.reduce(0) { $0 * 60 + $1 })
}
