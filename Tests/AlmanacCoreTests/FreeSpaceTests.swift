import AlmanacCore
import AlmanacModels
import Foundation
import TestHarness
import Testing

/// `FreeSpace.refusal`: a download must not leave the disk fuller than the threshold.
@Suite(.onTestThreads, .timeLimit(.hang)) struct FreeSpaceTests {
    let disk = FreeSpace(available: 5 << 30, mountPoint: "/home")

    @Test func aDownloadStartsOnlyWhenItLeavesTheThresholdFree() throws {
        #expect(disk.refusal(needed: 0, minimum: 1 << 30, folder: "/home/u/a") == nil)
        #expect(disk.refusal(needed: 4 << 30, minimum: 1 << 30, folder: "/home/u/a") == nil)
        let message = try #require(disk.refusal(needed: (4 << 30) + 1, minimum: 1 << 30, folder: "/home/u/a"))
        #expect(message.contains("the disk at /home (holding /home/u/a) has 5.0 GiB free"), "\(message)")
        #expect(message.contains("less than the 1.0 GiB Almanac keeps free"), "\(message)")
        #expect(message.contains("almanac settings set minimum-free-space"), "\(message)")
        #expect(disk.refusal(needed: 0, minimum: 6 << 30, folder: "/home/u/a") != nil)
        #expect(disk.refusal(needed: .max, minimum: 1, folder: "/home/u/a") != nil, "no overflow")
        #expect(disk.refusal(needed: .max, minimum: 0, folder: "/home/u/a") == nil, "0: no check")
    }

    @Test(arguments: [(UInt64(0), "0 B"), (1023, "1023 B"), (1024, "1.0 KiB"), (1536, "1.5 KiB"), (1 << 30, "1.0 GiB"), (812 << 20, "812.0 MiB"), (1 << 50, "1.0 PiB")])
    func bytesAreSaidAsDfSaysThem(bytes: UInt64, words: String) {
        #expect(FreeSpace.bytes(bytes) == words)
    }
}
