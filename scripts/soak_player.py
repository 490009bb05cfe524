#!/usr/bin/python3
"""make soak's media player: an MPRIS player (org.mpris.MediaPlayer2.soak) that plays in
simulated time, with python-dbus and a GLib main loop.

    soak_player.py ADDRESS PLAN LOG

Its `Position` is how far it has played by the simulated clock (the file
ALMANAC_SIMULATED_CLOCK names): from where it opened the track, at its `Rate`, while
`Playing`. almanacd reads it as it reads any player (its polls and its waits are in real time:
docs/reliability.md, "make soak"), so the episode plays at the simulated clock's pace. A
real player reaches the moment Almanac tells it to play on (two seconds before the end) in
real time; this one holds one second before the end, playing, until it is told `OpenUri`, and
stops at the end once an hour of simulated time has passed there with nothing told.

Tracks are the plan's episodes (`feeds`: title, length), by their enclosure URL or the
download's file name; an unknown URL plays for an hour. `OpenUri`, `Play`, `Pause`,
`PlayPause`, `Stop`, `SetPosition`, `Seek` and `Rate` do what MPRIS says. `org.almanac.Soak1`
(same object) is the driver's: `Open(uri)`, `Hold(paused)` (the machine sleeps: paused, and
playing again after), `History() -> s` (JSON: each track opened, with the simulated time and
who opened it). Each call is a line of LOG.
"""
import json
import os
import re
import sys
import urllib.parse

import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

ROOT = "org.mpris.MediaPlayer2"
PLAYER = "org.mpris.MediaPlayer2.Player"
SOAK = "org.almanac.Soak1"
PATH = "/org/mpris/MediaPlayer2"
CLOCK = os.environ["ALMANAC_SIMULATED_CLOCK"]


def now():
    with open(CLOCK) as f:
        return float(f.read(64).strip())


