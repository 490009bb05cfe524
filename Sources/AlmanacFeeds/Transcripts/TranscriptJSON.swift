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

    /// What is kept of a transcript file while it is read: a segment's words are at most
    /// `TranscriptParser.maximumSegmentLength` characters, so a longer string is cut. No tree
    /// is built (`node()` is never called), so no item or value is kept that way.
    static let limits = JSONLimits(depth: 32, stringBytes: 4 * TranscriptParser.maximumSegmentLength, items: 0, values: 0)

    /// Read as it comes (`JSONReader`): only the segments' fields are kept, of at most
    /// `maximumSegments * 4` segments; anything else in the file is read past, so a file of
    /// `{"segments":[0,0,…]}` costs nothing but its own bytes.
    static func parse(_ data: Data) throws(TranscriptParseError) -> [TranscriptSegment] {
        var segments: [TranscriptSegment] = []
        var listed = false
        do {
            try JSONReader.read(data, limits: limits) { reader in
                guard try reader.kind() == .object else { throw notJSON(data) }
                try reader.members { reader, name in
                    guard name == "segments", !listed, try reader.kind() == .array else { return }
                    listed = true
                    var read = 0
                    try reader.elements { reader in
                        guard read < TranscriptParser.maximumSegments * 4, try reader.kind() == .object else { return }
                        read += 1
                        add(try Entry(&reader), to: &segments)
                    }
                }
            }
        } catch let error as TranscriptParseError {
            throw error
        } catch {
            throw notJSON(data)
        }
        guard listed else { throw notJSON(data) }
        guard !segments.isEmpty else { throw TranscriptParseError("It is not a Podcasting 2.0 JSON transcript: no segment has a startTime and a body.") }
        return segments.enumerated().sorted { ($0.element.start ?? 0, $0.offset) < ($1.element.start ?? 0, $1.offset) }.map(\.element)
    }

    private static func notJSON(_ data: Data) -> TranscriptParseError {
        let start = TranscriptParser.bounded(String(decoding: data.prefix(40), as: UTF8.self))
        return TranscriptParseError("It is not a Podcasting 2.0 JSON transcript: it is not a JSON object with a \"segments\" list\(start.isEmpty ? " (it is empty)" : " (it begins “\(start)”)").")
    }

    /// Adds `entry` to `segments`, joined to the last one when it is a word of the same phrase.
    private static func add(_ entry: Entry, to segments: inout [TranscriptSegment]) {
        guard let start = entry.startTime, start >= 0, let body = entry.body else { return }
        let text = TranscriptParser.bounded(body)
        guard !text.isEmpty else { return }
        let speaker = entry.speaker.map(TranscriptParser.bounded).flatMap { $0.isEmpty ? nil : String($0.prefix(200)) }
        let end = entry.endTime.flatMap { $0 >= start ? $0 : nil }
        if var last = segments.last, !text.contains(" "), last.speaker == speaker,
           !(last.text.last.map { ".?!".contains($0) } ?? true), last.text.count + text.count < phraseLength {
            last.text += " " + text
            last.end = end ?? last.end
            segments[segments.count - 1] = last
        } else {
            segments.append(TranscriptSegment(start: start, end: end, speaker: speaker, text: text))
        }
    }

    /// One entry of `segments`, every field optional and of any type: a wrong one reads as absent.
    private struct Entry {
        var speaker: String?
        var startTime: Double?
        var endTime: Double?
        var body: String?

        init(_ reader: inout JSONReader) throws {
            try reader.members { reader, name in
                switch name {
                case "speaker": speaker = try reader.stringIfAny()
                case "startTime": startTime = try Self.seconds(&reader)
                case "endTime": endTime = try Self.seconds(&reader)
                case "body": body = try reader.stringIfAny()
                default: break
                }
            }
        }

        /// A number of seconds written as a number or a string; `nil` for anything else.
        private static func seconds(_ reader: inout JSONReader) throws -> Double? {
            let value: Double? = switch try reader.kind() {
            case .number: try reader.number()
            case .string: Double(try reader.string().trimmed)
            default: nil
            }
            return value.flatMap { $0.isFinite ? $0 : nil }
        }
    }
}
