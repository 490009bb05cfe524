import Foundation
import TestHarness

/// The error types the daemon's modules declare, read from Sources: which adopt `Error`,
/// which `NamedError`, and which are a `CodedError`'s codes (`ErrorCode`).
struct ErrorDeclarations {
    /// The daemon's modules, whose errors a handler may throw.
    static let modules = ["AlmanacModels", "AlmanacCore", "AlmanacFeeds", "AlmanacServices", "AlmanacBus", "AlmanacDemo", "AlmanacWire"]

    /// Types that adopt `Error` but not `NamedError`.
    var errors: [String] = []
    /// Types that adopt `NamedError`, where they are declared or in an extension.
    var named: Set<String> = []
    /// Types that adopt `ErrorCode`: each is the codes of a `CodedError`.
    var codes: Set<String> = []

    static func read() throws -> ErrorDeclarations {
        var found = ErrorDeclarations()
        for module in modules {
            let folder = SourceTree.path("Sources/\(module)")
            let files = (FileManager.default.enumerator(atPath: folder)?.allObjects ?? []).compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
            for file in files {
                let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
                for declaration in text.matches(of: /(?m)^\s*(?:public |private |fileprivate |internal )?(?:final )?(?:struct|enum|class|actor) (\w+)(?:<[^>]*>)?\s*:([^{]*)\{/) {
                    let inherits = declaration.2.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                    let name = String(declaration.1)
                    if inherits.contains("NamedError") { found.named.insert(name) } else if inherits.contains("Error") { found.errors.append(name) }
                    if inherits.contains("ErrorCode") { found.codes.insert(name) }
                }
                for conformance in text.matches(of: /(?m)^extension (\w+)\s*:[^{]*\bNamedError\b/) { found.named.insert(String(conformance.1)) }
            }
        }
        return found
    }
}
