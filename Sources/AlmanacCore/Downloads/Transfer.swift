/// One running job's transfer, as the download manager keeps it: what stops it (a cancel, a
/// disk too full) before it ends, when its progress was last announced and what came since
/// (told once the interval has passed, so a transfer that stalls still shows where it is),
/// and how many bytes it held when the free space was last read. Made as the transfer
/// starts, gone as it ends: a job's progress that comes after is no one's.
struct Transfer {
    let stop: StopSignal
    var lastAnnounced: ContinuousClock.Instant?
    var pending: DownloadProgress?
    var spaceCheckedAt: UInt64 = 0
}
