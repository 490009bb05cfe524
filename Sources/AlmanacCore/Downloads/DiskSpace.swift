public import AlmanacModels
/// Reads how much room the disk holding a folder has left (`statvfs` in AlmanacServices;
/// a fake in tests).
public protocol DiskSpace: Sendable {
    /// The disk holding `path` (or its nearest existing parent, for a folder not made yet).
    func freeSpace(at path: String) throws -> FreeSpace
}
