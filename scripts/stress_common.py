"""What every section of scripts/stress.py shares: the results and the log, the bus names,
D-Bus calls through python3-dbus, and `Section`, which cleans up a section's folders and
processes (buses, almanacd and fixture servers from scripts/almanac_harness.py)."""
import os
import sqlite3
import subprocess
import tempfile
import time

import dbus

import almanac_harness as harness

REPO = harness.REPO
BIN = os.path.abspath(os.path.join(REPO, os.environ.get("STRESS_BIN", ".build/release")))
SERVICE = harness.SERVICE
ROOT = "/org/almanac/Almanac1"
WEATHER = ROOT + "/weather"
PODCASTS = ROOT + "/podcasts"
DOC = "org.almanac.Document1"
VIEW = "org.almanac.View1"
PROPS = "org.freedesktop.DBus.Properties"
SEED = int(os.environ.get("STRESS_SEED", str(int(time.time()))))
RESULTS = []
rss_kib = harness.rss_kib


def log(message):
    print(time.strftime("%H:%M:%S"), message, flush=True)


def record(section, what, bound, held, measured, known=False, skipped=False):
    """One result. `known`: a weakness docs/reliability.md explains; reported, not failed.
    `skipped`: not run here (a tool or a privilege is missing); reported as such, not failed."""
    RESULTS.append({"section": section, "what": what, "bound": bound, "held": held, "measured": measured,
                    "known": known and not held, "skipped": skipped})
    log("  %s  %s — %s (bound: %s)" % ("SKIP" if skipped else "PASS" if held else ("KNOWN" if known else "FAIL"), what, measured, bound))


# ---------------------------------------------------------------------------------------
# Talking to almanacd

def connect(bus):
    return dbus.bus.BusConnection(bus.address)


def call(connection, path, interface, method, signature="", args=(), timeout=25.0):
    return connection.call_blocking(SERVICE, path, interface, method, signature, tuple(args), timeout=timeout)


def get(connection, path, interface, name):
    return call(connection, path, PROPS, "Get", "ss", (interface, name))


def view_count(connection, document=WEATHER):
    return int(get(connection, document, DOC, "ViewCount"))


def view_objects(connection):
    managed = call(connection, ROOT, "org.freedesktop.DBus.ObjectManager", "GetManagedObjects")
    return [str(path) for path, interfaces in managed.items() if VIEW in interfaces]


def all_episodes(connection, podcast=""):
    episodes, cursor = [], None
    while True:
        query = dbus.Dictionary({"limit": dbus.UInt32(500)}, signature="sv")
        if cursor:
            query["cursor"] = cursor
        page, info = call(connection, PODCASTS, "org.almanac.Podcasts1", "ListEpisodes", "sa{sv}", (podcast, query))
        episodes += [dict(e) for e in page]
        cursor = info.get("nextCursor")
        if not cursor:
            return episodes


# ---------------------------------------------------------------------------------------
# Measuring

def answer_times(client, rounds):
    """`rounds` times a Peer.Ping and a Properties.Get (the weather document's Revision)
    from `client`: how long each took to be answered, in seconds."""
    times = []
    for _ in range(rounds):
        t = time.monotonic()
        call(client, ROOT, "org.freedesktop.DBus.Peer", "Ping")
        times.append(time.monotonic() - t)
        t = time.monotonic()
        get(client, WEATHER, DOC, "Revision")
        times.append(time.monotonic() - t)
    return times


def record_answer_times(section, what, during, baseline, took):
    """The two rows of a measurement of other clients' calls while the daemon is busy: p99
    and the slowest, against the bounds of issue 32 (50 ms, 250 ms)."""
    p99, base99 = percentile(during, 0.99), percentile(baseline, 0.99)
    record(section, "%s; another client's Peer.Ping and Properties.Get" % what, "their p99 ≤ 50 ms",
           p99 <= 0.05,
           "alone p50 %.2f ms p99 %.2f ms; meanwhile (%.1f s, %d calls) p50 %.1f ms p99 %.1f ms"
           % (percentile(baseline, 0.5) * 1000, base99 * 1000, took, len(during), percentile(during, 0.5) * 1000, p99 * 1000))
    record(section, "the same: the other client's slowest call", "≤ 250 ms",
           max(during) <= 0.25, "%.0f ms" % (max(during) * 1000))


