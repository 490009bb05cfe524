"""`make stress`, section flood (scripts/stress.py runs it).

10,000 calls in flight from one client while another measures its latency: once with
GetState (answered in a task of its own) and once with Properties.GetAll (answered on
the connection's thread, in arrival order)."""
import os
import subprocess
import sys
import time

from stress_common import WEATHER, DOC, record, connect, get, percentile, Section


def run():
    count = int(os.environ.get("STRESS_FLOOD", "10000"))
    with Section("flood") as s:
        bus = s.bus()
        s.daemon(bus)
        client = connect(bus)

        def latencies(n):
            times = []
            for _ in range(n):
                t = time.monotonic()
                get(client, WEATHER, DOC, "Revision")
                times.append(time.monotonic() - t)
            return times

        latencies(50)
        baseline = latencies(300)
        script = r"""
import dbus, dbus.lowlevel, sys, time
c = dbus.bus.BusConnection(sys.argv[1])
for i in range(int(sys.argv[2])):
    if sys.argv[3] == "GetState":
        m = dbus.lowlevel.MethodCallMessage("org.almanac.Almanac1", "/org/almanac/Almanac1/podcasts", "org.almanac.Document1", "GetState")
    else:
        m = dbus.lowlevel.MethodCallMessage("org.almanac.Almanac1", "/org/almanac/Almanac1/podcasts", "org.freedesktop.DBus.Properties", "GetAll")
        m.append("org.almanac.Podcasts1", signature="s")
    c.send_message(m)
print("sent", flush=True)
c.call_blocking("org.almanac.Almanac1", "/org/almanac/Almanac1", "org.freedesktop.DBus.Peer", "Ping", "", (), timeout=300)
print("done", flush=True)
"""
        for method in ["GetState", "GetAll"]:
            flooder = s.spawn([sys.executable, "-c", script, bus.address, str(count), method], stdout=subprocess.PIPE, text=True)
            start = time.monotonic()
            during = []
            while flooder.poll() is None and time.monotonic() - start < 300:
                during += latencies(10)
            flooder.wait()
            took = time.monotonic() - start
            p99, base99 = percentile(during, 0.99), percentile(baseline, 0.99)
            record("flood", "%d %s calls in flight from one client; another client's Properties.Get" % (count, method),
                   "its p99 ≤ 50 ms",
                   p99 <= 0.05,
                   "alone p50 %.2f ms p99 %.2f ms; during the flood (%.1f s, %d calls) p50 %.1f ms p99 %.1f ms (×%.0f)"
                   % (percentile(baseline, 0.5) * 1000, base99 * 1000, took, len(during), percentile(during, 0.5) * 1000, p99 * 1000,
                      p99 / base99))
            record("flood", "the same: the other client's slowest call", "≤ 1 s (no per-client fairness: see reliability.md)",
                   max(during) <= 1.0, "%.0f ms (the flood took %.1f s)" % (max(during) * 1000, took), known=True)
