import TestHarness
import Testing

/// The CLI is a client of the daemon: it links the wire module (proxies, contract, codecs)
/// and the models, never the daemon's own modules (docs/architecture.md, "Modules").
@Suite(.onTestThreads, .timeLimit(.hang)) struct CLILayerTests {
    /// The modules only the daemon links: the bus server, the documents and their rules, the
    /// demo providers and the services (HTTP, SQLite).
    static let daemonModules = ["AlmanacBus", "AlmanacCore", "AlmanacDemo", "AlmanacServices"]

    @Test func theCLILinksNoSymbolOfTheDaemonsModules() async throws {
        // Every symbol of the built binary, demangled: a Swift symbol names its module
        // (`AlmanacBus.DocumentObject…`), also where one module's code uses another's type.
        let listing = try await Tool.runDetached("sh", ["-c", "nm \"$1\" | swift-demangle", "sh", Binaries.almanac], timeout: 300)
        let symbols = listing.output.split(separator: "\n")
        #expect(symbols.contains { $0.contains("DBus.Connection") }, "nm listed the CLI's Swift symbols: \(listing.errorOutput)")
        for module in Self.daemonModules {
            let found = symbols.filter { $0.contains("\(module).") }
            let count = found.count
            #expect(count == 0, "almanac links \(found.count) symbols of \(module), such as:\n\(found.prefix(5).joined(separator: "\n"))")
        }
    }
}