class Player(dbus.service.Object):
    def __init__(self, connection, plan, log):
        super().__init__(connection, PATH)
        self.lengths = {}
        for feed in plan["feeds"]:
            self.lengths[feed["title"]] = feed["length"]
            self.lengths[feed["id"]] = feed["length"]
        self.log = open(log, "a", buffering=1)
        self.url = None
        self.track = 0
        self.length = 0.0
        self.status = "Stopped"
        # Where it was at `since` (simulated seconds) and how fast it moves.
        self.base = 0.0
        self.since = now()
        self.rate = 1.0
        self.held = False
        self.history = []

    # ---- where it is

    def position(self):
        if self.status != "Playing" or self.url is None:
            return self.base
        return min(self.base + (now() - self.since) * self.rate, max(0.0, self.length - 1))

    def settle(self):
        """Moves `base` to now (before a change of status, rate or position)."""
        self.base = self.position()
        self.since = now()

    def length_of(self, url):
        match = re.search(r"/audio/([^/]+)/(-?\d+)\.mp3$", url)
        if match and match.group(1) in self.lengths:
            return float(self.lengths[match.group(1)])
        name = os.path.basename(urllib.parse.unquote(url))
        for title, length in self.lengths.items():
            if name.startswith(title.replace("/", "_") + ", episode"):
                return float(length)
        return 3600.0

    def ended(self):
        """An hour (simulated) at the hold with nothing told: it plays to the end and stops."""
        if self.status == "Playing" and self.url and self.base + (now() - self.since) * self.rate >= self.length + 3600:
            self.base = self.length
            self.status = "Stopped"
            self.told("ended", self.url)
            self.PropertiesChanged(PLAYER, {"PlaybackStatus": "Stopped"}, [])
        return True

    # ---- what it says

    def metadata(self):
        if self.url is None:
            return dbus.Dictionary({"mpris:trackid": dbus.ObjectPath("/org/mpris/MediaPlayer2/TrackList/NoTrack")}, signature="sv")
        return dbus.Dictionary({"mpris:trackid": dbus.ObjectPath("/org/almanac/soak/track/%d" % self.track), "xesam:url": self.url,
                                "xesam:title": os.path.basename(self.url), "mpris:length": dbus.Int64(int(self.length * 1_000_000))},
                               signature="sv")

    def properties(self, interface):
        if interface == ROOT:
            return {"Identity": "Soak Player", "CanQuit": False, "CanRaise": False, "HasTrackList": False,
                    "SupportedUriSchemes": dbus.Array(["file", "http", "https"], signature="s"),
                    "SupportedMimeTypes": dbus.Array(["audio/mpeg"], signature="s")}
        if interface == PLAYER:
            return {"PlaybackStatus": self.status, "Metadata": self.metadata(), "Position": dbus.Int64(int(self.position() * 1_000_000)),
                    "Rate": dbus.Double(self.rate), "MinimumRate": dbus.Double(0.25), "MaximumRate": dbus.Double(4.0),
                    "CanControl": True, "CanSeek": True, "CanPause": True, "CanPlay": True, "CanGoNext": False,
                    "CanGoPrevious": False, "LoopStatus": "None", "Shuffle": False, "Volume": dbus.Double(1.0)}
        raise dbus.exceptions.DBusException("no interface " + interface, name="org.freedesktop.DBus.Error.UnknownInterface")

    def told(self, *what):
        self.log.write("%.3f %s\n" % (now(), " ".join(str(w) for w in what)))

    def open(self, uri, by):
        self.told("open", by, uri)
        self.track += 1
        self.url = str(uri)
        self.length = self.length_of(self.url)
        self.base, self.since = 0.0, now()
        self.status = "Paused" if self.held else "Playing"
        self.history.append({"at": now(), "by": by, "uri": self.url, "length": self.length})
        self.PropertiesChanged(PLAYER, {"Metadata": self.metadata(), "PlaybackStatus": self.status}, [])

    def set_status(self, status):
        if self.url is None or status == self.status:
            return
        self.settle()
        self.status = status
        self.PropertiesChanged(PLAYER, {"PlaybackStatus": status}, [])

    # ---- org.freedesktop.DBus.Properties

    @dbus.service.method(dbus.PROPERTIES_IFACE, in_signature="ss", out_signature="v")
    def Get(self, interface, name):
        values = self.properties(interface)
        if name not in values:
            raise dbus.exceptions.DBusException("no property " + name, name="org.freedesktop.DBus.Error.UnknownProperty")
        return values[name]

    @dbus.service.method(dbus.PROPERTIES_IFACE, in_signature="s", out_signature="a{sv}")
    def GetAll(self, interface):
        return self.properties(interface)

    @dbus.service.method(dbus.PROPERTIES_IFACE, in_signature="ssv")
    def Set(self, interface, name, value):
        self.told("Set", name, value)
        if interface == PLAYER and name == "Rate" and 0.25 <= float(value) <= 4.0:
            self.settle()
            self.rate = float(value)
            self.PropertiesChanged(PLAYER, {"Rate": dbus.Double(self.rate)}, [])

    @dbus.service.signal(dbus.PROPERTIES_IFACE, signature="sa{sv}as")
    def PropertiesChanged(self, interface, changed, invalidated):
        pass

    # ---- org.mpris.MediaPlayer2.Player

    @dbus.service.signal(PLAYER, signature="x")
    def Seeked(self, position):
        pass

    @dbus.service.method(PLAYER, in_signature="ox")
    def SetPosition(self, track, position):
        self.told("SetPosition", track, position)
        if self.url and str(track) == "/org/almanac/soak/track/%d" % self.track and 0 <= position <= self.length * 1_000_000:
            self.base, self.since = position / 1_000_000, now()
            self.Seeked(dbus.Int64(int(position)))

    @dbus.service.method(PLAYER, in_signature="x")
    def Seek(self, offset):
        self.told("Seek", offset)
        if self.url:
            self.base, self.since = min(max(0.0, self.position() + offset / 1_000_000), self.length), now()
            self.Seeked(dbus.Int64(int(self.base * 1_000_000)))

    @dbus.service.method(PLAYER, in_signature="s")
    def OpenUri(self, uri):
        self.open(uri, "almanacd")

    @dbus.service.method(PLAYER)
    def Pause(self):
        self.told("Pause")
        self.set_status("Paused")

    @dbus.service.method(PLAYER)
    def Play(self):
        self.told("Play")
        self.set_status("Playing")

    @dbus.service.method(PLAYER)
    def PlayPause(self):
        self.told("PlayPause")
        self.set_status("Paused" if self.status == "Playing" else "Playing")

    @dbus.service.method(PLAYER)
    def Stop(self):
        self.told("Stop")
        self.set_status("Stopped")

    # ---- org.almanac.Soak1: the driver's

    @dbus.service.method(SOAK, in_signature="s")
    def Open(self, media):
        """What `almanac episode play` hands its player (scripts/soak_open.sh): a file's path or a URL."""
        self.open("file://" + urllib.parse.quote(media) if media.startswith("/") else media, "user")

    @dbus.service.method(SOAK, in_signature="b")
    def Hold(self, held):
        self.told("hold", held)
        self.held = bool(held)
        if self.url is None or self.status == "Stopped":
            return
        self.set_status("Paused" if held else "Playing")

    @dbus.service.method(SOAK, out_signature="s")
    def History(self):
        return json.dumps({"history": self.history, "status": self.status, "url": self.url, "position": self.position()})


def main():
    address, plan_path, log = sys.argv[1], sys.argv[2], sys.argv[3]
    with open(plan_path) as f:
        plan = json.load(f)
    DBusGMainLoop(set_as_default=True)
    connection = dbus.bus.BusConnection(address)
    name = dbus.service.BusName("org.mpris.MediaPlayer2.soak", connection)
    player = Player(connection, plan, log)
    GLib.timeout_add(200, player.ended)
    print("ready", flush=True)
    try:
        GLib.MainLoop().run()
    finally:
        del name, player


if __name__ == "__main__":
    main()
