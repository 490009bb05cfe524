"""`make stress`, section busloss (scripts/stress.py runs it).

The bus goes: almanacd exits non-zero promptly; watch re-registers with the next daemon."""
import os
import subprocess
import time

import dbus

from stress_common import BIN, record, connect, view_count, Section


def run():
    with Section("busloss") as s:
        bus = s.bus()
        daemon = s.daemon(bus)
        errors = open(os.path.join(s.folder, "watch.err"), "w")
        watcher = s.spawn([os.path.join(BIN, "almanac"), "watch", "weather", "--location", "Oslo", "--json"], env=bus.env(NO_COLOR="1"),
                          stdout=subprocess.DEVNULL, stderr=errors)
        observer = connect(bus)
        deadline = time.time() + 20
        while view_count(observer) < 1 and time.time() < deadline:
            time.sleep(0.05)
        observer.close()
        start = time.monotonic()
        bus.kill()
        try:
            status = daemon.process.wait(10)
        except subprocess.TimeoutExpired:
            status = None
        exited = time.monotonic() - start
        record("busloss", "dbus-daemon kill -9'd: almanacd exits non-zero", "≤ 1 s, status ≠ 0",
               status not in (None, 0) and exited <= 1.0, "exit status %s after %.0f ms" % (status, exited * 1000))
        time.sleep(1)
        bus.start()
        daemon.start(wait=False)
        start = time.monotonic()
        count = 0
        while time.monotonic() - start < 20:
            try:
                observer = connect(bus)
                count = view_count(observer)
                observer.close()
            except dbus.DBusException:
                count = 0
            if count == 1:
                break
            time.sleep(0.05)
        again = time.monotonic() - start
        record("busloss", "bus and daemon back: `almanac watch` connects and registers again", "≤ 5 s, watch still running",
               count == 1 and again <= 5 and watcher.poll() is None,
               "view registered %.1f s after the new daemon started; watch %s" % (again, "running" if watcher.poll() is None else "exited %s" % watcher.returncode))
