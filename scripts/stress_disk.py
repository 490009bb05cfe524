"""`make stress`, section disk (scripts/stress.py runs it).

A full and a read-only state folder: a clear error over D-Bus and in the log,
nothing corrupted, and recovery."""
import os
import subprocess

import dbus

from stress_common import WEATHER, DOC, log, record, connect, call, integrity, Section


def run():
    with Section("disk") as s:
        mount = os.path.join(s.folder, "state")
        os.makedirs(mount)
        if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", mount], capture_output=True).returncode != 0:
            record("disk", "full / read-only state folder", "needs root (mount)", True, "skipped: cannot mount a tmpfs here", skipped=True)
            return
        s.cleanups.append(lambda: subprocess.run(["umount", "-l", mount]))
        bus = s.bus()
        daemon = s.daemon(bus, state=mount)
        client = connect(bus)
        holder = {"client": client}

        def units(value):
            try:
                call(holder["client"], WEATHER, DOC, "Submit", "a{sv}", (dbus.Dictionary({"units": value}, signature="sv"),))
                return None
            except dbus.DBusException as error:
                return error

        def locations(value):
            try:
                call(holder["client"], WEATHER, "org.almanac.Weather1", "AddLocation", "s", (value,))
                return None
            except dbus.DBusException as error:
                return error

        assert units("imperial") is None and locations("Lisbon") is None
        for case in ["full", "read-only"]:
            lines_before = len(daemon.log_text().splitlines())
            if case == "full":
                filler = os.path.join(mount, "filler")
                subprocess.run(["dd", "if=/dev/zero", "of=" + filler, "bs=64k"], capture_output=True)
            else:
                # A file system cannot become read-only under an open writer (EBUSY), so the
                # daemon is restarted on it, as after the kernel remounted it read-only.
                daemon.stop()
                subprocess.run(["mount", "-o", "remount,ro", mount], check=True)
                daemon.start()
                holder["client"].close()
                holder["client"] = client = connect(bus)
            refused = [units("metric"), locations("Place " + "x" * 150), locations("Porto")]
            state = call(client, WEATHER, DOC, "GetState")[1]
            unchanged = str(state["units"]) == "imperial" and sorted(map(str, state["savedLocations"])) == ["Lisbon"]
            new_log = daemon.log_text().splitlines()[lines_before:]
            logged = [line for line in new_log if "units" in line.lower() or "location" in line.lower() or "save" in line.lower()
                      or "disk" in line.lower() or "read-only" in line.lower() or "full" in line.lower()]
            if case == "full":
                os.remove(filler)
            else:
                subprocess.run(["mount", "-o", "remount,rw", mount], check=True)
            again = [units("metric"), locations("Porto")]
            recovered = again == [None, None]
            if not recovered:
                log("    not recovered: %s" % [str(e) for e in again if e is not None])
            messages = [e.get_dbus_name() + ": " + e.get_dbus_message() for e in refused if e is not None]
            record("disk", "state folder %s: writes refused" % case,
                   "Failed over D-Bus saying why, logged, state unchanged, works again after",
                   all(e is not None and e.get_dbus_name() == "org.freedesktop.DBus.Error.Failed" for e in refused)
                   and unchanged and bool(logged) and recovered and daemon.alive(),
                   "%d/3 refused (%s); state unchanged: %s; log: %s; recovered: %s"
                   % (len(messages), (messages[0][:110] if messages else "-"), unchanged, (logged[0][:100] if logged else "nothing"), recovered))
            units("imperial")
            if recovered:
                call(holder["client"], WEATHER, "org.almanac.Weather1", "RemoveLocation", "s", ("Porto",))
        daemon.stop()
        result = integrity(mount)
        daemon.start()
        c = connect(bus)
        state = call(c, WEATHER, DOC, "GetState")[1]
        record("disk", "after the faults and a restart", "integrity_check ok, last acknowledged state there",
               result == "ok" and str(state["units"]) == "imperial" and list(map(str, state["savedLocations"])) == ["Lisbon"],
               "integrity_check %s; units %s, places %s" % (result, state["units"], list(map(str, state["savedLocations"]))))
