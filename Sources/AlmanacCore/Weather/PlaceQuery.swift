public import AlmanacModels
/// What a user means by a place: `"Berlin"`, `"Springfield, Illinois"`, `"Springfield, US"`,
/// `"52.52,13.41"` or `"id:4250542"`, and the rule that picks one place among the geocoder's
/// matches for it.
public struct PlaceQuery: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// A name, perhaps with qualifiers (region, country or country code) after commas.
        case name
        case coordinates(latitude: Double, longitude: Double)
        /// The geocoder's id.
        case id(Int)
    }

    public let kind: Kind
    /// The place's own name ("Springfield"), before any comma.
    public let name: String
    /// What follows the name, lower-cased ("illinois", "us").
    public let qualifiers: [String]

    public init(_ text: String) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmed }
        if parts.count == 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]) {
            (kind, name, qualifiers) = (.coordinates(latitude: latitude, longitude: longitude), text, [])
        } else if text.trimmed.lowercased().hasPrefix("id:"), let id = Int(text.trimmed.dropFirst(3).trimmed), id > 0 {
            (kind, name, qualifiers) = (.id(id), text, [])
        } else {
            (kind, name, qualifiers) = (.name, parts.first ?? text, parts.dropFirst().filter { !$0.isEmpty }.map { $0.lowercased() })
        }
    }

    /// Whether `match` is what the qualifiers say: each names its region, country or
    /// country code (whole, or the start of a word of it: "Ill", "New South").
    public func accepts(_ match: PlaceMatch) -> Bool {
        let names = [match.region, match.country, match.countryCode].compactMap { $0?.lowercased() }.filter { !$0.isEmpty }
        return qualifiers.allSatisfy { qualifier in
            names.contains { $0 == qualifier || (qualifier.count >= 3 && $0.hasPrefix(qualifier)) }
        }
    }

    /// The one place `matches` (best first, as the geocoder ranks them) holds for this query:
    /// without qualifiers the first; with them, the only one they accept, or the first when it
    /// is far bigger than the next (ten times the population). Throws `PlaceNotFound` when
    /// none is, naming them, or when several are and none stands out.
    public func choose(_ matches: [PlaceMatch], location: String) throws -> PlaceMatch {
        let shown = location.printableLine(maximumLength: 80)
        guard let first = matches.first else {
            if case .id(let id) = kind { throw PlaceNotFound("There is no place with the id \(id).") }
            throw PlaceNotFound("No place called '\(shown)' was found. Check the spelling, or give coordinates such as 52.52,13.41.")
        }
        guard !qualifiers.isEmpty else { return first }
        let accepted = matches.filter(accepts)
        guard let best = accepted.first else {
            let seen = matches.prefix(5).map(\.displayName).joined(separator: "; ")
            throw PlaceNotFound("No place called '\(name)' in \(qualifiers.joined(separator: ", ")) was found; there are: \(seen).")
        }
        if accepted.count == 1 { return best }
        let (one, two) = (best.population ?? 0, accepted[1].population ?? 0)
        if one > 0, one >= 10 * two { return best }
        let listed = accepted.prefix(5).map { match in match.displayName + (match.id.map { " (id:\($0))" } ?? "") }.joined(separator: "; ")
        throw PlaceNotFound("'\(shown)' could be \(accepted.count) places: \(listed). Say which: add the region, or give its id.")
    }
}

/// A place name that leads to no place, or to several; the message names them.
public struct PlaceNotFound: Error, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
