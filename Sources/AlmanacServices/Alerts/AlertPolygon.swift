import FoundationEssentials
import AlmanacFeeds
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One ring of an alert's area, as latitude and longitude pairs: whether a place lies in it,
/// and how far from it. Flat geometry around the place (an equirectangular projection), good
/// to a few hundred metres over the tens of kilometres that matter here.
struct AlertPolygon: Sendable {
    let points: [(latitude: Double, longitude: Double)]

    /// Points kept of one ring; a longer ring is cut there (its closing edge then cuts across).
    static let maximumPoints = 5_000

    /// A ring of at least three points on Earth; `nil` otherwise.
    init?(_ points: [(latitude: Double, longitude: Double)]) {
        let kept = points.prefix(Self.maximumPoints).filter { (-90...90).contains($0.latitude) && (-180...180).contains($0.longitude) }
        guard kept.count >= 3 else { return nil }
        self.points = Array(kept)
    }

    /// A CAP polygon: "lat,lon lat,lon …" (CAP 1.2 §3.2.4), its pairs separated by white space.
    init?(cap text: String) {
        var points: [(latitude: Double, longitude: Double)] = []
        // A pair is some 20 characters; more than 64 a pair is not read.
        for pair in text.prefix(Self.maximumPoints * 64).split(whereSeparator: \.isWhitespace).prefix(Self.maximumPoints) {
            let parts = pair.split(separator: ",")
            guard parts.count == 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]) else { return nil }
            points.append((latitude, longitude))
        }
        self.init(points)
    }

    /// A GeoJSON ring: `[[lon, lat], …]`, longitude first.
    init?(geoJSON ring: [JSONNode]) {
        self.init(ring.prefix(Self.maximumPoints).compactMap { position -> (latitude: Double, longitude: Double)? in
            let numbers = position.items
            guard numbers.count >= 2, case .number(let longitude) = numbers[0], case .number(let latitude) = numbers[1] else { return nil }
            return (latitude, longitude)
        })
    }

    /// Whether (`latitude`, `longitude`) is inside (ray casting; a point on an edge may go either way).
    func contains(latitude: Double, longitude: Double) -> Bool {
        var inside = false
        var previous = points[points.count - 1]
        for point in points {
            if (point.latitude > latitude) != (previous.latitude > latitude) {
                let crossing = (previous.longitude - point.longitude) * (latitude - point.latitude) / (previous.latitude - point.latitude) + point.longitude
                if longitude < crossing { inside.toggle() }
            }
            previous = point
        }
        return inside
    }

    /// Kilometres from (`latitude`, `longitude`) to the ring's nearest edge; 0 inside.
    func kilometres(fromLatitude latitude: Double, longitude: Double) -> Double {
        if contains(latitude: latitude, longitude: longitude) { return 0 }
        let perLongitude = 111.32 * cos(latitude * .pi / 180), perLatitude = 110.57
        func planar(_ point: (latitude: Double, longitude: Double)) -> (x: Double, y: Double) {
            ((point.longitude - longitude) * perLongitude, (point.latitude - latitude) * perLatitude)
        }
        var nearest = Double.infinity
        var previous = planar(points[points.count - 1])
        for point in points.map(planar) {
            let (dx, dy) = (point.x - previous.x, point.y - previous.y)
            let length = dx * dx + dy * dy
            // The edge's point nearest the place (at the origin).
            let t = length == 0 ? 0 : max(0, min(1, -(previous.x * dx + previous.y * dy) / length))
            let (x, y) = (previous.x + t * dx, previous.y + t * dy)
            nearest = min(nearest, (x * x + y * y).squareRoot())
            previous = point
        }
        return nearest
    }
}
