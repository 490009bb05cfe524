import FoundationEssentials
import Glibc

/// Temporary download files that no job will resume: left by jobs the daemon no longer keeps
/// (a crash between a job's end and its file's removal) or named as an older Almanac named
/// them. The daemon removes them when it starts, so partial downloads do not pile up unseen.
public enum LeftoverDownloads {
    /// Removes the temporary files (hidden, ending in `.part`) in the folders directly under
    /// `root` whose paths are not in `kept`; returns the paths it removed.
    @discardableResult
    public static func remove(under root: String, keeping kept: Set<String>) -> [String] {
        let files = FileManager.default
        guard let folders = try? files.contentsOfDirectory(atPath: root) else { return [] }
        var removed: [String] = []
        for folder in folders.sorted() {
            let path = root + "/" + folder
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR,
                  let names = try? files.contentsOfDirectory(atPath: path) else { continue }
            for name in names.sorted() where name.hasPrefix(".") && name.hasSuffix(".part") {
                let file = path + "/" + name
                guard !kept.contains(file), (try? DownloadFolder.remove(file)) != nil else { continue }
                removed.append(file)
            }
        }
        return removed
    }
}
