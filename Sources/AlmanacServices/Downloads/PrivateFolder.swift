import Glibc

/// Folders made for the user alone (0700, as the XDG base directory specification asks of
/// folders it creates): the state folder and the download folders.
public enum PrivateFolder {
    /// Creates `path` and any parent missing; `nil` when it is a folder now, else why not
    /// (the system's words: "Permission denied").
    public static func create(_ path: String) -> String? {
        var partial = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            partial += "/" + part
            guard mkdir(partial, 0o700) == 0 || errno == EEXIST else { return String(cString: strerror(errno)) }
        }
        var info = stat()
        guard stat(path, &info) == 0 else { return String(cString: strerror(errno)) }
        return info.st_mode & S_IFMT == S_IFDIR ? nil : "something other than a folder is there"
    }
}
