import AlmanacCore
import AlmanacModels
import TestHarness
import Testing

/// Which command `almanac episode play` runs, from the `player` setting and what is installed.
@Suite(.onTestThreads, .timeLimit(.hang))
struct PlayerCommandTests {
    /// Programs "installed" for these tests: name → path.
    func find(_ installed: [String]) -> (String) -> String? {
        { name in installed.contains(name) || name.hasPrefix("/") ? (name.hasPrefix("/") ? name : "/usr/bin/\(name)") : nil }
    }

    @Test func wordsAreSplitAsAShellWould() throws {
        #expect(try PlayerCommand.words("mpv  --no-video\t--volume=50") == ["mpv", "--no-video", "--volume=50"])
        #expect(try PlayerCommand.words(#"vlc --meta-title "My \"best\" show" 'it''s' a\ b"#) == ["vlc", "--meta-title", #"My "best" show"#, "its", "a b"])
        #expect(try PlayerCommand.words(#"x "a\nb" """#) == ["x", #"a\nb"#, ""])
        #expect(try PlayerCommand.words("") == [])
        #expect(throws: SubmissionError.self) { try PlayerCommand.words("mpv 'open") }
        #expect(throws: SubmissionError.self) { try PlayerCommand.words("mpv trailing\\") }
    }

    @Test func automaticTakesTheFirstInstalledAndTellsItWhereToStart() throws {
        let mpv = try #require(try PlayerCommand.make(setting: "", media: "/m.mp3", start: 754.9, find: find(["vlc", "mpv", "xdg-open"])))
        #expect(mpv.arguments == ["/usr/bin/mpv", "--start=754", "/m.mp3"])
        #expect(mpv.startsAtPosition)
        let vlc = try #require(try PlayerCommand.make(setting: "", media: "u", start: 60, find: find(["vlc", "xdg-open"])))
        #expect(vlc.arguments == ["/usr/bin/vlc", "--start-time=60", "u"])
        let open = try #require(try PlayerCommand.make(setting: "", media: "u", start: 60, find: find(["xdg-open"])))
        #expect(open.arguments == ["/usr/bin/xdg-open", "u"] && !open.startsAtPosition)
        // From the start, nobody needs telling.
        let fromStart = try #require(try PlayerCommand.make(setting: "", media: "u", start: 0.4, find: find(["xdg-open"])))
        #expect(fromStart.startsAtPosition)
        #expect(try PlayerCommand.make(setting: "", media: "u", start: 0, find: find([])) == nil)
        #expect(try PlayerCommand.make(setting: "", media: "u", start: .nan, find: find(["mpv"]))?.arguments == ["/usr/bin/mpv", "u"])
    }

    /// A position no episode has (kept by an older daemon, say) starts from the beginning
    /// rather than trapping when it is made a whole number.
    @Test func aPositionPastAnyEpisodeStartsFromTheBeginning() throws {
        for start in [1e308, .infinity, 1e19, 2_592_001] {
            #expect(try PlayerCommand.make(setting: "", media: "u", start: start, find: find(["mpv"]))?.arguments == ["/usr/bin/mpv", "u"], "\(start)")
        }
    }

    @Test func theSettingIsTheCommandWithItsPlaceholders() throws {
        let placed = try #require(try PlayerCommand.make(setting: "celluloid --at={start} {media} --x", media: "/a b.mp3", start: 90, find: find(["celluloid"])))
        #expect(placed.arguments == ["/usr/bin/celluloid", "--at=90", "/a b.mp3", "--x"])
        #expect(placed.startsAtPosition && placed.name == "celluloid")
        let unknown = try #require(try PlayerCommand.make(setting: "celluloid", media: "m", start: 90, find: find(["celluloid"])))
        #expect(unknown.arguments == ["/usr/bin/celluloid", "m"] && !unknown.startsAtPosition)
        let byPath = try #require(try PlayerCommand.make(setting: "/opt/mpv/mpv --fs", media: "m", start: 5, find: find([])))
        #expect(byPath.arguments == ["/opt/mpv/mpv", "--fs", "--start=5", "m"] && byPath.name == "mpv")
        #expect(try PlayerCommand.make(setting: "mplayer", media: "m", start: 5, find: find(["mplayer"]))?.arguments == ["/usr/bin/mplayer", "-ss", "5", "m"])
        #expect(try PlayerCommand.make(setting: "mpv", media: "m", start: 5, find: find(["vlc"])) == nil)
    }

    @Test func aPlayerCommandIsCheckedBeforeItIsKept() throws {
        #expect(try PlayerCommand.checked("  mpv --no-video ") == "mpv --no-video")
        #expect(throws: SubmissionError.self) { try PlayerCommand.checked("mpv\n--evil") }
        #expect(throws: SubmissionError.self) { try PlayerCommand.checked("mpv \u{1B}]0;x") }
        #expect(throws: SubmissionError.self) { try PlayerCommand.checked("mpv \"open") }
        #expect(throws: SubmissionError.self) { try PlayerCommand.checked(String(repeating: "x", count: 1_001)) }
    }

    @Test func onlyWebAddressesAreHandedToAPlayer() {
        for media in ["https://host/a.mp3", "HTTP://host/a.mp3?x=1"] { #expect(PlayerCommand.isWebAddress(media), "\(media)") }
        for media in ["file:///etc/passwd", "smb://host/share/a.mp3", "javascript:alert(1)", "/etc/passwd", "--script=x.lua", "http://host/\u{1B}[2J", ""] {
            #expect(!PlayerCommand.isWebAddress(media), "\(media)")
        }
    }
}
