import AlmanacModels
import AlmanacViews
import AlmanacWire
import ArgumentParser
import FoundationEssentials

/// `almanac backup list`: the backups, newest first.
struct BackupList: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "Lists the backups of the library, newest first.")

    @OptionGroup var output: OutputOptions<BackupFields>
    var common: CommonOptions { output.common }

    func run() async throws {
        try await withClient(common) { client in
            let backups = try await client.backups().map { BackupViewData($0, utcOffset: localUTCOffset(at: $0.takenAt)) }
            let rendering = output.rendering()
            if common.json {
                Terminal().line(Rendering.json(JSONValue.array(backups.map(\.json))))
            } else if let template = rendering.template {
                for backup in backups {
                    Terminal().line(template.render(["name": backup.name, "path": backup.path, "taken": backup.taken, "size": backup.size, "reason": backup.reason]))
                }
            } else if backups.isEmpty {
                Terminal().line("No backups yet. Take one with `almanac backup now`; almanacd takes one a day by itself.")
            } else {
                for line in rendering.render(.backups(backups)) { Terminal().line(line) }
            }
        }
    }
}
