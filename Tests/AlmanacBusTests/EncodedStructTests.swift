@testable import AlmanacWire
import AlmanacModels
import DBus
import Foundation
import TestHarness
import Testing

/// The `a{sv}`s `ValueEncoder` writes for the codecs are the bytes the hand-written builders wrote.
@Suite(.onTestThreads, .timeLimit(.hang)) struct EncodedStructTests {
    static func dictionary(_ pairs: [(String, Value)]) -> Value {
        .dictionary(key: .string, value: .variant, pairs.map { .init(.string($0.0), .variant($0.1)) })
    }

    @Test func airQualityKeepsItsBytes() throws {
        let air = AirQuality(europeanAQI: 21, pm2_5: 4.5, observedAt: Date(timeIntervalSince1970: 1_800_000_000.6),
                             fetchedAt: Date(timeIntervalSince1970: 1_800_000_100))
        #expect(try WireCoding.value(air) == Self.dictionary([("europeanAQI", .double(21)), ("fetchedAt", .int64(1_800_000_100)),
                                                            ("observedAt", .int64(1_800_000_001)), ("pm2_5", .double(4.5))]))
        let full = AirQuality(europeanAQI: 1, usAQI: 2, pm2_5: 3, pm10: 4, ozone: 5, observedAt: Date(timeIntervalSince1970: 0), fetchedAt: Date(timeIntervalSince1970: -1))
        #expect(try WireCoding.value(full) == Self.dictionary([("europeanAQI", .double(1)), ("fetchedAt", .int64(-1)), ("observedAt", .int64(0)),
                                                             ("ozone", .double(5)), ("pm10", .double(4)), ("pm2_5", .double(3)), ("usAQI", .double(2))]))
        #expect(try WireCoding.decode(AirQuality.self, from: WireCoding.value(full)) == full)
    }

    @Test func aPlaceMatchKeepsItsBytes() throws {
        let match = PlaceMatch(id: 4_250_542, name: "Springfield", region: "Illinois", country: "United States", countryCode: "US",
                               latitude: 39.8, longitude: -89.64, population: 116_250, timezone: "America/Chicago")
        #expect(try WireCoding.value(match) == Self.dictionary([
            ("country", .string("United States")), ("countryCode", .string("US")), ("displayName", .string("Springfield, Illinois, United States")),
            ("id", .int64(4_250_542)), ("latitude", .double(39.8)), ("longitude", .double(-89.64)), ("name", .string("Springfield")),
            ("population", .int64(116_250)), ("region", .string("Illinois")), ("timezone", .string("America/Chicago")),
        ]))
        let bare = PlaceMatch(id: nil, name: "Nowhere", region: nil, country: nil, countryCode: nil, latitude: 0, longitude: 0)
        #expect(try WireCoding.value(bare) == Self.dictionary([("displayName", .string("Nowhere")), ("latitude", .double(0)),
                                                             ("longitude", .double(0)), ("name", .string("Nowhere"))]))
        #expect(try WireCoding.decode(PlaceMatch.self, from: WireCoding.value(match)) == match)
    }
}

extension EncodedStructTests {
    @Test func aPersonAndASyncAccountKeepTheirBytes() throws {
        #expect(try WireCoding.value(FeedPerson(name: "Ada", role: "host", href: nil, image: "https://example.org/a.png"))
                == Self.dictionary([("image", .string("https://example.org/a.png")), ("name", .string("Ada")), ("role", .string("host"))]))
        let account = SyncAccount(server: "https://gpodder.net", user: "ada", device: "almanac", caption: "Almanac", flavour: .nextcloud)
        #expect(try WireCoding.value(account) == Self.dictionary([("server", .string("https://gpodder.net")), ("user", .string("ada")),
                                                             ("device", .string("almanac")), ("caption", .string("Almanac")), ("flavour", .string("nextcloud"))]))
    }
}
