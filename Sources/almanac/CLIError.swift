import AlmanacViews
import ArgumentParser
import DBus

/// An error as the CLI reports it, in one voice: what went wrong, what to do, the exit status
/// (docs/cli.md), and the D-Bus error name when a bus error is the cause. `AlmanacMain`
/// prints it once, as `almanac: <message> — <hint>` or, with `--json`, as one JSON object on
/// standard error.
struct CLIError: Error {
    /// What went wrong, without a trailing full stop.
    var message: String
    /// What to do about it; empty when there is nothing to add.
    var hint: String
    /// The exit status: 64 usage, 65 refused, 66 no input, 69 unreachable, 73 cannot create.
    var exit: Int32
    /// The D-Bus error name behind it, if any.
    var name: String?
    /// More lines for people after the message (ArgumentParser's usage text); not in JSON.
    var detail: String = ""

    static func usage(_ message: String, _ hint: String) -> CLIError { CLIError(message: message, hint: hint, exit: 64) }
    static func refused(_ message: String, _ hint: String, name: String? = nil) -> CLIError { CLIError(message: message, hint: hint, exit: 65, name: name) }
    static func unreachable(_ message: String, _ hint: String, name: String? = nil) -> CLIError { CLIError(message: message, hint: hint, exit: 69, name: name) }

    /// `message — hint`, as a person reads it after `almanac: `.
    var text: String {
        let message = Self.clause(self.message)
        return hint.isEmpty ? message : message + " — " + Self.clause(hint)
    }

    /// The `--json` form: `{"error": {"message", "hint", "name"?, "exit"}}`.
    var json: String {
        var object: Rendering.JSONObject = ["message": Self.clause(message), "hint": Self.clause(hint), "exit": Int(exit)]
        if let name { object["name"] = name }
        return Rendering.json(["error": AnyEncodableObject(object)] as Rendering.JSONObject)
    }

    /// Writes the error on standard error, as JSON when the command line asked for `--json`.
    func report() {
        if ErrorVoice.json {
            Terminal.write(2, json + "\n")
        } else {
            // The message may quote a feed or a server: its control characters are shown, not sent.
            Terminal.write(2, "almanac: " + text.visibleControlCharacters() + "\n" + (detail.isEmpty ? "" : detail.visibleControlCharacters(keepingLineBreaks: true) + "\n"))
        }
    }

    /// A sentence as a clause of the voice: no trailing full stop, and a lower-case first
    /// letter unless the first word is an acronym or a name in quotes ("URL", "'Berlin'").
    static func clause(_ text: String) -> String {
        var text = Substring(text)
        while text.hasSuffix(".") && !text.hasSuffix("..") { text = text.dropLast() }
        guard let first = text.first, first.isUppercase else { return String(text) }
        let second = text.dropFirst().first
        if let second, second.isUppercase { return String(text) }
        return first.lowercased() + text.dropFirst()
    }
}

/// How errors are written for this run: `--json` anywhere before `--` asks for JSON objects.
enum ErrorVoice {
    static let json = CommandLine.arguments.dropFirst().prefix { $0 != "--" }.contains("--json")
}
