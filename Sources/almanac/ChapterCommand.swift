import AlmanacModels
import AlmanacViews
import AlmanacWire
import ArgumentParser

/// `almanac chapter next|previous`: moves the player that has an episode open across its
/// chapters (`Player1.SeekChapter`).
struct ChapterCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chapter",
        abstract: "Moves the media player playing an episode to its next or previous chapter.",
        discussion: """
            almanac chapter next
            almanac chapter previous   back to the start of this chapter when more than
                                       3 seconds into it, else to the chapter before
            The chapters are those `almanac episode show ID` lists.
            """
    )

    enum Direction: String, ExpressibleByArgument, CaseIterable {
        case next, previous
    }

    @ArgumentParser.Argument(help: "next or previous.")
    var direction: Direction

    @OptionGroup var common: CommonOptions

    func run() async throws {
        try await withClient(common) { client in
            let chapter = try await client.seekChapter(direction == .next ? 1 : -1)
            let start = chapter.map { clockDuration($0.start) } ?? "?"
            if common.json {
                Terminal().line(Rendering.json(["start": chapter?.start ?? 0, "title": chapter?.title ?? ""] as Rendering.JSONObject))
            } else {
                Terminal().textLine("Chapter at \(start)" + (chapter?.title.isEmpty == false ? ": \(chapter!.title)" : "") + ".")
            }
        }
    }
}
