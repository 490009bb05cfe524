"""`make stress`, section players (scripts/stress.py runs it).

Peers that never answer, against the bounds of issue 39:

- a hostile media player (Tests/Fixtures/fake_player.py, jeepney: owns
  org.mpris.MediaPlayer2.fake, answers nothing, floods PropertiesChanged{PlaybackStatus:
  Paused} with 1 MiB of junk) while another client measures how soon its Peer.Ping and
  Properties.Get are answered, alone and then during the flood, in the same run; then SIGTERM
  while it still floods;
- a system bus that accepts the connection and never answers (Tests/Fixtures/silent_bus.py,
  before and after the authentication): how long the session bus name takes, against a
  daemon whose system bus does not exist, and how long SIGTERM takes;
- a service that cannot stop (the player listener's last write waits for the state file,
  which another process holds locked): how long SIGTERM takes, through the stop deadline,
  and the state file's integrity after it.
"""
import json
import os
import sqlite3
import subprocess
import time

import dbus

import almanac_harness as harness
from stress_common import BIN, DOC, PROPS, REPO, ROOT, SERVICE, WEATHER, connect, integrity, record, record_answer_times, Section

FIXTURES = os.path.join(REPO, "Tests", "Fixtures")
PYTHON = "/usr/bin/python3"
SECONDS = float(os.environ.get("STRESS_PLAYER_SECONDS", "20"))


def run():
    with Section("players") as s:
        flood(s)
    for after_auth in (False, True):
        with Section("players") as s:
            silent_system_bus(s, after_auth)
    with Section("players") as s:
        stuck_service(s)


def sent(path):
    try:
        with open(path) as f:
            return json.load(f)["sent"]
    except (OSError, ValueError, KeyError):
        return 0


def stop_time(daemon):
    """SIGTERM; seconds until almanacd exited and its status (None: killed after 30 s)."""
    start = time.monotonic()
    daemon.process.terminate()
    try:
        status = daemon.process.wait(30)
    except subprocess.TimeoutExpired:
        daemon.kill9()
        status = None
    return time.monotonic() - start, status


def answer_times(client, rounds):
    """As stress_common's: a Peer.Ping and a Properties.Get, `rounds` times; a call that fails
    (a stalled daemon's do, after 25 s) counts with the time it took."""
    times = []
    for _ in range(rounds):
        for call in (lambda: client.call_blocking(SERVICE, ROOT, "org.freedesktop.DBus.Peer", "Ping", "", (), timeout=25),
                     lambda: client.call_blocking(SERVICE, WEATHER, PROPS, "Get", "ss", (DOC, "Revision"), timeout=25)):
            start = time.monotonic()
            try:
                call()
            except dbus.DBusException:
                pass
            times.append(time.monotonic() - start)
    return times


def flood(s):
    bus = s.bus()
    daemon = s.daemon(bus)
    client = connect(bus)
    answer_times(client, 25)
    baseline = answer_times(client, 150)
    status = os.path.join(s.folder, "fake-player.json")
    fake = s.spawn([PYTHON, os.path.join(FIXTURES, "fake_player.py"), bus.address, status])
    start = time.monotonic()
    during = []
    while time.monotonic() - start < SECONDS:
        during += answer_times(client, 5)
    took = time.monotonic() - start
    signals = sent(status)
    record_answer_times("players", "a player floods PropertiesChanged (1 MiB of junk each, %d signals, %.0f MiB in %.0f s) and never answers"
                        % (signals, signals * 1.0, took), during, baseline, took)
    ignored = "did not answer in time" in daemon.log_text()
    record("players", "the same: the daemon leaves the player alone", "said in the log", ignored,
           "logged" if ignored else "not logged")
    seconds, exit_status = stop_time(daemon)
    record("players", "the same: SIGTERM while it floods", "exit ≤ 5 s, status 0", exit_status == 0 and seconds <= 5,
           "exit status %s after %.2f s" % (exit_status, seconds))
    fake.kill()


def time_to_name(s, bus, system_address, label):
    """Starts almanacd with `system_address` as its system bus; seconds until it owns its name."""
    state = os.path.join(s.folder, "state-" + label)
    start = time.monotonic()
    daemon = harness.Daemon(BIN, bus, state, os.path.join(s.folder, "almanacd-%s.log" % label), start=False,
                            data=os.path.join(s.folder, "data-" + label),
                            arguments=("--provider", "demo", "--weather-interval", "3600", "--podcast-interval", "3600",
                                       "--system-bus-address", system_address))
    s.cleanups.append(lambda: daemon.process.poll() is None and daemon.kill9())
    daemon.start(wait=False)
    try:
        daemon.wait_for_name(timeout=60)
        return daemon, time.monotonic() - start
    except harness.HarnessError:
        return daemon, None


