import FoundationEssentials

/// What a view may submit to the weather document, validated before anything changes.
public enum WeatherSubmission: Sendable, Hashable {
    case units(Units)
    case savedLocations([String])

    /// The longest location name accepted.
    public static let maximumLocationLength = 200
    /// The most saved locations accepted.
    public static let maximumSavedLocations = 100

    /// Checks the submission, throwing `SubmissionError` with a message a person can act on.
    public func validated() throws -> WeatherSubmission {
        guard case .savedLocations(let locations) = self else { return self }
        var cleaned: [String] = []
        for location in locations {
            let trimmed = location.trimmed
            guard !trimmed.isEmpty else { throw SubmissionError("A saved location cannot be empty.") }
            guard trimmed.utf8.count <= Self.maximumLocationLength else {
                throw SubmissionError("A location name can be at most \(Self.maximumLocationLength) bytes long.")
            }
            if !cleaned.contains(trimmed) { cleaned.append(trimmed) }
            // Counted after duplicates go: saving a saved place changes nothing, even at the limit.
            guard cleaned.count <= Self.maximumSavedLocations else {
                throw SubmissionError("At most \(Self.maximumSavedLocations) saved locations are allowed; remove some first.")
            }
        }
        return .savedLocations(cleaned)
    }
}
