#!/usr/bin/python3
"""A hostile media player, written with jeepney (nobody on the team wrote it): it owns an
org.mpris.MediaPlayer2.* name, as any Flatpak media app may, never answers anything (not
GetAll, not Position), and floods PropertiesChanged{PlaybackStatus: Paused} with a large
junk property, as fast as the bus takes them.

    fake_player.py ADDRESS STATUS_FILE [--name NAME] [--junk BYTES] [--seconds S] [--pause MS]

Sends for S seconds (default: until killed), each signal carrying BYTES of junk (default
1 MiB), MS milliseconds apart (default 0: back to back). Every 10 signals, and at the end,
it writes {"sent": N, "bytes": B, "done": bool} to STATUS_FILE (written whole, then renamed).
"""
import argparse
import json
import os
import time

from jeepney import DBusAddress, new_method_call, new_signal
from jeepney.io.blocking import open_dbus_connection

PLAYER = "org.mpris.MediaPlayer2.Player"
PROPERTIES = DBusAddress("/org/mpris/MediaPlayer2", interface="org.freedesktop.DBus.Properties")
BUS = DBusAddress("/org/freedesktop/DBus", bus_name="org.freedesktop.DBus", interface="org.freedesktop.DBus")


def report(path, sent, size, done):
    temporary = path + ".tmp"
    with open(temporary, "w") as file:
        json.dump({"sent": sent, "bytes": sent * size, "done": done}, file)
    os.replace(temporary, path)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("address")
    parser.add_argument("status")
    parser.add_argument("--name", default="org.mpris.MediaPlayer2.fake")
    parser.add_argument("--junk", type=int, default=1 << 20)
    parser.add_argument("--seconds", type=float, default=None)
    parser.add_argument("--pause", type=float, default=0)
    arguments = parser.parse_args()

    connection = open_dbus_connection(bus=arguments.address)
    # RequestName(name, DO_NOT_QUEUE); the answer is read, and nothing after it ever is.
    connection.send_and_get_reply(new_method_call(BUS, "RequestName", "su", (arguments.name, 4)), timeout=30)
    junk = "x" * arguments.junk
    signal = new_signal(PROPERTIES, "PropertiesChanged", "sa{sv}as",
                        (PLAYER, {"PlaybackStatus": ("s", "Paused"), "Junk": ("s", junk)}, []))
    data = signal.serialise(serial=1)
    sent = 0
    report(arguments.status, sent, len(data), False)
    ends = None if arguments.seconds is None else time.monotonic() + arguments.seconds
    while ends is None or time.monotonic() < ends:
        # The same bytes each time (serial 1): the bus gives each its own serial.
        connection.sock.sendall(data)
        sent += 1
        if sent % 10 == 0:
            report(arguments.status, sent, len(data), False)
        if arguments.pause:
            time.sleep(arguments.pause / 1000)
    report(arguments.status, sent, len(data), True)
    # Stays on the bus, still answering nothing, until killed.
    while True:
        time.sleep(3600)


if __name__ == "__main__":
    main()
