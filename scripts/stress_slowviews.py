"""`make stress`, section slowviews (scripts/stress.py runs it).

Issue 17's measurement, with flow control in place: a client holding 64 views stops reading
its socket (SIGSTOP) while 20,000 changes happen. Bounds: dbus-daemon and almanacd grow by a
few MiB at most (before flow control dbus-daemon grew from 8 to 890 MiB, queueing every
Updated for that client); the client, reading again, has every view at the latest revision
within a second; another client's latency is what it was before the stall.

The clients are Tests/Fixtures/view_client.py (python-dbus, libdbus answering the daemon's
Peer.Ping by itself: no View1.Ack)."""
import json
import os
import signal
import subprocess
import sys
import threading
import time

from stress_common import REPO, PODCASTS, DOC, record, connect, call, percentile, Section, rss_kib

VIEWS = 64
CHANGES = int(os.environ.get("STRESS_SLOW_CHANGES", "20000"))
BASELINE = 2000
EPISODE = "demo-swift-1"


def run():
    with Section("slowviews") as s:
        bus = s.bus()
        daemon = s.daemon(bus)
        client = connect(bus)
        script = os.path.join(REPO, "Tests/Fixtures/view_client.py")

        def view_client(views, name, times=None):
            environment = dict(os.environ)
            if times:
                environment["VIEW_CLIENT_TIMES"] = times
            status = os.path.join(s.folder, name + ".json")
            process = s.spawn(["/usr/bin/python3", script, bus.address, "podcasts", str(views), status],
                              stdout=subprocess.PIPE, text=True, env=environment)
            process.stdout.readline()  # "ready"
            return process, status

        def status(path):
            with open(path) as f:
                return json.load(f)

        stalled, stalled_status = view_client(VIEWS, "stalled")
        times = os.path.join(s.folder, "other-times.txt")
        other, _ = view_client(1, "other", times)
        owner = str(call(client, list(status(stalled_status)["views"])[0], "org.freedesktop.DBus.Properties", "Get", "ss",
                         ("org.almanac.View1", "Owner")))

        sent = {}

        def change(number):
            began = time.time()
            revision = int(call(client, PODCASTS, DOC, "Submit", "a{sv}",
                                ({"episode": EPISODE, "position": float(number)},)))
            sent[revision] = began
            return revision

        # The other client's latency with nobody stalled.
        for number in range(1, BASELINE + 1):
            change(number)
        baseline_end = max(sent)

        samples = {"bus": [], "daemon": []}
        sampling = threading.Event()

        def sample():
            while not sampling.is_set():
                samples["bus"].append(rss_kib(bus.process.pid))
                samples["daemon"].append(daemon.rss_kib())
                time.sleep(0.2)

        bus_before, daemon_before = rss_kib(bus.process.pid), daemon.rss_kib()
        os.kill(stalled.pid, signal.SIGSTOP)
        stall_began = time.time()
        sampler = threading.Thread(target=sample)
        sampler.start()
        final = 0
        for number in range(BASELINE + 1, BASELINE + CHANGES + 1):
            final = change(number)
        took = time.time() - stall_began
        stats = connect(bus).call_blocking("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.Debug.Stats",
                                           "GetConnectionStats", "s", (owner,))
        sampling.set()
        sampler.join()
        bus_growth = (max(samples["bus"] + [bus_before]) - bus_before) / 1024
        daemon_growth = (max(samples["daemon"] + [daemon_before]) - daemon_before) / 1024
        record("slowviews", "a client with %d views stops reading while %d changes happen (%.1f s)" % (VIEWS, CHANGES, took),
               "dbus-daemon grows ≤ 8 MiB", bus_growth <= 8,
               "dbus-daemon RSS %.1f → %.1f MiB (+%.1f MiB); it holds %d messages, %d bytes for the stalled client"
               % (bus_before / 1024, max(samples["bus"] + [bus_before]) / 1024, bus_growth,
                  int(stats["OutgoingMessages"]), int(stats["OutgoingBytes"])))
        record("slowviews", "the same: almanacd", "almanacd grows ≤ 8 MiB", daemon_growth <= 8,
               "almanacd RSS %.1f → %.1f MiB (+%.1f MiB)" % (daemon_before / 1024, max(samples["daemon"] + [daemon_before]) / 1024, daemon_growth))

        os.kill(stalled.pid, signal.SIGCONT)
        woke = time.monotonic()
        caught_up = None
        while time.monotonic() - woke < 20:
            try:
                now = status(stalled_status)
            except (OSError, ValueError):
                now = None
            if now and all(revision >= final for revision in now["views"].values()):
                caught_up = time.monotonic() - woke
                break
            time.sleep(0.01)
        seen = status(stalled_status)
        record("slowviews", "the stalled client reads again", "every view at the latest revision within 1 s",
               caught_up is not None and caught_up <= 1,
               "%s; %d updates and %d resyncs in all, instead of %d updates"
               % ("at revision %d after %.2f s" % (final, caught_up) if caught_up is not None else "not caught up in 20 s",
                  seen["updates"], seen["resyncs"], VIEWS * (BASELINE + CHANGES)))

        # The other client's latency, before and during the stall (from the Submit's start to its Updated).
        time.sleep(0.5)
        before, during = [], []
        with open(times) as f:
            for line in f:
                revision, at = line.split()
                revision = int(revision)
                if revision in sent:
                    (before if revision <= baseline_end else during).append(float(at) - sent[revision])
        p99a, p99b = percentile(before, 0.99), percentile(during, 0.99)
        record("slowviews", "meanwhile, another client's latency (1 view)", "p99 ≤ 2× before (+5 ms)", p99b <= 2 * p99a + 0.005,
               "p50/p99 %.1f/%.1f ms before the stall, %.1f/%.1f ms during it (%d and %d updates)"
               % (percentile(before, 0.5) * 1000, p99a * 1000, percentile(during, 0.5) * 1000, p99b * 1000, len(before), len(during)))
        other.kill()
        stalled.kill()
