import AlmanacCore
import AlmanacModels
import TestHarness
import Testing

/// What a feed says cannot choose where a download goes.
@Suite(.onTestThreads, .timeLimit(.hang)) struct SafeFileNameTests {
    @Test(arguments: [
        ("../../etc/passwd", "etc-passwd"),
        ("/absolute/path", "absolute-path"),
        (".bashrc", "bashrc"),
        ("..", "fallback"),
        ("", "fallback"),
        ("   ", "fallback"),
        ("...  ", "fallback"),
        ("CON", "_CON"),
        ("nul.txt", "_nul.txt"),
        ("COM1", "_COM1"),
        ("Console", "Console"),
        ("a\u{0}b\nc\td", "a b c d"),
        ("evil\u{202E}3pm.exe", "evil3pm.exe"),
        ("Title: The \"Best\" <Episode>?", "Title- The -Best- -Episode--"),
        ("Ends with dots...", "Ends with dots"),
        ("Ünïcödé 🎙️ episode", "Ünïcödé 🎙️ episode"),
    ])
    func componentsAreSafe(raw: String, expected: String) {
        #expect(SafeFileName.component(raw, fallback: "fallback") == expected)
    }

    @Test func longNamesAreCutOnACharacterBoundary() {
        let name = SafeFileName.component(String(repeating: "é", count: 300), fallback: "x")
        #expect(name.utf8.count <= SafeFileName.maximumBytes)
        #expect(name.allSatisfy { $0 == "é" })
    }

    @Test func aHostileFallbackIsMadeSafeToo() {
        #expect(SafeFileName.component("", fallback: "../x") == "x")
        #expect(SafeFileName.component("", fallback: "") == "file")
    }

    @Test func extensionsComeFromTheServerTheURLOrTheType() {
        #expect(SafeFileName.fileExtension(contentDisposition: "attachment; filename=\"show.M4A\"", url: "https://x/a.mp3", mimeType: nil) == "m4a")
        #expect(SafeFileName.fileExtension(contentDisposition: "attachment; filename*=UTF-8''%C3%A9pisode.ogg", url: "https://x/a", mimeType: nil) == "ogg")
        #expect(SafeFileName.fileExtension(contentDisposition: "attachment; filename=\"../../.bashrc\"", url: "https://x/a.mp3?x=1.exe", mimeType: nil) == "mp3")
        #expect(SafeFileName.fileExtension(contentDisposition: nil, url: "https://x/a", mimeType: "audio/x-m4a; charset=binary") == "m4a")
        #expect(SafeFileName.fileExtension(contentDisposition: nil, url: "https://host.example/", mimeType: "text/html") == nil)
        #expect(SafeFileName.fileExtension(contentDisposition: nil, url: "https://x/a.mp3/../b.sh%00", mimeType: nil) == nil)
        #expect(SafeFileName.fileName(title: "Episode 1", fallback: "e", extension: "mp3") == "Episode 1.mp3")
        #expect(SafeFileName.fileName(title: "Episode 1.MP3", fallback: "e", extension: "mp3") == "Episode 1.MP3")
        #expect(SafeFileName.fileName(title: "Episode 1", fallback: "e", extension: "../sh") == "Episode 1.bin")
    }

    /// Only audio and video extensions: a name, URL or type of another kind is passed over,
    /// and a file of no media kind is `.bin`, whatever its title ends in.
    @Test func onlyMediaExtensionsAreGiven() {
        #expect(SafeFileName.fileExtension(contentDisposition: "attachment; filename=\"tool.jar\"", url: "https://x/a.mp3", mimeType: nil) == "mp3")
        #expect(SafeFileName.fileExtension(contentDisposition: nil, url: "https://x/setup.exe", mimeType: "audio/ogg") == "ogg")
        #expect(SafeFileName.fileExtension(contentDisposition: nil, url: "https://x/page.html", mimeType: "text/html") == nil)
        #expect(SafeFileName.fileExtension(contentDisposition: nil, url: "https://x/a.jar", mimeType: "application/java-archive") == nil)
        #expect(SafeFileName.fileExtension(contentDisposition: nil, url: "https://x/a", mimeType: "application/pdf") == nil)
        #expect(SafeFileName.fileExtension(contentDisposition: nil, url: "https://x/a", mimeType: "Video/MP4; codecs=avc1") == "mp4")
        #expect(SafeFileName.fileName(title: "Setup.exe", fallback: "e", extension: nil) == "Setup.exe.bin")
        #expect(SafeFileName.fileName(title: "Page", fallback: "e", extension: "html") == "Page.bin")
        #expect(SafeFileName.fileName(title: "Episode 2.m4b", fallback: "e", extension: nil) == "Episode 2.m4b")
        #expect(MediaFile.isMedia(name: "/data/Show/Episode.OGG") && !MediaFile.isMedia(name: "/data/Show/Episode.jar") && !MediaFile.isMedia(name: ".mp3"))
        #expect(PlayerCommand.opensAsMedia("/data/Show/Episode.mp3") && PlayerCommand.opensAsMedia("https://x/setup.jar"))
        #expect(!PlayerCommand.opensAsMedia("/data/Show/Episode.bin") && !PlayerCommand.opensAsMedia("Episode.mp3") && !PlayerCommand.opensAsMedia("file:///x.mp3"))
    }

    @Test func alternativesKeepTheExtension() {
        #expect(SafeFileName.alternative("Title.mp3", attempt: 2) == "Title (2).mp3")
        #expect(SafeFileName.alternative("Title", attempt: 3) == "Title (3)")
    }

    @Test func fileURLsRoundTrip() {
        let path = "/home/me/Podcasts/Ünï cödé #1?.mp3"
        #expect(FileURL.path(of: FileURL.url(of: path)) == path)
        #expect(FileURL.path(of: "file:///a%20b/c.mp3") == "/a b/c.mp3")
        #expect(FileURL.path(of: "file://localhost/x") == "/x")
        #expect(FileURL.path(of: "https://example.com/a.mp3") == nil)
        #expect(FileURL.path(of: "file:///a%00b") == nil)
        #expect(FileURL.path(of: "file:///a%zz") == nil)
    }
}
