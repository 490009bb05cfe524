@testable import AlmanacServices
import Foundation
import TestHarness
import Testing

/// The proxy of a request, chosen from the environment as libcurl chooses (`ProxyChoice`):
/// which variable for which scheme, and which hosts `no_proxy` sends direct.
@Suite(.onTestThreads, .timeLimit(.hang)) struct ProxyChoiceTests {
    func proxy(_ url: String, _ environment: [String: String]) -> String? {
        ProxyChoice(environment: environment).proxy(for: URL(string: url)!)
    }

    @Test func eachSchemeHasItsVariableThenAllProxy() {
        #expect(proxy("http://example.com/feed", ["http_proxy": "http://127.0.0.1:3128"]) == "http://127.0.0.1:3128")
        // libcurl never reads HTTP_PROXY (a CGI request's `Proxy:` header sets it).
        #expect(proxy("http://example.com/feed", ["HTTP_PROXY": "http://127.0.0.1:3128"]) == nil)
        #expect(proxy("https://example.com/feed", ["HTTPS_PROXY": "http://10.0.0.1:8080"]) == "http://10.0.0.1:8080")
        #expect(proxy("https://example.com/feed", ["https_proxy": "http://a:1", "HTTPS_PROXY": "http://b:2"]) == "http://a:1")
        #expect(proxy("https://example.com/feed", ["http_proxy": "http://a:1"]) == nil)
        #expect(proxy("https://example.com/feed", ["ALL_PROXY": "socks5h://127.0.0.1:1080"]) == "socks5h://127.0.0.1:1080")
        #expect(proxy("http://example.com/feed", ["http_proxy": "", "all_proxy": "http://c:3"]) == "http://c:3", "an empty variable is none")
        #expect(proxy("http://example.com/feed", [:]) == nil)
    }

    @Test(arguments: [
        ("*", "anything.example", true), ("example.com", "example.com", true), ("example.com", "www.EXAMPLE.com", true),
        ("example.com", "nonexample.com", false), (".example.com", "example.com", true), ("example.com.", "www.example.com.", true),
        ("a.test, example.com", "example.com", true), ("a.test,,example.com", "example.com", true), ("a.test b.test", "b.test", false),
        ("localhost,127.0.0.1", "127.0.0.1", true), ("10.0.0.0/8", "10.1.2.3", true), ("10.0.0.0/8", "11.1.2.3", false),
        ("192.168.1.5", "192.168.1.50", false), ("fd00::/8", "[fd12::1]", true), ("fd00::/8", "fe80::1", false),
        ("::1", "::1", true), ("", "example.com", false), ("*.example.com", "www.example.com", false),
    ])
    func noProxyNamesHostsAndNetworks(list: String, host: String, direct: Bool) {
        #expect(ProxyChoice.bypasses(host, noProxy: list) == direct, "\(list) for \(host)")
    }

    @Test func noProxyTakesPrecedenceOverEveryVariable() {
        let environment = ["http_proxy": "http://127.0.0.1:3128", "all_proxy": "http://127.0.0.1:3128", "no_proxy": "203.0.113.0/24"]
        #expect(proxy("http://203.0.113.2:8000/feed", environment) == nil)
        #expect(proxy("http://198.51.100.2/feed", environment) == "http://127.0.0.1:3128")
        #expect(proxy("http://example.com/feed", ["http_proxy": "http://p:1", "NO_PROXY": "example.com"]) == nil)
    }
}
