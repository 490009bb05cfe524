public import AlmanacModels
public import DBus

// The models whose own `Codable` is their shape on the bus: the keys are their properties',
// a time is whole Unix seconds (`WireCoding`), and where the bus lists the keys sorted
// (docs/bus-api.md), the model says `SortedKeys`.

/// `europeanAQI`, `usAQI`, `pm2_5`, `pm10`, `ozone` (µg/m³) when known, `observedAt x`,
/// `fetchedAt x`, and `pollen a{sv}` when any plant is known (a reading's `withoutEmptyPollen`).
extension AirQuality: WireShaped, SortedKeys { public typealias Wire = AirQuality }
/// Grains/m³ of `alder`, `birch`, `grass`, `mugwort`, `olive`, `ragweed`, those known.
extension Pollen: WireShaped, SortedKeys { public typealias Wire = Pollen }
/// A nowcast's fifteen minutes: `start x`, `precipitation d` (mm).
extension NowcastStep: WireShaped, DictionaryTyped { public typealias Wire = NowcastStep }
/// An official alert (docs/bus-api.md, "Alerts"): `severity` is `minor`, `moderate`,
/// `severe`, `extreme` or `unknown`; `onset x`, `expires x` when known.
extension WeatherAlert: WireShaped, SortedKeys, DictionaryTyped { public typealias Wire = WeatherAlert }
/// A place's alerts: `alerts aa{sv}`, `stale b`, `error s` while their fetch fails, and
/// `fetchedAt x` when their source answered. In the state's `alerts a{sv}`, a variant.
extension PlaceAlerts: WireShaped, SortedKeys { public typealias Wire = PlaceAlerts }
/// A person of a feed or an episode: `name`, and `role`, `href`, `image` when given.
extension FeedPerson: WireShaped, SortedKeys, DictionaryTyped { public typealias Wire = FeedPerson }
/// `url`, `text`.
extension FeedFunding: WireShaped, SortedKeys, DictionaryTyped { public typealias Wire = FeedFunding }
/// `url`, and `length x`, `type` when given.
extension FeedEnclosure: WireShaped, SortedKeys, DictionaryTyped { public typealias Wire = FeedEnclosure }
/// A transcript a feed names: `url`, and `type`, `language` when given.
extension FeedTranscript: WireShaped, SortedKeys, DictionaryTyped { public typealias Wire = FeedTranscript }
/// `Login`'s answer: `server`, `user`, `device`, `caption`, `flavour`, in that order. Never the password.
extension SyncAccount: WireShaped { public typealias Wire = SyncAccount }
/// A weather view's options: `{"location": <s>}`, or none for every place.
extension WeatherViewOptions: WireShaped { public typealias Wire = WeatherViewOptions }
/// A podcasts view's options: `{"podcast": <s>}` (its id), or none for all of them.
extension PodcastsViewOptions: WireShaped { public typealias Wire = PodcastsViewOptions }
