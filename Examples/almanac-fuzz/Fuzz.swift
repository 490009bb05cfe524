// libFuzzer targets for what Almanac reads from outside: feeds, OPML, Open-Meteo's JSON, the
// JSON of transcripts, chapters, alerts, the directory and the sync server, and D-Bus
// messages. `make fuzz` builds this with `-sanitize=fuzzer,address -D FUZZING` and runs
// each target (ALMANAC_FUZZ=feed|opml|openmeteo|json|dbus); crashers go to Tests/Fixtures/fuzz/,
// whose files the regression tests in `make test` feed through the same code.
// The plain build (no libFuzzer) gets a main that says how to use it.
#if FUZZING
@testable import AlmanacServices
import DBus
import Foundation

private let target = ProcessInfo.processInfo.environment["ALMANAC_FUZZ"] ?? "feed"

/// libFuzzer's entry when the program has a main of its own (SwiftPM gives every executable one).
@_silgen_name("LLVMFuzzerRunDriver")
private func runDriver(_ argc: UnsafeMutablePointer<Int32>,
                       _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
                       _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Int32

/// One input (libFuzzer's callback, by the name its own `main` looks for too).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    switch target {
    case "feed": FuzzTargets.feed(bytes)
    case "opml": FuzzTargets.opml(bytes)
    case "openmeteo": FuzzTargets.openMeteo(bytes)
    case "json": FuzzTargets.json(bytes)
    case "dbus": FuzzTargets.dbus(bytes)
    default: fatalError("ALMANAC_FUZZ must be feed, opml, openmeteo, json or dbus, not \(target)")
    }
    return 0
}

@main
struct Fuzz {
    static func main() {
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(runDriver(&argc, &argv) { data, size in fuzzOne(data, size) })
    }
}
#else
@main
struct FuzzUsage {
    static func main() {
        print("almanac-fuzz is a libFuzzer target: run `make fuzz` (it builds with -sanitize=fuzzer).")
    }
}
#endif
