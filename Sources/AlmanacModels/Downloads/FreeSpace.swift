/// What a disk has left, and the rule that keeps a download from filling it: a job does not
/// start when what it still has to fetch would leave less than the `minimumFreeSpace` setting.
public struct FreeSpace: Sendable, Hashable {
    /// Bytes an unprivileged user may still write.
    public var available: UInt64
    /// Where the disk is mounted ("/home"), to name it.
    public var mountPoint: String

    public init(available: UInt64, mountPoint: String) {
        self.available = available
        self.mountPoint = mountPoint
    }

    /// Why a download of `needed` more bytes into `folder` must not start (`nil`: it may),
    /// given the `minimum` to keep free (0: no check). Names the disk, the free space, the
    /// threshold and how to change it.
    public func refusal(needed: UInt64, minimum: UInt64, folder: String) -> String? {
        guard minimum > 0 else { return nil }
        let (after, overflow) = available.subtractingReportingOverflow(needed)
        guard overflow || after < minimum else { return nil }
        let what = needed > 0 ? "this download (\(Self.bytes(needed)) more) would leave" : "it has"
        return "Not enough free space: the disk at \(mountPoint) (holding \(folder)) has \(Self.bytes(available)) free, and \(what) less than the \(Self.bytes(minimum)) Almanac keeps free. Free some space, or change the threshold: `almanac settings set \(Setting.minimumFreeSpace.name) 500MiB` (0 turns the check off)."
    }

    /// "812.5 MiB", "1.0 GiB", "512 B": binary units, as `df -h` counts.
    public static func bytes(_ count: UInt64) -> String {
        let units = ["KiB", "MiB", "GiB", "TiB", "PiB", "EiB"]
        guard count >= 1024 else { return "\(count) B" }
        var value = Double(count) / 1024
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) \(units[unit])"
    }
}
