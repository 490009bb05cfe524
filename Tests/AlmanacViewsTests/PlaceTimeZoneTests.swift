@testable import AlmanacModels
import Foundation
import TestHarness
import Testing

/// `PlaceTimeZone` against Python's `zoneinfo` (the same system database): offsets on both
/// sides of daylight-saving changes, before and after the zone files' last transition (2037,
/// where the footer's POSIX rule takes over), in both hemispheres and at half hours.
@Suite(.onTestThreads, .timeLimit(.hang)) struct PlaceTimeZoneTests {
    @Test(arguments: [
        ("Europe/Berlin", 1774745999, 3600),  // 2026-03-29T00:59:59Z
        ("Europe/Berlin", 1774746000, 7200),  // 2026-03-29T01:00:00Z
        ("Europe/Berlin", 1792889999, 7200),  // 2026-10-25T00:59:59Z
        ("Europe/Berlin", 1792890000, 3600),  // 2026-10-25T01:00:00Z
        ("Europe/Berlin", 2531955599, 3600),  // 2050-03-27T00:59:59Z
        ("Europe/Berlin", 2531955600, 7200),  // 2050-03-27T01:00:00Z
        ("Europe/Berlin", 2550704400, 3600),  // 2050-10-30T01:00:00Z
        ("America/New_York", 1772953199, -18000),  // 2026-03-08T06:59:59Z
        ("America/New_York", 1772953200, -14400),  // 2026-03-08T07:00:00Z
        ("America/New_York", 2393474400, -18000),  // 2045-11-05T06:00:00Z
        ("Australia/Sydney", 1775318399, 39600),  // 2026-04-04T15:59:59Z
        ("Australia/Sydney", 1775318400, 36000),  // 2026-04-04T16:00:00Z
        ("Australia/Sydney", 2840140800, 39600),  // 2060-01-01T00:00:00Z
        ("Australia/Sydney", 2855865600, 36000),  // 2060-07-01T00:00:00Z
        ("Asia/Kolkata", 1780272000, 19800),  // 2026-06-01T00:00:00Z
        ("Asia/Tehran", 1780272000, 12600),  // 2026-06-01T00:00:00Z
        ("America/St_Johns", 2224713600, -9000),  // 2040-07-01T00:00:00Z
        ("Etc/UTC", 1780272000, 0),  // 2026-06-01T00:00:00Z
    ])
    func offsetsAreThoseOfTheSystemsDatabase(zone: String, time: Int, offset: Int) throws {
        let found = try #require(PlaceTimeZone.named(zone))
        #expect(found.utcOffset(at: Date(timeIntervalSince1970: Double(time))) == offset)
    }

    /// The POSIX rule alone (a "slim" zone file has little else): the last Sunday of March at
    /// 02:00 standard time to the last Sunday of October at 03:00 summer time.
    @Test func theFootersRuleGivesSummerTime() throws {
        let rule = try #require(PosixTimeZoneRule("CET-1CEST,M3.5.0,M10.5.0/3"))
        #expect(rule.utcOffset(at: 2_531_955_599) == 3600)
        #expect(rule.utcOffset(at: 2_531_955_600) == 7200)
        #expect(rule.utcOffset(at: 2_550_704_399) == 7200)
        #expect(rule.utcOffset(at: 2_550_704_400) == 3600)
        // The southern hemisphere: summer time across the new year.
        let sydney = try #require(PosixTimeZoneRule("AEST-10AEDT,M10.1.0,M4.1.0/3"))
        #expect(sydney.utcOffset(at: 2_840_140_800) == 39600)
        #expect(sydney.utcOffset(at: 2_855_865_600) == 36000)
        #expect(try #require(PosixTimeZoneRule("<+0330>-3:30")).utcOffset(at: 0) == 12600)
        #expect(try #require(PosixTimeZoneRule("EST5EDT,M3.2.0,M11.1.0")).utcOffset(at: 1_772_953_200) == -14400)
    }

    /// A zone file with no transitions and only its footer (zic -b slim of a rule).
    @Test func aSlimFileIsReadByItsRule() throws {
        var bytes: [UInt8] = []
        func header() {
            bytes += Array("TZif2".utf8) + [UInt8](repeating: 0, count: 15)
            for count in [0, 0, 0, 0, 1, 4] { bytes += [0, 0, 0, UInt8(count)] }
            bytes += [0, 0, 0x0E, 0x10, 0, 0] + Array("CET".utf8) + [0]
        }
        header()
        header()
        bytes += Array("\nCET-1CEST,M3.5.0,M10.5.0/3\n".utf8)
        let zone = try #require(PlaceTimeZone(identifier: "Test/Slim", tzif: bytes))
        #expect(zone.utcOffset(at: Date(timeIntervalSince1970: 1_774_745_999)) == 3600)
        #expect(zone.utcOffset(at: Date(timeIntervalSince1970: 1_774_746_000)) == 7200)
    }

    /// The name comes from a weather server: only a zone's name may name a file.
    @Test(arguments: ["../../etc/passwd", "/etc/passwd", "Europe/../../etc/passwd", "Europe/Berlin/", "", ".", "Europe//Berlin",
                      "Europe/Berlin\u{0}", "Europe/Berlin\n", String(repeating: "A", count: 65), "a/b/c/d", "Europe/Berlin "])
    func aNameThatIsNoZoneNamesNoFile(name: String) {
        #expect(!PlaceTimeZone.isZoneName(name))
        #expect(PlaceTimeZone.named(name) == nil)
    }

    @Test func anUnknownZoneIsNone() {
        #expect(PlaceTimeZone.named("Mars/Olympus_Mons") == nil)
    }

    /// Every prefix of a real file, and files whose counts run past their end, are refused or
    /// read, never trusted: no crash, no read past the end.
    @Test func brokenFilesAreRefused() throws {
        let berlin = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "/usr/share/zoneinfo/Europe/Berlin")))
        for length in stride(from: 0, to: berlin.count, by: 7) {
            _ = PlaceTimeZone(identifier: "x", tzif: Array(berlin.prefix(length)))
        }
        #expect(PlaceTimeZone(identifier: "x", tzif: Array(berlin.prefix(44))) == nil)
        var huge = berlin
        huge[32..<36] = [0, 0x01, 0x86, 0xA0]  // 100,000 transitions in a 2 KiB file
        #expect(PlaceTimeZone(identifier: "x", tzif: huge) == nil)
        var badIndex = Array(berlin)
        let timeCount = berlin[32..<36].reduce(0) { $0 << 8 | Int($1) }
        badIndex[44 + timeCount * 4] = 0xFF  // a transition's type that does not exist
        #expect(PlaceTimeZone(identifier: "x", tzif: badIndex) == nil)
        #expect(PlaceTimeZone(identifier: "x", tzif: [UInt8](repeating: 0x41, count: 100_000)) == nil)
    }
}
