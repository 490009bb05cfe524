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

    /// What to ask almanacd to restore: `latest` or a name as given (almanacd says whether
    /// there is such a backup); a file — a path, or a name that is a file here — is one of
    /// almanacd's own backups when it is in its folder, else handed over first
    /// (`ImportBackup`) and its copy restored.
    private func name(asking client: AlmanacClient) async throws -> String {
        if backup == "latest" || (!backup.contains("/") && access(backup, F_OK) != 0) { return backup }
        let given = URL(fileURLWithPath: backup).resolvingSymlinksInPath().path
        if let own = try await client.backups().first(where: { URL(fileURLWithPath: $0.path).resolvingSymlinksInPath().path == given }) {
            return own.name
        }
        guard let file = InputFile.descriptor(backup) else {
            throw CLIError(message: "cannot read '\(backup)': \(String(cString: strerror(errno)))",
                           hint: "give latest, a name `almanac backup list` shows, or the path of a backup file", exit: 66)
        }
        return try await client.importBackup(file)
    }
}
