#!/usr/bin/python3
"""A view client of almanacd written by nobody on the team's way: python-dbus (libdbus) with
a GLib main loop. It registers VIEWS views of DOCUMENT (with OPTIONS, a JSON object of
strings) and, for each, records the newest revision it heard (an `Updated`, a `resync`
included) and how many updates and resyncs came. It never calls `View1.Ack`: libdbus
answers the daemon's `org.freedesktop.DBus.Peer.Ping` by itself, which is all the flow
control such a client takes part in.

    view_client.py ADDRESS DOCUMENT VIEWS STATUS_FILE [OPTIONS_JSON]

Prints "ready" once its views are added; writes STATUS_FILE (JSON, replaced whole) every
50 ms: {"views": {path: newest revision}, "updates": n, "resyncs": n}. Stopped with SIGSTOP
it stops reading its socket, as a hung client does; SIGCONT and it reads on. With
VIEW_CLIENT_TIMES set to a file, it also appends "<revision> <time.time()>" for every update
(make stress measures latency with it).
"""
import json
import os
import sys
import time

import dbus
import dbus.mainloop.glib
from gi.repository import GLib

SERVICE = "org.almanac.Almanac1"


def main():
    address, document, count, status_file = sys.argv[1:5]
    options = json.loads(sys.argv[5]) if len(sys.argv) > 5 else {}
    connection = dbus.bus.BusConnection(address, mainloop=dbus.mainloop.glib.DBusGMainLoop())
    newest = {}
    counts = {"updates": 0, "resyncs": 0}
    times_path = os.environ.get("VIEW_CLIENT_TIMES")
    times = open(times_path, "a") if times_path else None

    def updated(revision, data, path=None):
        if times:
            times.write("%d %.6f\n" % (int(revision), time.time()))
        counts["updates"] += 1
        if data.get("kind") == "resync":
            counts["resyncs"] += 1
        newest[str(path)] = max(int(revision), newest.get(str(path), 0))

    connection.add_signal_receiver(updated, signal_name="Updated", dbus_interface="org.almanac.View1", path_keyword="path")
    document_object = connection.get_object(SERVICE, "/org/almanac/Almanac1/" + document)
    for _ in range(int(count)):
        path = document_object.AddView(dbus.Dictionary(options, signature="sv"), dbus_interface="org.almanac.Document1")
        newest[str(path)] = 0

    def write_status():
        if times:
            times.flush()
        temporary = status_file + ".new"
        with open(temporary, "w") as f:
            json.dump({"views": newest, **counts}, f)
        os.rename(temporary, status_file)
        return True

    write_status()
    print("ready", flush=True)
    GLib.timeout_add(50, write_status)
    GLib.MainLoop().run()


if __name__ == "__main__":
    main()
