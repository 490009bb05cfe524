import AlmanacWire
import ArgumentParser

/// `almanac backup now`: a backup of the library, taken now; prints its path.
struct BackupNow: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "now",
        abstract: "Takes a backup of the library now and prints its path.",
        discussion: "The daemon goes on serving meanwhile: what it acknowledged before is in the backup."
    )

    @OptionGroup var common: CommonOptions

    func run() async throws {
        try await withClient(common) { client in
            let path = try await client.backUp()
            if common.json {
                Terminal().line(Rendering.json(["path": path] as Rendering.JSONObject))
            } else {
                Terminal().textLine(path)
            }
        }
    }
}