def percentile(values, fraction):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def integrity(state_folder):
    """PRAGMA integrity_check on a copy of the store (with its WAL), as a crash left it."""
    copy = tempfile.mkdtemp(prefix="almanac-integrity-")
    try:
        for suffix in ["", "-wal"]:
            source = os.path.join(state_folder, "almanac.sqlite" + suffix)
            if os.path.exists(source):
                subprocess.run(["cp", source, os.path.join(copy, "almanac.sqlite" + suffix)], check=True)
        database = sqlite3.connect(os.path.join(copy, "almanac.sqlite"))
        try:
            return database.execute("PRAGMA integrity_check").fetchone()[0]
        finally:
            database.close()
    finally:
        subprocess.run(["rm", "-rf", copy])


def descendants(pid):
    """The processes below `pid`, from /proc."""
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        try:
            for task in os.listdir("/proc/%d/task" % current):
                with open("/proc/%d/task/%s/children" % (current, task)) as f:
                    children = [int(c) for c in f.read().split()]
                found += children
                todo += children
        except OSError:
            pass
    return found


# ---------------------------------------------------------------------------------------
# A section's processes

class Section:
    """Temporary folders and processes of one section, cleaned up whatever happens."""

    def __init__(self, name):
        self.name = name
        self.folder = tempfile.mkdtemp(prefix="almanac-stress-%s-" % name)
        self.cleanups = []

    def __enter__(self):
        log("== %s" % self.name)
        return self

    def __exit__(self, *exc):
        for cleanup in reversed(self.cleanups):
            try:
                cleanup()
            except Exception as error:  # noqa: BLE001 - cleaning up is best effort
                log("  (cleanup: %s)" % error)
        subprocess.run(["rm", "-rf", self.folder])
        return False

    def bus(self):
        bus = harness.Bus(prefix="almanac-stress-")
        self.cleanups.append(bus.stop)
        return bus

    def daemon(self, bus, arguments=("--provider", "demo", "--weather-interval", "3600", "--podcast-interval", "3600"), state=None):
        """almanacd on `bus`, its state and data in this section's folder (or `state`), once it owns its name."""
        daemon = harness.Daemon(BIN, bus, state or os.path.join(self.folder, "state"), os.path.join(self.folder, "almanacd.log"),
                                data=os.path.join(self.folder, "data"), arguments=arguments)
        self.cleanups.append(lambda: daemon.process.poll() is None and daemon.kill9())
        return daemon

    def server(self, script, *arguments, **options):
        """A fixture server (Tests/Fixtures/`script`) on 127.0.0.1."""
        server = harness.FixtureServer(script, *arguments, **options)
        self.cleanups.append(server.stop)
        return server

    def feeds(self):
        """Tests/Fixtures/feed_server.py serving Tests/Fixtures/feeds."""
        return self.server("feed_server.py")

    def one_episode_feed(self, name, title):
        """Serves /feeds/<name>, a feed of one 300,000-byte episode, from a fixture server of
        its own; returns the server's base URL."""
        folder = os.path.join(self.folder, "feeds")
        os.makedirs(folder)
        with open(os.path.join(folder, name), "w") as f:
            f.write('<rss version="2.0"><channel><title>%s</title><item><title>First</title><guid>first</guid>'
                    '<enclosure url="/audio/first.mp3?size=300000" type="audio/mpeg" length="300000"/></item></channel></rss>' % title)
        return self.server("feed_server.py", folder).base

    def spawn(self, argv, **kwargs):
        process = subprocess.Popen(argv, **kwargs)
        self.cleanups.append(lambda: process.poll() is None and (process.kill(), process.wait()))
        return process
