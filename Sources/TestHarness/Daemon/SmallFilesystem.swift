public import Foundation

/// A small file system of a daemon's own at one of its folders, for tests of a nearly full
/// disk: a tmpfs of `bytes` mounted over `folder` (what the folder held copied in first) in a
/// mount namespace of the daemon's (`unshare --map-root-user --mount`: no root needed, and the
/// mount ends with the daemon). Only the daemon sees it; the test sees the folder as it was.
/// `RunningDaemon(…, smallFilesystem:)` starts almanacd so.
public struct SmallFilesystem: Sendable {
    /// The folder it is mounted over.
    public let folder: URL
    /// Its size (tmpfs's `size=`).
    public let bytes: Int

    public init(at folder: URL, bytes: Int) {
        self.folder = folder
        self.bytes = bytes
    }

    /// Mounts the tmpfs (the folder's files copied in) and runs the rest of the arguments.
    private static let script = """
        set -e
        folder=$1; size=$2; shift 2
        mkdir -p "$folder"
        seed=$(mktemp -d)
        cp -a "$folder/." "$seed/"
        mount -t tmpfs -o "size=$size,mode=0700" tmpfs "$folder"
        cp -a "$seed/." "$folder/"
        rm -rf "$seed"
        exec "$@"
        """

    /// The command line that runs `executable` with `arguments` over this file system; the
    /// process it starts becomes `executable` (each step `exec`s the next).
    func commandLine(_ executable: String, _ arguments: [String]) throws -> (URL, [String]) {
        (try PrivateBus.find("unshare"), ["--map-root-user", "--mount", "/bin/sh", "-c", Self.script, "sh", folder.path, "\(bytes)", executable] + arguments)
    }

    /// Changes its size to `bytes` in the namespace of the daemon (process `pid`) that runs over it.
    public func resize(to bytes: Int, inNamespaceOf pid: Int32) throws {
        let resized = try Tool.run("nsenter", ["--target", "\(pid)", "--user", "--mount", "--preserve-credentials",
                                               "mount", "-o", "remount,size=\(bytes)", folder.path])
        guard resized.status == 0 else { throw HarnessError(message: "cannot resize the tmpfs at \(folder.path): \(resized.errorOutput)") }
    }

    /// Whether this machine lets a test make one: `unshare` and `nsenter`, user and mount
    /// namespaces, a tmpfs in them. Asked once, so a refusal shows as a skipped test.
    public static let available: Bool = {
        (try? Tool.run("unshare", ["--map-root-user", "--mount", "/bin/sh", "-c", "mount -t tmpfs -o size=1m tmpfs /mnt && command -v nsenter"]).status) == 0
    }()
}
