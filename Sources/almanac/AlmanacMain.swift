import ArgumentParser
import DBus
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The entry point: a one-shot `almanac get` takes the fast path (`OneShotGet`); every other
/// command line goes to ArgumentParser (`Almanac`). Every error, ArgumentParser's own usage
/// errors included, leaves through `leave(_:)`: one voice, one exit status (docs/cli.md).
@main
enum AlmanacMain {
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if getenv("ALMANAC_NO_FAST_PATH") == nil, let oneShot = OneShotGet(arguments[...]) {
            do {
                // Most one-shot runs need one GetState: done on this thread, no tasks started.
                if try oneShot.request.performBlocking() { return }
                try await oneShot.request.perform()
            } catch {
                leave(error)
            }
            return
        }
        do {
            var command = try await Almanac.asyncParseAsRoot(arguments)
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            leave(error)
        }
    }

    /// Reports `error` in the CLI's voice and exits with its status; help, `--version` and
    /// completion scripts go to standard output with status 0.
    static func leave(_ error: any Error) -> Never {
        switch error {
        case let error as CLIError:
            error.report()
            exit(error.exit)
        case let code as ExitCode:
            exit(code.rawValue)  // already reported
        case is BusError:
            leave(fail(error))
        default:
            let code = Almanac.exitCode(for: error)
            if code == .success {
                let text = Almanac.fullMessage(for: error)
                if !text.isEmpty { Terminal.write(1, text + "\n") }
                exit(0)
            }
            let usage = usageError(error, code: code)
            usage.report()
            exit(usage.exit)
        }
    }

    /// ArgumentParser's error as ours: its message (with "did you mean" for a mistyped
    /// subcommand), "see `almanac … --help`" as what to do, its usage text kept below.
    static func usageError(_ error: any Error, code: ExitCode) -> CLIError {
        var message = Almanac.message(for: error)
        var lines = Almanac.fullMessage(for: error, columns: 80).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // The first line repeats the message after "Error: ".
        if let first = lines.first, first.hasPrefix("Error: ") {
            lines.removeFirst(max(1, message.split(separator: "\n", omittingEmptySubsequences: false).count))
        }
        var hint = "see `\(CommandPath.current) --help`"
        if let see = lines.lastIndex(where: { $0.hasPrefix("  See '") && $0.hasSuffix("' for more information.") }) {
            let command = lines[see].dropFirst("  See '".count).dropLast("' for more information.".count)
            hint = "see `\(command)`"
            lines.remove(at: see)
        }
        // "Unknown option '--jsn'. Did you mean '--json'?": the suggestion is what to do.
        if let range = message.firstRange(of: " — ") {
            // Our own validation errors are written in the voice already: "what — what to do".
            hint = String(message[range.upperBound...])
            message = String(message[..<range.lowerBound])
        } else if let range = message.firstRange(of: ". Did you mean ") {
            hint = "did you mean " + message[range.upperBound...]
            message = String(message[..<range.lowerBound])
        } else if let word = unexpectedWord(message), let suggestion = CommandPath.suggestion(for: word) {
            message = "'\(word)' is not a command"
            hint = "did you mean '\(suggestion)'?"
        } else if let word = CommandPath.unknownCommand(), !message.contains("'\(word)'") {
            // `almanac umbrella X --json`: ArgumentParser speaks of the option it met first,
            // but what went wrong is the command.
            message = "'\(word)' is not a command"
            hint = CommandPath.suggestion(for: word).map { "did you mean '\($0)'?" } ?? "see `\(CommandPath.current) --help`"
        }
        return CLIError(message: message, hint: hint, exit: code.rawValue, detail: lines.joined(separator: "\n").trimmingTrailingNewlines())
    }

    /// "Unexpected argument 'wether'" → "wether".
    private static func unexpectedWord(_ message: String) -> String? {
        let prefix = "Unexpected argument '"
        guard message.hasPrefix(prefix), message.hasSuffix("'") else { return nil }
        return String(message.dropFirst(prefix.count).dropLast())
    }
}

extension String {
    fileprivate func trimmingTrailingNewlines() -> String {
        var text = Substring(self)
        while text.last == "\n" { text = text.dropLast() }
        return String(text)
    }
}