def silent_system_bus(s, after_auth):
    kind = "after the authentication" if after_auth else "at all"
    socket = os.path.join(s.folder, "system-bus")
    silent = s.spawn([PYTHON, os.path.join(FIXTURES, "silent_bus.py"), socket] + (["--after-auth"] if after_auth else []),
                     stdout=subprocess.PIPE, text=True)
    silent.stdout.readline()
    bus = s.bus()
    baseline, baseline_seconds = time_to_name(s, bus, "unix:path=" + os.path.join(s.folder, "no-system-bus"), "none")
    stop_time(baseline)
    daemon, seconds = time_to_name(s, bus, "unix:path=" + socket, "silent")
    answered = False
    if seconds is not None:
        try:
            connect(bus).call_blocking(harness.SERVICE, "/org/almanac/Almanac1/weather", "org.freedesktop.DBus.Properties", "Get", "ss",
                                       ("org.almanac.Document1", "Revision"), timeout=25)
            answered = True
        except dbus.DBusException:
            answered = False
    record("players", "a system bus that never answers (%s): the session bus name" % kind,
           "taken ≤ 0.5 s later than without a system bus, and answering",
           seconds is not None and baseline_seconds is not None and seconds <= baseline_seconds + 0.5 and answered,
           "without a system bus %.2f s, with the silent one %s" % (baseline_seconds or -1, "%.2f s" % seconds if seconds is not None else "never (60 s)"))
    exit_seconds, exit_status = stop_time(daemon)
    record("players", "the same: SIGTERM", "exit ≤ 5 s, status 0", exit_status == 0 and exit_seconds <= 5,
           "exit status %s after %.2f s" % (exit_status, exit_seconds))


def stuck_service(s):
    """A player plays an episode; another process holds the state file in a transaction;
    SIGTERM: the listener's last write waits on the file (SQLite's busy timeout, 5 s), the
    group gives up on it at the deadline."""
    bus = s.bus()
    feeds = s.one_episode_feed("stuck.xml", "Stuck")
    state = os.path.join(s.folder, "state")
    daemon = s.daemon(bus, arguments=("--provider", "real", "--weather-interval", "3600", "--podcast-interval", "3600", "--mpris-poll", "3600"),
                      state=state)
    client = connect(bus)
    client.call_blocking(harness.SERVICE, "/org/almanac/Almanac1/podcasts", "org.almanac.Podcasts1", "Subscribe", "s",
                         (feeds + "/feeds/stuck.xml",), timeout=60)
    episode = client.call_blocking(harness.SERVICE, "/org/almanac/Almanac1/podcasts", "org.almanac.Podcasts1", "ListEpisodes", "sa{sv}",
                                   ("", {"limit": dbus.UInt32(1)}), timeout=60)[0][0]
    url = str(episode["audioURL"])
    player = s.spawn([PYTHON, "-c", PLAYER, bus.address, url], stdout=subprocess.PIPE, text=True)
    player.stdout.readline()
    database = os.path.join(state, "almanac.sqlite")
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and position(database) < 60:
        time.sleep(0.1)
    holder = s.spawn([PYTHON, "-c", HOLDER, database], stdout=subprocess.PIPE, text=True)
    holder.stdout.readline()
    time.sleep(1.5)
    seconds, exit_status = stop_time(daemon)
    named = "did not stop within the deadline" in daemon.log_text()
    holder.kill()
    holder.wait()
    player.kill()
    record("players", "a service that cannot stop (its write waits on the state file another process holds): SIGTERM",
           "exit ≤ 5 s, status 0, the log names it", exit_status == 0 and seconds <= 5 and named,
           "exit status %s after %.2f s; %s" % (exit_status, seconds, "named in the log" if named else "not named"))
    check = integrity(state)
    record("players", "the same: the state file after it", "integrity_check ok, the position written before there",
           check == "ok" and position(database) >= 60, "integrity_check %s; position %.0f s" % (check, position(database)))


def position(database):
    try:
        connection = sqlite3.connect(database)
        try:
            row = connection.execute("SELECT MAX(position) FROM episode").fetchone()
            return row[0] or 0
        finally:
            connection.close()
    except sqlite3.Error:
        return 0


# A well-behaved player (python-dbus and GLib), playing URL from 60 s: answers GetAll with it.
PLAYER = r"""
import sys, dbus, dbus.service, dbus.mainloop.glib
from gi.repository import GLib
dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
bus = dbus.bus.BusConnection(sys.argv[1])
class Player(dbus.service.Object):
    @dbus.service.method("org.freedesktop.DBus.Properties", in_signature="s", out_signature="a{sv}")
    def GetAll(self, interface):
        return {"PlaybackStatus": "Playing", "Position": dbus.Int64(60000000),
                "Metadata": dbus.Dictionary({"xesam:url": sys.argv[2], "mpris:length": dbus.Int64(3600000000)}, signature="sv")}
Player(bus, "/org/mpris/MediaPlayer2")
name = dbus.service.BusName("org.mpris.MediaPlayer2.stress", bus)
print("ready", flush=True)
GLib.MainLoop().run()
"""

HOLDER = r"""
import sqlite3, sys, time
database = sqlite3.connect(sys.argv[1], isolation_level=None)
database.execute("BEGIN EXCLUSIVE")
print("locked", flush=True)
time.sleep(600)
"""
