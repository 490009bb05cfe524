import AlmanacModels
import AlmanacViews
import Foundation
import TestHarness
import Testing

/// What `almanac backup list` prints, from the values alone.
@Suite(.onTestThreads, .timeLimit(.hang)) struct BackupViewDataTests {
    static let backup = LibraryBackup(name: "almanac-20270115-080000-before-migration-12.sqlite", path: "/s/backups/almanac-20270115-080000-before-migration-12.sqlite",
                                      takenAt: Date(timeIntervalSince1970: 1_800_000_000), bytes: 1_258_291, reason: "before-migration-12")

    @Test func aBackupShowsItsLocalTimeSizeAndWhy() {
        let view = BackupViewData(Self.backup, utcOffset: 3_600)
        #expect(view.taken == "2027-01-15 09:00" && view.size == "1.2 MiB" && view.reason == "before migration 12")
        #expect(view.json["takenAt"] == .string("2027-01-15T09:00:00+01:00") && view.json["takenAtUnix"] == .integer(1_800_000_000))
        #expect(view.json["reason"] == .string("before-migration-12") && view.json["bytes"] == .integer(1_258_291) && view.json["path"] == .string(Self.backup.path))
    }

    /// Too narrow for every column, "why" goes first: the name, which `restore` takes, stays whole.
    @Test func theNameStaysWholeInANarrowTable() {
        let table = Table.backups([BackupViewData(Self.backup, utcOffset: 0)])
        let wide = table.lines(width: 120).map(\.plain)
        #expect(wide[0].hasPrefix("Taken") && wide[0].contains("Why") && wide[1].contains("before migration 12") && wide[1].hasSuffix(Self.backup.name))
        let narrow = table.lines(width: 80).map(\.plain)
        #expect(!narrow[0].contains("Why") && narrow[1].hasSuffix(Self.backup.name), "\(narrow)")
    }
}
