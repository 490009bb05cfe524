import AlmanacCore
import AlmanacModels
import TestHarness
import Testing

/// User names and passwords in feed URLs: read, added, and kept out of sight.
@Suite(.onTestThreads, .timeLimit(.hang))
struct FeedCredentialsTests {
    @Test func readsAndRedacts() throws {
        let url = "https://alice:s3cret%20%C3%A9%3Ax@feeds.example:8443/p/feed.xml?k=a@b#x"
        let credentials = try #require(FeedCredentials.of(url))
        #expect(credentials.user == "alice" && credentials.password == "s3cret é:x")
        #expect(FeedCredentials.redacted(url) == "https://alice@feeds.example:8443/p/feed.xml?k=a@b#x")
        #expect(FeedCredentials.removed(from: url) == "https://feeds.example:8443/p/feed.xml?k=a@b#x")
        // An @ after the authority is no user info; no user info, nothing changes.
        for plain in ["https://feeds.example/p?mail=a@b", "https://feeds.example", "not a url", "mailto:a@b"] {
            #expect(FeedCredentials.of(plain) == nil)
            #expect(FeedCredentials.redacted(plain) == plain && FeedCredentials.removed(from: plain) == plain)
        }
        // A user name alone stays; an empty one is none.
        #expect(FeedCredentials.of("https://bob@h/f")?.password == "")
        #expect(FeedCredentials.of("https://:pw@h/f") == nil)
        #expect(FeedCredentials.redacted("https://:pw@h/f") == "https://@h/f")
    }

    @Test func addsPercentEncodedAndReplacesWhatWasThere() throws {
        let url = FeedCredentials.adding(user: "a@b.c", password: "p:w/ d%", to: "https://old:x@h.example/feed")
        #expect(url == "https://a%40b.c:p%3Aw%2F%20d%25@h.example/feed")
        let back = try #require(FeedCredentials.of(url))
        #expect(back.user == "a@b.c" && back.password == "p:w/ d%")
        #expect(FeedCredentials.adding(user: "u", password: "p", to: "no scheme") == "no scheme")
    }

    @Test func aPasswordGoesOnlyToTheSameSchemeHostAndPort() {
        #expect(FeedCredentials.sameOrigin("https://a:b@Host.example/feed", "https://host.example:443/next?p=2"))
        #expect(FeedCredentials.sameOrigin("http://127.0.0.1:8080/a", "http://127.0.0.1:8080/b"))
        #expect(!FeedCredentials.sameOrigin("https://host.example/feed", "http://host.example/feed"), "not from https to http")
        #expect(!FeedCredentials.sameOrigin("http://127.0.0.1:8080/a", "http://127.0.0.1:8081/a"), "not to another port")
        #expect(!FeedCredentials.sameOrigin("http://host.example/a", "http://other.example/a"))
        #expect(!FeedCredentials.sameOrigin("http://host.example/a", "http://host.example.evil/a"))
        #expect(!FeedCredentials.sameOrigin("http://host.example@evil.example/a", "http://host.example/a"), "user info is not the host")
        #expect(FeedCredentials.sameOrigin("http://[::1]:8080/a", "http://[::1]:8080/b") && !FeedCredentials.sameOrigin("http://[::1]:8080/a", "http://[::1]/b"))
        #expect(!FeedCredentials.sameOrigin("ftp://host/a", "ftp://host/a"), "http and https only")
    }

    @Test func urlsInTextLoseTheirPasswords() {
        #expect(FeedCredentials.redactingURLs(in: "http://alice:s3cret@host:8080/private.xml") == "http://alice@host:8080/private.xml")
        #expect(FeedCredentials.redactingURLs(in: "see https://a:b@x/ and http://c:d@y?q=1 now") == "see https://a@x/ and http://c@y?q=1 now")
        #expect(FeedCredentials.redactingURLs(in: "Mail me@home: http://host/a") == "Mail me@home: http://host/a")
        #expect(FeedCredentials.redactingURLs(in: "plain title") == "plain title")
    }
}
