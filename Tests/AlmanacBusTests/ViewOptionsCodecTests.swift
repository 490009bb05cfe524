import AlmanacModels
import AlmanacWire
import DBus
import TestHarness
import Testing

/// A view's options are read once, from `AddView`'s or `SetOptions`' `a{sv}`, into a typed
/// value, with the refusals the bus API documents; and written back the same way.
@Suite(.onTestThreads, .timeLimit(.hang)) struct ViewOptionsCodecTests {
    @Test func optionsRoundTrip() throws {
        for options in [WeatherViewOptions(), WeatherViewOptions(location: "Berlin"), WeatherViewOptions(location: "52.52,13.41")] {
            #expect(try WeatherCodec.viewOptions(WireCoding.fields(options)) == options)
        }
        for options in [PodcastsViewOptions(), PodcastsViewOptions(podcast: "p-1a2b")] {
            #expect(try PodcastsCodec.viewOptions(WireCoding.fields(options)) == options)
        }
        #expect(try WireCoding.fields(WeatherViewOptions(location: "Oslo")) == ["location": .string("Oslo")])
        #expect(try WireCoding.fields(PodcastsViewOptions()) == [:])
        #expect(WeatherViewOptions().namesNothing && !PodcastsViewOptions(podcast: "p").namesNothing)
    }

    static func refusal(_ read: () throws -> some Any) throws -> String {
        let error = try #require(throws: BusError.self) { _ = try read() }
        #expect(error.name == .invalidArgs)
        return error.message
    }

    @Test func weatherOptionsAreRefusedAsBefore() throws {
        #expect(try Self.refusal { try WeatherCodec.viewOptions(["place": .string("Paris")]) } == "Unknown view option key 'place'; accepted: location.")
        #expect(try Self.refusal { try WeatherCodec.viewOptions(["podcast": .string("p")]) } == "Unknown view option key 'podcast'; accepted: location.")
        #expect(try Self.refusal { try WeatherCodec.viewOptions(["location": .int32(3)]) }.hasPrefix("'location' must be a string (s)"))
        let place = "The view option 'location' names a place, such as \"Berlin\" or \"52.52,13.41\": not blank, on one line."
        #expect(try Self.refusal { try WeatherCodec.viewOptions(["location": .string("   ")]) } == place)
        #expect(try Self.refusal { try WeatherCodec.viewOptions(["location": .string("Berlin\nParis")]) } == place)
        _ = try Self.refusal { try WeatherCodec.viewOptions(["location": .string("")]) }
    }

    @Test func podcastsOptionsTakeAnyIdButOnlyAPodcast() throws {
        #expect(try PodcastsCodec.viewOptions(["podcast": .string("not subscribed")]) == PodcastsViewOptions(podcast: "not subscribed"))
        #expect(try Self.refusal { try PodcastsCodec.viewOptions(["location": .string("Berlin")]) } == "Unknown view option key 'location'; accepted: podcast.")
        #expect(try Self.refusal { try PodcastsCodec.viewOptions(["podcast": .boolean(true)]) }.hasPrefix("'podcast' must be a string (s)"))
    }
}
