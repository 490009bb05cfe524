import AlmanacModels
import FoundationEssentials

/// A Podcasting 2.0 JSON transcript:
/// `{"version": "1.0.0", "segments": [{"speaker": "…", "startTime": 0.5, "endTime": 1.2, "body": "…"}]}`.
/// A segment without a usable `startTime` (a number, or a string holding one) or `body` is
/// skipped. Files that give one word per segment (many do) are joined into phrases: a
/// segment of one word joins the one before when the speaker is the same, that one does not
/// end a sentence, and the phrase stays under `phraseLength` characters — so a phrase said
/// across words is found by a search, at the time its first word is said.
enum TranscriptJSON {
    /// A joined phrase stops growing at this many characters.
    static let phraseLength = 200

    static func parse(_ data: Data) throws(TranscriptParseError) -> [TranscriptSegment] {
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: data)
        } catch {
            let start = TranscriptParser.bounded(String(decoding: data.prefix(40), as: UTF8.self))
            throw TranscriptParseError("It is not a Podcasting 2.0 JSON transcript: it is not a JSON object with a \"segments\" list\(start.isEmpty ? " (it is empty)" : " (it begins “\(start)”)").")
        }
        var segments: [TranscriptSegment] = []
        for entry in file.segments.prefix(TranscriptParser.maximumSegments * 4) {
            guard let start = entry.startTime?.value, start >= 0, let body = entry.body else { continue }
            let text = TranscriptParser.bounded(body)
            guard !text.isEmpty else { continue }
            let speaker = entry.speaker.map(TranscriptParser.bounded).flatMap { $0.isEmpty ? nil : String($0.prefix(200)) }
            let end = entry.endTime?.value.flatMap { $0 >= start ? $0 : nil }
            if var last = segments.last, !text.contains(" "), last.speaker == speaker,
               !(last.text.last.map { ".?!".contains($0) } ?? true), last.text.count + text.count < phraseLength {
                last.text += " " + text
                last.end = end ?? last.end
                segments[segments.count - 1] = last
            } else {
                segments.append(TranscriptSegment(start: start, end: end, speaker: speaker, text: text))
            }
        }
        guard !segments.isEmpty else { throw TranscriptParseError("It is not a Podcasting 2.0 JSON transcript: no segment has a startTime and a body.") }
        return segments.enumerated().sorted { ($0.element.start ?? 0, $0.offset) < ($1.element.start ?? 0, $1.offset) }.map(\.element)
    }

    private struct File: Decodable {
        let segments: [Segment]
    }

    /// Every field optional and of any type: a wrong one reads as absent.
    private struct Segment: Decodable {
        let speaker: String?
        let startTime: Number?
        let endTime: Number?
        let body: String?

        init(from decoder: any Decoder) throws {
            let container = try? decoder.container(keyedBy: Key.self)
            speaker = try? container?.decode(String.self, forKey: .speaker)
            startTime = try? container?.decode(Number.self, forKey: .startTime)
            endTime = try? container?.decode(Number.self, forKey: .endTime)
            body = try? container?.decode(String.self, forKey: .body)
        }

        private enum Key: String, CodingKey { case speaker, startTime, endTime, body }
    }

    /// A number of seconds written as a number or a string.
    private struct Number: Decodable {
        let value: Double?

        init(from decoder: any Decoder) throws {
            let single = try decoder.singleValueContainer()
            if let number = try? single.decode(Double.self) { value = number.isFinite ? number : nil }
            else if let text = try? single.decode(String.self) { value = Double(text.trimmed).flatMap { $0.isFinite ? $0 : nil } }
            else { value = nil }
        }
    }
}
