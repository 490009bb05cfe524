#!/usr/bin/python3
"""A media player on the bus for the contract fuzzer (scripts/stress_fuzz.py): it owns
org.mpris.MediaPlayer2.fuzzplayer and plays one track, as MPRIS says a player does, with
python-dbus and a GLib main loop (a library nobody on the team wrote).

    mpris_player.py ADDRESS URL [LENGTH_SECONDS]

It plays URL (`xesam:url`) from second 10, at rate 1, and never moves by itself: its
`Position` changes only when it is told `SetPosition` (answered with `Seeked`), so the
daemon hears no change it did not ask for. `Pause` is counted and ignored (it plays on, so
that every later `Sleep` still finds a player), `Rate` may be set within 0.25–4. Prints
"ready" once it owns its name; each call it was told is written to standard error."""
import sys

import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

ROOT = "org.mpris.MediaPlayer2"
PLAYER = "org.mpris.MediaPlayer2.Player"
PATH = "/org/mpris/MediaPlayer2"
TRACK = dbus.ObjectPath("/org/almanac/fuzz/track/1")


class Player(dbus.service.Object):
    def __init__(self, connection, url, length):
        super().__init__(connection, PATH)
        self.url = url
        self.length = int(length * 1_000_000)
        self.position = 10_000_000
        self.rate = 1.0

    def properties(self, interface):
        if interface == ROOT:
            return {"Identity": "Fuzz Player", "CanQuit": False, "CanRaise": False, "HasTrackList": False,
                    "SupportedUriSchemes": dbus.Array(["file", "http", "https"], signature="s"),
                    "SupportedMimeTypes": dbus.Array(["audio/mpeg"], signature="s")}
        if interface == PLAYER:
            metadata = dbus.Dictionary({"mpris:trackid": TRACK, "xesam:url": self.url, "xesam:title": "Fuzz",
                                        "mpris:length": dbus.Int64(self.length)}, signature="sv")
            return {"PlaybackStatus": "Playing", "Metadata": metadata, "Position": dbus.Int64(self.position),
                    "Rate": dbus.Double(self.rate), "MinimumRate": dbus.Double(0.25), "MaximumRate": dbus.Double(4.0),
                    "CanControl": True, "CanSeek": True, "CanPause": True, "CanPlay": True, "CanGoNext": False,
                    "CanGoPrevious": False, "LoopStatus": "None", "Shuffle": False, "Volume": dbus.Double(1.0)}
        raise dbus.exceptions.DBusException("no interface " + interface, name="org.freedesktop.DBus.Error.UnknownInterface")

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
        told("Set", name, value)
        if interface == PLAYER and name == "Rate" and 0.25 <= float(value) <= 4.0:
            self.rate = float(value)
            self.PropertiesChanged(PLAYER, {"Rate": dbus.Double(self.rate)}, [])

    @dbus.service.signal(dbus.PROPERTIES_IFACE, signature="sa{sv}as")
    def PropertiesChanged(self, interface, changed, invalidated):
        pass

    @dbus.service.signal(PLAYER, signature="x")
    def Seeked(self, position):
        pass

    @dbus.service.method(PLAYER, in_signature="ox")
    def SetPosition(self, track, position):
        told("SetPosition", track, position)
        if track == TRACK and 0 <= position <= self.length:
            self.position = int(position)
            self.Seeked(dbus.Int64(self.position))

    @dbus.service.method(PLAYER, in_signature="x")
    def Seek(self, offset):
        told("Seek", offset)

    @dbus.service.method(PLAYER, in_signature="s")
    def OpenUri(self, uri):
        told("OpenUri", uri)

    @dbus.service.method(PLAYER)
    def Pause(self):
        told("Pause")

    @dbus.service.method(PLAYER)
    def Play(self):
        told("Play")

    @dbus.service.method(PLAYER)
    def PlayPause(self):
        told("PlayPause")

    @dbus.service.method(PLAYER)
    def Stop(self):
        told("Stop")


def told(*what):
    print("told:", *what, file=sys.stderr, flush=True)


def main():
    address, url = sys.argv[1], sys.argv[2]
    length = float(sys.argv[3]) if len(sys.argv) > 3 else 1800.0
    DBusGMainLoop(set_as_default=True)
    connection = dbus.bus.BusConnection(address)
    name = dbus.service.BusName("org.mpris.MediaPlayer2.fuzzplayer", connection)
    player = Player(connection, url, length)
    print("ready", flush=True)
    loop = GLib.MainLoop()
    try:
        loop.run()
    finally:
        del name, player


if __name__ == "__main__":
    main()
