import FoundationEssentials

/// One ring of an alert's area, as latitude and longitude pairs: whether a place lies in it.
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

}
