"""`make stress`, section syscalls (scripts/stress.py runs it).

Every system call the daemon makes while it serves, saves, reads feeds and weather and
downloads (strace -f) is one the unit's SystemCallFilter= allows."""
import os
import re
import signal
import subprocess
import tempfile
import time

import dbus

from stress_common import BIN, REPO, SERVICE, WEATHER, PODCASTS, DOC, record, connect, call, get, all_episodes, descendants, Section


def allowed_system_calls():
    """@system-service without @privileged and @resources, plus what the unit adds back, as
    systemd itself expands them (`systemd-analyze syscall-filter`)."""
    runtime = tempfile.mkdtemp(prefix="almanac-stress-runtime-")
    env = dict(os.environ, XDG_RUNTIME_DIR=runtime)

    def expand(group, seen):
        out = subprocess.run(["systemd-analyze", "syscall-filter", group], capture_output=True, text=True, env=env).stdout
        names = set()
        for line in out.splitlines():
            item = line.strip()
            if not line.startswith("    ") or not item or item.startswith("#"):
                continue
            if item.startswith("@"):
                if item not in seen:
                    seen.add(item)
                    names |= expand(item, seen)
            else:
                names.add(item)
        return names

    try:
        allowed = expand("@system-service", set()) - expand("@privileged", set()) - expand("@resources", set())
    finally:
        subprocess.run(["rm", "-rf", runtime])
    with open(os.path.join(REPO, "systemd/almanacd.service")) as f:
        for line in f:
            if line.startswith("SystemCallFilter=") and not line.startswith(("SystemCallFilter=~", "SystemCallFilter=@")):
                allowed |= set(line.split("=", 1)[1].split())
    return allowed


def run():
    with Section("syscalls") as s:
        if subprocess.run(["which", "strace"], capture_output=True).returncode != 0:
            record("syscalls", "system calls against the unit's filter", "needs strace", True, "skipped: no strace", skipped=True)
            return
        allowed = allowed_system_calls()
        base = s.one_episode_feed("f.xml", "S")
        weather_base = s.server("open_meteo_server.py", stderr=subprocess.DEVNULL).base
        bus = s.bus()
        trace = os.path.join(s.folder, "trace")
        daemon = s.spawn(["strace", "-f", "-qq", "-o", trace, os.path.join(BIN, "almanacd"), "--address", bus.address,
                          "--provider", "real", "--state-dir", os.path.join(s.folder, "state"), "--data-dir", os.path.join(s.folder, "data"),
                          "--weather-url", weather_base, "--geocoding-url", weather_base, "--meteoalarm-url", weather_base],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        client = connect(bus)
        for _ in range(400):
            if client.name_has_owner(SERVICE):
                break
            time.sleep(0.05)
        call(client, WEATHER, DOC, "Submit", "a{sv}", (dbus.Dictionary({"units": "imperial"}, signature="sv"),))
        call(client, WEATHER, DOC, "AddView", "a{sv}", (dbus.Dictionary({"location": "Berlin"}, signature="sv"),))
        podcast = str(call(client, PODCASTS, "org.almanac.Podcasts1", "Subscribe", "s", (base + "/feeds/f.xml",)))
        job = str(call(client, PODCASTS, "org.almanac.Podcasts1", "Download", "s", (all_episodes(client, podcast)[0]["id"],)))
        for _ in range(100):
            if str(get(client, job, "org.almanac.Download1", "State")) in ("completed", "failed"):
                break
            time.sleep(0.1)
        call(client, PODCASTS, "org.almanac.Podcasts1", "ExportOPML")
        time.sleep(2)
        for pid in descendants(daemon.pid):
            with open("/proc/%d/comm" % pid) as f:
                if f.read().strip() == "almanacd":
                    os.kill(pid, signal.SIGTERM)
        status = daemon.wait(30)
        used = set()
        with open(trace) as f:
            for line in f:
                match = re.match(r"\d+\s+(?:<\.\.\. )?([a-z_0-9]+)[( ]", line)
                if match and match.group(1) not in ("resumed", "exited", "killed"):
                    used.add(match.group(1))
        # SQLite hands a new journal to the database's owner (fchown) only when run as root,
        # which a user unit never is.
        outside = sorted(used - allowed - ({"fchown"} if os.geteuid() == 0 else set()))
        record("syscalls", "system calls of almanacd at work (strace -f) against the unit's SystemCallFilter=",
               "none outside the filter; exits 0", not outside and status == 0,
               "%d distinct calls, outside the filter: %s; exit %s" % (len(used), ", ".join(outside) or "none", status))
