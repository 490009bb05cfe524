/// A country whose warnings MeteoAlarm publishes in a feed of its own
/// (`/api/v1/warnings/feeds-<slug>`): its names in English, as the geocoder gives them, and
/// coarse boxes of latitude and longitude that hold it (with its neighbours' edges: boxes
/// overlap, so a point may be in several). Norway is not here: MetAlerts serves it.
struct MeteoAlarmCountry: Sendable, Equatable {
    /// The feed's name: `germany`, `united-kingdom`.
    let slug: String
    /// The country's English names, the geocoder's first.
    let names: [String]
    let boxes: [Box]

    struct Box: Sendable, Equatable {
        let latitude: ClosedRange<Double>
        let longitude: ClosedRange<Double>
        var degreesSquared: Double { (latitude.upperBound - latitude.lowerBound) * (longitude.upperBound - longitude.lowerBound) }
        func contains(_ lat: Double, _ lon: Double) -> Bool { latitude.contains(lat) && longitude.contains(lon) }
    }

    init(_ slug: String, _ names: [String], _ boxes: [(ClosedRange<Double>, ClosedRange<Double>)]) {
        self.slug = slug
        self.names = names
        self.boxes = boxes.map { Box(latitude: $0.0, longitude: $0.1) }
    }

    /// Feeds asked at most for one place whose country is not known by name.
    static let maximumGuesses = 3

    /// The country the place's name ends with ("Lyon, Auvergne-Rhône-Alpes, France"), when
    /// MeteoAlarm has a feed for it.
    static func named(in placeName: String) -> MeteoAlarmCountry? {
        guard let last = placeName.split(separator: ",").last?.split(separator: " ").joined(separator: " ").lowercased() else { return nil }
        return all.first { $0.names.contains { $0.lowercased() == last } }
    }

    /// The countries whose boxes hold the point, the smallest box first (the likeliest), at
    /// most `maximumGuesses`.
    static func guessed(latitude: Double, longitude: Double) -> [MeteoAlarmCountry] {
        let holding = all.compactMap { country -> (MeteoAlarmCountry, Double)? in
            let sizes = country.boxes.filter { $0.contains(latitude, longitude) }.map(\.degreesSquared)
            return sizes.min().map { (country, $0) }
        }
        return Array(holding.sorted { $0.1 < $1.1 }.map(\.0).prefix(maximumGuesses))
    }

    static let all: [MeteoAlarmCountry] = [
        .init("austria", ["Austria"], [(46.3...49.1, 9.5...17.2)]),
        .init("belgium", ["Belgium"], [(49.4...51.6, 2.5...6.5)]),
        .init("bosnia-herzegovina", ["Bosnia and Herzegovina"], [(42.5...45.3, 15.7...19.7)]),
        .init("bulgaria", ["Bulgaria"], [(41.2...44.3, 22.3...28.7)]),
        .init("croatia", ["Croatia"], [(42.3...46.6, 13.4...19.5)]),
        .init("cyprus", ["Cyprus"], [(34.5...35.8, 32.2...34.7)]),
        .init("czechia", ["Czechia", "Czech Republic"], [(48.5...51.1, 12.0...18.9)]),
        .init("denmark", ["Denmark"], [(54.5...57.8, 8.0...15.2)]),
        .init("estonia", ["Estonia"], [(57.5...59.8, 21.7...28.3)]),
        .init("finland", ["Finland"], [(59.7...70.1, 20.5...31.6)]),
        .init("france", ["France"], [(41.3...51.1, -5.2...9.6)]),
        .init("germany", ["Germany"], [(47.2...55.1, 5.8...15.1)]),
        .init("greece", ["Greece"], [(34.8...41.8, 19.3...29.7)]),
        .init("hungary", ["Hungary"], [(45.7...48.6, 16.1...22.9)]),
        .init("iceland", ["Iceland"], [(63.2...66.6, -24.6 ... -13.4)]),
        .init("ireland", ["Ireland"], [(51.4...55.4, -10.7 ... -5.9)]),
        .init("israel", ["Israel"], [(29.4...33.4, 34.2...35.9)]),
        .init("italy", ["Italy"], [(35.4...47.1, 6.6...18.6)]),
        .init("latvia", ["Latvia"], [(55.6...58.1, 20.9...28.3)]),
        .init("lithuania", ["Lithuania"], [(53.9...56.5, 20.9...26.9)]),
        .init("luxembourg", ["Luxembourg"], [(49.4...50.2, 5.7...6.6)]),
        .init("malta", ["Malta"], [(35.7...36.1, 14.1...14.6)]),
        .init("moldova", ["Moldova", "Republic of Moldova"], [(45.4...48.5, 26.6...30.2)]),
        .init("montenegro", ["Montenegro"], [(41.8...43.6, 18.4...20.4)]),
        .init("netherlands", ["The Netherlands", "Netherlands"], [(50.7...53.6, 3.3...7.3)]),
        .init("republic-of-north-macedonia", ["North Macedonia", "Macedonia"], [(40.8...42.4, 20.4...23.1)]),
        .init("poland", ["Poland"], [(49.0...54.9, 14.1...24.2)]),
        .init("portugal", ["Portugal"], [(36.9...42.2, -9.6 ... -6.1), (36.9...39.8, -31.3 ... -24.9), (32.3...33.2, -17.3 ... -16.2)]),
        .init("romania", ["Romania"], [(43.6...48.3, 20.2...29.8)]),
        .init("serbia", ["Serbia"], [(42.2...46.2, 18.8...23.1)]),
        .init("slovakia", ["Slovakia"], [(47.7...49.7, 16.8...22.6)]),
        .init("slovenia", ["Slovenia"], [(45.4...46.9, 13.3...16.6)]),
        .init("spain", ["Spain"], [(35.9...43.9, -9.4...4.4), (27.6...29.5, -18.2 ... -13.3)]),
        .init("sweden", ["Sweden"], [(55.3...69.1, 10.9...24.2)]),
        .init("switzerland", ["Switzerland"], [(45.8...47.9, 5.9...10.5)]),
        .init("ukraine", ["Ukraine"], [(44.3...52.4, 22.1...40.3)]),
        .init("united-kingdom", ["United Kingdom"], [(49.8...60.9, -8.7...1.8)]),
    ]
}
