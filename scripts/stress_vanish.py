"""`make stress`, section vanish (scripts/stress.py runs it).

100 watchers kill -9'ed at once: every view gone and ViewCount 0 within 1 s."""
import os
import signal
import subprocess
import time

from stress_common import BIN, record, connect, view_count, view_objects, Section


def run():
    with Section("vanish") as s:
        bus = s.bus()
        s.daemon(bus)
        observer = connect(bus)
        watchers = []
        for index in range(100):
            watchers.append(s.spawn([os.path.join(BIN, "almanac"), "watch", "weather", "--location", "Town%d" % (index % 10), "--json"],
                                    env=bus.env(NO_COLOR="1"), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        deadline = time.time() + 60
        while view_count(observer) < 100 and time.time() < deadline:
            time.sleep(0.05)
        registered = view_count(observer)
        start = time.monotonic()
        for watcher in watchers:
            os.kill(watcher.pid, signal.SIGKILL)
        for watcher in watchers:
            watcher.wait()
        killed = time.monotonic()
        count, objects = registered, None
        while time.monotonic() - start < 10:
            count = view_count(observer)
            objects = view_objects(observer)
            if count == 0 and not objects:
                break
            time.sleep(0.005)
        elapsed = time.monotonic() - start
        record("vanish", "100 watchers kill -9'd at once: ViewCount 0, view objects gone", "≤ 1 s",
               registered == 100 and count == 0 and not objects and elapsed <= 1.0,
               "%d views registered; 0 views and 0 objects %.0f ms after the kills (kills took %.0f ms)"
               % (registered, elapsed * 1000, (killed - start) * 1000))
