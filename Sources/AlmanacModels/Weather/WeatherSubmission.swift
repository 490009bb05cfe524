import FoundationEssentials

/// What a view may submit to the weather document, validated before anything changes.
public enum WeatherSubmission: Sendable, Hashable {
    case units(Units)
    case provider(WeatherProvider)
    /// The saved places, all of them (a `Submit`).
    case savedLocations([String])
    /// One more saved place, after the others (`AddLocation`); saved already, it changes nothing.
    case addLocation(String)
    /// One saved place fewer (`RemoveLocation`); refused with `LocationNotSaved` when it is not saved.
    case removeLocation(String)
    /// When rain soon is notified.
    case rainNotify(RainNotice)
    /// How wind is shown.
    case windUnit(WindUnit)
    /// How precipitation is shown.
    case precipitationUnit(PrecipitationUnit)
    /// Which official alerts are notified.
    case weatherAlerts(AlertNotice)

    /// The longest location name accepted.
    public static let maximumLocationLength = 200
    /// The most saved locations accepted.
    public static let maximumSavedLocations = 100

    /// Checks the submission, throwing `SubmissionError` with a message a person can act on.
    public func validated() throws -> WeatherSubmission {
        switch self {
        case .units, .provider: return self
        case .rainNotify, .weatherAlerts: return self
        case .windUnit, .precipitationUnit: return self
        case .savedLocations(let locations): return .savedLocations(try Self.cleaned(locations))
        case .addLocation(let location): return .addLocation(try Self.cleaned([location])[0])
        case .removeLocation(let location): return .removeLocation(location.trimmed)
        }
    }

    /// What this submission makes of the saved places `saved`, as settings: `.units` or
    /// `.savedLocations`. Throws `SubmissionError` past the limit of saved places, and
    /// `LocationNotSaved` to remove a place that is not saved.
    public func settled(against saved: [String]) throws -> WeatherSubmission {
        switch self {
        case .units, .provider, .savedLocations, .rainNotify, .weatherAlerts,
             .windUnit, .precipitationUnit:
            return self
        case .addLocation(let location):
            return .savedLocations(try Self.cleaned(saved + [location]))
        case .removeLocation(let location):
            // As saved, or as typed in another case ("berlin" for "Berlin").
            let given = location.trimmed
            guard let match = saved.first(where: { $0 == given }) ?? saved.first(where: { $0.lowercased() == given.lowercased() }) else {
                throw LocationNotSaved(location: location, saved: saved)
            }
            return .savedLocations(saved.filter { $0 != match })
        }
    }

    /// The places trimmed, each once (whatever its case: "berlin" is "Berlin"), or
    /// `SubmissionError` saying which rule one breaks.
    private static func cleaned(_ locations: [String]) throws -> [String] {
        var cleaned: [String] = []
        for location in locations {
            let trimmed = location.trimmed
            guard !trimmed.isEmpty else { throw SubmissionError("A saved location cannot be empty.") }
            guard trimmed.utf8.count <= Self.maximumLocationLength else {
                throw SubmissionError("A location name can be at most \(Self.maximumLocationLength) bytes long.")
            }
            guard !trimmed.hasControlCharacters else {
                throw SubmissionError("A location name cannot hold control characters (a line break, a tab): give it on one line.")
            }
            if !cleaned.contains(where: { $0.lowercased() == trimmed.lowercased() }) { cleaned.append(trimmed) }
            // Counted after duplicates go: saving a saved place changes nothing, even at the limit.
            guard cleaned.count <= Self.maximumSavedLocations else {
                throw SubmissionError("At most \(Self.maximumSavedLocations) saved locations are allowed; remove some first.")
            }
        }
        return cleaned
    }
}
