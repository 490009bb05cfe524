public import AlmanacModels
public import DBus

/// The listening history as `GetListeningStats` carries it.
extension PodcastsCodec {
    /// Each total as `{day s, podcast s, title s, seconds d}`.
    public static func encode(_ totals: [ListeningTotal]) -> Value {
        .array(.dictionary(key: .string, value: .variant), totals.map { total in
            .stringVariantDictionary([
                "day": .string(total.day), "podcast": .string(total.podcastID),
                "title": .string(total.podcastTitle), "seconds": .double(total.seconds),
            ])
        })
    }

    /// The totals `encode` gives (an entry without a day, a podcast or its seconds is skipped).
    public static func decodeListening(_ items: [[String: Value]]) -> [ListeningTotal] {
        items.compactMap { fields in
            guard let day = fields["day"]?.stringValue, let podcast = fields["podcast"]?.stringValue,
                  case .double(let seconds)? = fields["seconds"]?.unwrapped, seconds.isFinite else { return nil }
            return ListeningTotal(day: day, podcastID: podcast, podcastTitle: fields["title"]?.stringValue ?? "", seconds: seconds)
        }
    }
}
