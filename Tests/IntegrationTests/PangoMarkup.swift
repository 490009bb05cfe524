import Foundation
import TestHarness

/// Pango itself, as waybar reads a custom module's `text` and `tooltip`
/// (`Pango.parse_markup`, through python3-gi and gir1.2-pango-1.0): a library nobody on the
/// team wrote decides whether a line is valid markup.
enum PangoMarkupCheck {
    /// What each of `markups` shows as text, or the error Pango gives for it.
    static func parse(_ markups: [String]) async throws -> [Result<String, PangoError>] {
        let script = """
            import json, sys
            import gi
            gi.require_version("Pango", "1.0")
            from gi.repository import GLib, Pango
            out = []
            for markup in sys.argv[1:]:
                try:
                    out.append({"text": Pango.parse_markup(markup, -1, "\\0")[2]})
                except GLib.Error as error:
                    out.append({"error": error.message})
            print(json.dumps(out))
            """
        let result = try await Tool.runDetached("/usr/bin/python3", ["-c", script] + markups)
        guard result.status == 0, let parsed = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: String]] else {
            throw HarnessError(message: "Pango could not be asked (python3-gi and gir1.2-pango-1.0): \(result.errorOutput)")
        }
        return parsed.map { entry in entry["text"].map { .success($0) } ?? .failure(PangoError(message: entry["error"] ?? "?")) }
    }

    struct PangoError: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}
