/// Names for downloaded files and their folders made from what a feed says (titles, URLs,
/// `Content-Disposition`), such that none of it can choose where a file goes: the result is
/// one path component, never empty, `.` or `..`, never hidden (no leading dot), free of
/// slashes, control and bidirectional-override characters and of the characters other file
/// systems refuse, not a DOS device name (`CON`, `NUL`, `COM1`…, which break copies to
/// FAT-formatted players), and at most `maximumBytes` of UTF-8.
public enum SafeFileName {
    /// Room is left under NAME_MAX (255) for " (99)", an extension and a temporary prefix.
    public static let maximumBytes = 200

    /// `raw` made safe as one path component, or `fallback` (itself made safe) when nothing is left of it.
    public static func component(_ raw: String, fallback: String) -> String {
        var cleaned = ""
        var lastWasSpace = false
        for scalar in raw.unicodeScalars {
            let replacement: Unicode.Scalar?
            switch scalar.value {
            case 0..<0x20, 0x7F, 0x80..<0xA0: replacement = " "
            case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0xFEFF: replacement = nil
            default:
                replacement = "/\\:*?\"<>|".unicodeScalars.contains(scalar) ? "-" : scalar
            }
            guard let replacement else { continue }
            let isSpace = replacement.properties.isWhitespace
            if isSpace && lastWasSpace { continue }
            cleaned.unicodeScalars.append(isSpace ? " " : replacement)
            lastWasSpace = isSpace
        }
        var name = Substring(cleaned)
        // No leading dots (hidden files, "..") and no trailing dots or spaces (refused by other systems).
        while let first = name.first, first == "." || first == " " || first == "-" { name = name.dropFirst() }
        while let last = name.last, last == "." || last == " " { name = name.dropLast() }
        var result = truncated(String(name), to: maximumBytes)
        while let last = result.last, last == "." || last == " " { result.removeLast() }
        if result.isEmpty { return fallback == raw ? "file" : component(fallback, fallback: "file") }
        if isDeviceName(result) { result = "_" + result }
        return result
    }

    /// A file name: `title` made safe, ending in an audio or video extension (`MediaFile`):
    /// `ext` when it is one, else the title's own when that is one, else
    /// `MediaFile.neutralExtension` — never `.jar`, `.exe`, `.html` or another a feed chose.
    public static func fileName(title: String, fallback: String, extension ext: String?) -> String {
        let base = component(title, fallback: fallback)
        if let ext = ext.flatMap(safeExtension), MediaFile.isMedia(extension: ext) {
            return base.lowercased().hasSuffix("." + ext) ? base : base + "." + ext
        }
        return MediaFile.isMedia(name: base) ? base : base + "." + MediaFile.neutralExtension
    }

    /// The name to try after `name` was taken: "Title (2).mp3", "Title (3).mp3", …
    public static func alternative(_ name: String, attempt: Int) -> String {
        let dot = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : $0 }
        let (base, ext) = dot.map { (String(name[..<$0]), String(name[$0...])) } ?? (name, "")
        return base + " (\(attempt))" + ext
    }

    /// The audio or video extension a download should have: from the server's
    /// `Content-Disposition` file name, else from the URL's last path segment, else from the
    /// MIME type — the first of them that is audio or video (`MediaFile`); `nil` when none is.
    public static func fileExtension(contentDisposition: String?, url: String, mimeType: String?) -> String? {
        let media = { (ext: String?) in ext.flatMap(safeExtension).flatMap { MediaFile.isMedia(extension: $0) ? $0 : nil } }
        if let disposition = contentDisposition, let name = dispositionFileName(disposition), let ext = media(extensionOf(name)) {
            return ext
        }
        var path = Substring(url)
        if let scheme = path.firstRange(of: "://") { path = path[scheme.upperBound...] }
        if let end = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = path[..<end] }
        if let slash = path.firstIndex(of: "/"), let ext = media(extensionOf(String(path[slash...].split(separator: "/").last ?? ""))) {
            return ext
        }
        return mimeType.flatMap(MediaFile.fileExtension(mimeType:))
    }

    private static func extensionOf(_ name: String) -> String? {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        return String(name[name.index(after: dot)...])
    }

    private static func safeExtension(_ ext: String) -> String? {
        let lower = ext.lowercased()
        guard (1...5).contains(lower.utf8.count), lower.utf8.allSatisfy({ (48...57).contains($0) || (97...122).contains($0) }) else { return nil }
        return lower
    }

    /// The file name in a `Content-Disposition` header (`filename*=UTF-8''…` or `filename="…"`).
    static func dispositionFileName(_ header: String) -> String? {
        for part in header.split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmed }
            guard pair.count == 2 else { continue }
            let key = pair[0].lowercased()
            var value = pair[1]
            if key == "filename*", let quote = value.firstRange(of: "''") {
                value = String(value[quote.upperBound...])
                return FileURL.path(of: "file:///" + value).map { String($0.dropFirst()) } ?? value
            }
            if key == "filename" {
                if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
                return value
            }
        }
        return nil
    }

    private static func isDeviceName(_ name: String) -> Bool {
        let stem = name.split(separator: ".", maxSplits: 1).first.map { $0.trimmed.uppercased() } ?? ""
        if ["CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$"].contains(stem) { return true }
        if stem.count == 4, stem.hasPrefix("COM") || stem.hasPrefix("LPT"), let digit = stem.last, digit.isNumber { return true }
        return false
    }

    private static func truncated(_ text: String, to bytes: Int) -> String {
        guard text.utf8.count > bytes else { return text }
        var result = ""
        var count = 0
        for character in text {
            let size = character.utf8.count
            guard count + size <= bytes else { break }
            result.append(character)
            count += size
        }
        return result
    }
}
