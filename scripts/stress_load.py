"""`make stress`, section load (scripts/stress.py runs it).

1,000 views over 50 clients, 100 changes/s: no lost or reordered Updated, bounded
memory; half-way, a client that stops reading must not slow the others nor grow the
daemon. Then the same for half as long with a stalling client of 64 views (the most a
client may hold), which hears 6,400 Updated a second."""
import json
import os
import signal
import subprocess
import sys
import time

from stress_common import REPO, PODCASTS, record, connect, call, all_episodes, percentile, Section, rss_kib


def run():
    seconds = float(os.environ.get("STRESS_LOAD_SECONDS", "60"))
    run_load(seconds, 1)
    run_load(seconds / 2, 64)


def run_load(seconds, stall_views):
    with Section("load") as s:
        feeds = s.feeds()
        bus = s.bus()
        daemon = s.daemon(bus)
        client = connect(bus)
        podcasts = []
        for index in range(100):
            podcasts.append(str(call(client, PODCASTS, "org.almanac.Podcasts1", "Subscribe", "s", (feeds.base + "/feeds/durations.xml?n=%d" % index,))))
        episodes = {p: str(all_episodes(client, p)[0]["id"]) for p in podcasts}
        plan = os.path.join(s.folder, "plan.json")
        with open(plan, "w") as f:
            json.dump({"podcasts": podcasts, "episodes": episodes, "stallViews": stall_views}, f)
        results = os.path.join(s.folder, "received.json")
        receiver = s.spawn([sys.executable, os.path.join(REPO, "scripts/stress_load_clients.py"), "receive", bus.address, plan, results, str(seconds)],
                           stdout=subprocess.PIPE, text=True)
        receiver.stdout.readline()  # "ready": 1,000 views added
        # The client that will stop reading hears every change on 64 views from the start,
        # so both halves carry the same load and differ only by its stall.
        stalled = s.spawn([sys.executable, os.path.join(REPO, "scripts/stress_load_clients.py"), "stall", bus.address, plan, "-", "0"],
                          stdout=subprocess.PIPE, text=True)
        stalled.stdout.readline()
        stall_at = None
        sent = os.path.join(s.folder, "sent.json")
        sender = s.spawn([sys.executable, os.path.join(REPO, "scripts/stress_load_clients.py"), "send", bus.address, plan, sent, str(seconds)])
        rss, bus_rss = [], []
        start = time.monotonic()
        while sender.poll() is None:
            if stall_at is None and time.monotonic() - start > seconds / 2:
                os.kill(stalled.pid, signal.SIGSTOP)
                stall_at = time.time()
            rss.append((time.monotonic() - start, daemon.rss_kib()))
            bus_rss.append(bus_rss_kib(bus))
            time.sleep(1)
        receiver.wait(120)
        os.kill(stalled.pid, signal.SIGKILL)
        stalled.wait()
        with open(sent) as f:
            sent_log = json.load(f)
        with open(results) as f:
            received = json.load(f)
        # Each view must have heard every acknowledged change of its podcast, in order.
        by_podcast = {}
        for seq, podcast, revision, t in sent_log["acked"]:
            by_podcast.setdefault(podcast, []).append((revision, seq, t))
        lost = reordered = 0
        latency_before, latency_after = [], []
        for view, info in received["views"].items():
            expected = [seq for revision, seq, t in sorted(by_podcast.get(info["podcast"], []))]
            got = [seq for revision, seq, t in info["updates"]]
            revisions = [revision for revision, seq, t in info["updates"]]
            if revisions != sorted(revisions):
                reordered += 1
            missing = set(expected) - set(got)
            lost += len(missing)
            sent_at = {seq: t for revision, seq, t in by_podcast.get(info["podcast"], [])}
            for revision, seq, t in info["updates"]:
                if seq in sent_at:
                    (latency_after if sent_at[seq] >= stall_at + 1 else latency_before).append(t - sent_at[seq])
        total_expected = sum(len(by_podcast.get(info["podcast"], [])) for info in received["views"].values())
        label = "" if stall_views == 1 else " (stalling client: %d views)" % stall_views
        record("load", "1,000 views over 50 clients, %d changes in %.0f s (%.0f/s)%s" % (len(sent_log["acked"]), seconds, len(sent_log["acked"]) / seconds, label),
               "no Updated lost or reordered",
               lost == 0 and reordered == 0 and len(received["views"]) == 1000,
               "%d views; %d Updated expected, %d lost, %d views out of order"
               % (len(received["views"]), total_expected, lost, reordered))
        p99a, p99b = percentile(latency_before, 0.99), percentile(latency_after, 0.99)
        record("load", "half-way, a client with %d unfiltered view%s (%d Updated/s) stops reading its socket"
               % (stall_views, "" if stall_views == 1 else "s", stall_views * 100), "others' p99 ≤ 2× (+5 ms)",
               p99b <= 2 * p99a + 0.005,
               "Updated latency p50/p99 %.1f/%.1f ms before, %.1f/%.1f ms after"
               % (percentile(latency_before, 0.5) * 1000, p99a * 1000, percentile(latency_after, 0.5) * 1000, p99b * 1000))
        half = [kib for t, kib in rss if t > seconds / 2 + 2]
        first = [kib for t, kib in rss if t <= seconds / 2]
        record("load", "daemon memory over the run (flow control holds the stalled client's views back)%s" % label,
               "RSS in the stalled half ≤ 1.25× the first half's peak",
               bool(first) and bool(half) and max(half) <= 1.25 * max(first),
               "almanacd RSS peak %d KiB before, %d KiB after (end %d KiB); dbus-daemon RSS %d → %d KiB"
               % (max(first or [0]), max(half or [0]), rss[-1][1] if rss else 0, bus_rss[0] if bus_rss else 0, max(bus_rss or [0])))


def bus_rss_kib(bus):
    return rss_kib(bus.process.pid) if bus.process and bus.process.poll() is None else 0
