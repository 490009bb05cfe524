/// Which file names say "audio or video": the extensions a downloaded episode may be saved
/// under, and the only ones `almanac episode play` hands to a generic opener (`xdg-open`),
/// which picks the program by the extension. Anything else a feed or a server names (`.jar`,
/// `.exe`, `.html`, `.desktop`, `.pdf`…) is saved under `neutralExtension`, which no desktop
/// opens with a program of its own; a media player reads the content whatever the name.
public enum MediaFile {
    /// Audio and video containers podcasts use, and their near kin.
    public static let extensions: Set<String> = [
        "mp3", "m4a", "m4b", "aac", "ogg", "oga", "opus", "flac", "wav", "aif", "aiff", "mka", "spx",
        "mp4", "m4v", "mov", "webm", "mkv", "ogv", "avi", "mpg", "mpeg", "3gp",
    ]

    /// The extension of a download whose type is not known to be audio or video: binary data,
    /// which desktops open with no program of the file's choosing.
    public static let neutralExtension = "bin"

    /// Audio and video MIME types (without parameters, lower case) and their extensions.
    static let mimeExtensions = [
        "audio/mpeg": "mp3", "audio/mp3": "mp3", "audio/x-mpeg": "mp3", "audio/mpeg3": "mp3", "audio/x-mp3": "mp3",
        "audio/mp4": "m4a", "audio/x-m4a": "m4a", "audio/m4a": "m4a", "audio/x-m4b": "m4b", "audio/aac": "aac", "audio/x-aac": "aac",
        "audio/ogg": "ogg", "audio/vorbis": "ogg", "audio/x-ogg": "ogg", "audio/opus": "opus", "audio/flac": "flac", "audio/x-flac": "flac",
        "audio/wav": "wav", "audio/x-wav": "wav", "audio/wave": "wav", "audio/vnd.wave": "wav", "audio/aiff": "aiff", "audio/x-aiff": "aiff",
        "audio/webm": "webm", "audio/x-matroska": "mka",
        "video/mp4": "mp4", "video/x-m4v": "m4v", "video/quicktime": "mov", "video/webm": "webm", "video/x-matroska": "mkv",
        "video/ogg": "ogv", "video/mpeg": "mpg", "video/x-msvideo": "avi", "video/3gpp": "3gp",
    ]

    /// Whether `ext` (without the dot, any case) is an audio or video extension.
    public static func isMedia(extension ext: String) -> Bool {
        extensions.contains(ext.lowercased())
    }

    /// Whether the file name (or path) `name` ends in an audio or video extension.
    public static func isMedia(name: String) -> Bool {
        let last = name.split(separator: "/").last.map(String.init) ?? name
        guard let dot = last.lastIndex(of: "."), dot != last.startIndex else { return false }
        return isMedia(extension: String(last[last.index(after: dot)...]))
    }

    /// The extension of an audio or video `mimeType` (parameters and case ignored), `nil` for any other type.
    public static func fileExtension(mimeType: String) -> String? {
        let bare = mimeType.split(separator: ";").first.map { $0.trimmed.lowercased() } ?? ""
        return mimeExtensions[bare]
    }
}
