import AlmanacModels
import AlmanacWire
import ArgumentParser
import DBus
import FoundationEssentials
import Glibc

/// `almanac restore latest|NAME|FILE`: the library as a backup has it, without restarting almanacd.
struct RestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Restores the library from a backup, without restarting almanacd.",
        discussion: """
            BACKUP is `latest`, a name `almanac backup list` shows, or a file (a backup from \
            another machine), which almanac hands to almanacd: it keeps a copy in its backups \
            folder and restores that. The library in use is kept first as a backup of its own, \
            so restoring that one undoes the restore. Every view (`almanac watch`) shows the \
            restored library; downloads whose files are not on this machine show as not \
            downloaded.
            """
    )

    @ArgumentParser.Argument(help: ArgumentHelp("latest, a backup's name, or a backup file.", valueName: "backup"))
    var backup: String

    @OptionGroup var common: CommonOptions

    func run() async throws {
        try await withClient(common) { client in
            let (restored, kept) = try await client.restore(try await name(asking: client))
            if common.json {
                Terminal().line(Rendering.json(["restored": restored, "kept": kept] as Rendering.JSONObject))
            } else {
                let keptName = kept.split(separator: "/").last.map(String.init) ?? kept
                Terminal().textLine("Restored the library from \(restored).")
                Terminal().textLine("The library it replaced is kept as \(keptName): `almanac restore \(keptName)` brings it back.")
            }
        }
    }

    /// What to ask almanacd to restore: `latest` or a backup of its own as given; any other
    /// file is handed over first (`ImportBackup`), and its copy restored.
    private func name(asking client: AlmanacClient) async throws -> String {
        if backup == "latest" { return backup }
        let backups = try await client.backups()
        if backups.contains(where: { $0.name == backup }) { return backup }
        let given = URL(fileURLWithPath: backup).standardizedFileURL.path
        if let own = backups.first(where: { $0.path == given || URL(fileURLWithPath: $0.path).resolvingSymlinksInPath().path == URL(fileURLWithPath: given).resolvingSymlinksInPath().path }) {
            return own.name
        }
        guard !backup.hasPrefix("almanac-") || backup.contains("/") || access(backup, F_OK) == 0 else {
            throw CLIError.refused("there is no backup named \(backup)", "`almanac backup list` lists them; `almanac restore latest` restores the newest")
        }
        guard let file = InputFile.descriptor(backup) else {
            throw CLIError(message: "cannot read '\(backup)': \(String(cString: strerror(errno)))",
                           hint: "give latest, a name `almanac backup list` shows, or the path of a backup file", exit: 66)
        }
        return try await client.importBackup(file)
    }
}
