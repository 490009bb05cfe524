"""`make stress`, section cycles (scripts/stress.py runs it).

Register/vanish cycles: the daemon's RSS stays flat (within 10%) after a warm-up."""
import os
import time

import dbus

from stress_common import WEATHER, PODCASTS, DOC, record, connect, call, view_count, Section


def run():
    cycles = int(os.environ.get("STRESS_CYCLES", "10000"))
    with Section("cycles") as s:
        bus = s.bus()
        daemon = s.daemon(bus)
        observer = connect(bus)

        def run(count):
            batch = 50
            for start in range(0, count, batch):
                clients = [connect(bus) for _ in range(min(batch, count - start))]
                for index, client in enumerate(clients):
                    options = dbus.Dictionary({"location": "Town%d" % ((start + index) % 20)}, signature="sv")
                    call(client, WEATHER if index % 2 else PODCASTS, DOC, "AddView", "a{sv}", (options if index % 2 else {},))
                for client in clients:
                    client.close()

        began = time.monotonic()
        run(1000)
        time.sleep(1)
        before = daemon.rss_kib()
        run(cycles)
        deadline = time.time() + 10
        while (view_count(observer) or view_count(observer, PODCASTS)) and time.time() < deadline:
            time.sleep(0.05)
        time.sleep(1)
        after = daemon.rss_kib()
        growth = (after - before) * 100.0 / before
        left = view_count(observer) + view_count(observer, PODCASTS)
        record("cycles", "%d register/vanish cycles (after 1,000 to warm up)" % cycles, "RSS within 10%, no view left",
               abs(growth) <= 10 and left == 0,
               "RSS %d → %d KiB (%+.1f%%), %d views left, %.0f cycles/s"
               % (before, after, growth, left, (cycles + 1000) / (time.monotonic() - began)))
