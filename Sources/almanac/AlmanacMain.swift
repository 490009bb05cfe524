import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The entry point: a one-shot `almanac get` takes the fast path (`OneShotGet`); every other
/// command line goes to ArgumentParser (`Almanac`).
@main
enum AlmanacMain {
    static func main() async {
        let arguments = CommandLine.arguments.dropFirst()
        guard getenv("ALMANAC_NO_FAST_PATH") == nil, let oneShot = OneShotGet(arguments) else {
            await Almanac.main()
            return
        }
        do {
            // Most one-shot runs need one GetState: done on this thread, no tasks started.
            if try oneShot.request.performBlocking() { return }
            try await oneShot.request.perform()
        } catch {
            Almanac.exit(withError: error)
        }
    }
}
