import Foundation
import TestHarness
import Testing

/// An idle daemon sleeps: no views, nothing saved or subscribed, so nothing is due and no
/// thread of almanacd wakes. Counted as the voluntary context switches of all its threads
/// (from `/proc/<pid>/task/*/status`) over a few seconds: a thread that wakes goes back to
/// sleep with one, while involuntary ones count only how often other work preempted a
/// thread that was awake anyway. A one-second tick alone would make several a second; the
/// Swift runtime's own floor is one a second.
///
/// What it counts is the daemon's, but a machine busy with the rest of the suite (daemons
/// starting beside it, a test process sharing its cores) stretches the daemon's start-up
/// into the window and makes its threads wait for locks. So it runs where nothing else runs:
/// `make test` runs it in a `swift test` of its own after the suite (`ALMANAC_ALONE=IdleTests`),
/// and a plain `swift test` leaves it out. Busy loops beside it (`make test-under-load`)
/// preempt the daemon's threads, which is involuntary and not counted.
@Suite(.onTestThreads, .timeLimit(.hang), .enabled(if: ProcessInfo.processInfo.environment["ALMANAC_ALONE"] == "IdleTests",
                                               "runs alone: `make test` runs it after the suite"))
struct IdleTests {
    /// Each thread's voluntary context switches (its sleeps), by thread id.
    static func switches(of pid: pid_t) -> [String: Int] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        var counts: [String: Int] = [:]
        for task in tasks {
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8) else { continue }
            counts[task] = status.split(separator: "\n").reduce(0) { sum, line in
                guard line.hasPrefix("voluntary_ctxt_switches") else { return sum }
                return sum + (Int(line.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "") ?? 0)
            }
        }
        return counts
    }

    /// The wake-ups between two counts: each thread's new switches, a new thread's all, and
    /// one for each thread that ended (it woke to end; its count went with it).
    static func wakeups(from before: [String: Int], to after: [String: Int]) -> Int {
        let ended = before.keys.filter { after[$0] == nil }.count
        return ended + after.reduce(0) { $0 + $1.value - (before[$1.key] ?? 0) }
    }

    @Test func anIdleDaemonDoesNotWakeUp() async throws {
        let bus = try PrivateBus()
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        try await expectNoWakeups(daemon)
    }

    /// The same with logind and NetworkManager (python-dbusmock's) on a system bus: watching
    /// them adds no wake-up while nothing happens.
    @Test func anIdleDaemonWatchingTheMachineDoesNotWakeUp() async throws {
        let bus = try PrivateBus()
        let system = try PrivateBus()
        let logind = try await SystemBusMock.logind(on: system)
        let networkManager = try await SystemBusMock.networkManager(on: system)
        let daemon = try await RunningDaemon(bus: bus, .fixtures(), environment: ["DBUS_SYSTEM_BUS_ADDRESS": system.address])
        try await expectNoWakeups(daemon)
        _ = (logind, networkManager)
    }

    private func expectNoWakeups(_ daemon: RunningDaemon) async throws {
        // What start-up does (the first empty refresh, idle pool threads ending after 5 s) is over by then.
        try await Task.sleep(for: .seconds(6))
        // libdispatch's Linux worker-pool monitor wakes its manager thread once a second
        // (`_dispatch_workq_monitor_pools`), whatever the daemon does: about 5 in a window.
        // A one-second refresh tick (what the daemon had) wakes several threads each time, in
        // every window; a start-up that ran late on a slow machine spoils only the first.
        var counts: [Int] = []
        for _ in 0..<3 {
            let before = Self.switches(of: daemon.process.pid)
            #expect(!before.isEmpty, "the switches of almanacd could not be read")
            try await Task.sleep(for: .seconds(5))
            counts.append(Self.wakeups(from: before, to: Self.switches(of: daemon.process.pid)))
            if counts.last! <= 10 { break }
        }
        #expect(counts.min()! <= 10, "almanacd woke \(counts) times in each of its 5 s windows with nothing to do")
        _ = daemon.stop()
    }
}
