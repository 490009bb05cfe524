#!/usr/bin/python3
"""make soak's 50 view clients: each a connection of its own (python-dbus, one GLib main loop
for all), coming onto the bus, adding views, removing them and leaving at the simulated times
scripts/soak_world.py planned.

    soak_views.py ADDRESS PLAN DONE STATS

PLAN (JSON): `views`, a list of [time, client, action, argument] in time order: "connect",
"add" (argument: the view's options, with its "document": weather or podcasts and its "id",
a number), "remove" (argument: the view's number), "leave". The
clock is the file ALMANAC_SIMULATED_CLOCK names. Once every action up to the simulated time
T is done, DONE holds T (the driver waits for it before it moves the clock on). On SIGTERM,
STATS gets what each view heard (JSON: {add number: {"updates", "newest", "resyncs"}}) and
what failed.
"""
import json
import os
import signal
import sys

import dbus
import dbus.mainloop.glib
from gi.repository import GLib

SERVICE = "org.almanac.Almanac1"
ROOT = "/org/almanac/Almanac1/"
DOC = "org.almanac.Document1"
CLOCK = os.environ["ALMANAC_SIMULATED_CLOCK"]


def now():
    with open(CLOCK) as f:
        return float(f.read(64).strip())


class Clients:
    def __init__(self, address, plan, done, stats):
        self.address = address
        self.actions = plan["views"]
        self.next = 0
        self.done, self.stats = done, stats
        self.loop = dbus.mainloop.glib.DBusGMainLoop()
        self.connections = {}
        self.views = {}        # add number -> (client, path)
        self.heard = {}        # add number -> counts
        self.by_path = {}      # (client, path) -> add number
        self.failures = []
        self.reported = None

    def heard_update(self, revision, data, path=None, client=None):
        number = self.by_path.get((client, str(path)))
        if number is None:
            return
        counts = self.heard[number]
        counts["updates"] += 1
        counts["newest"] = max(counts["newest"], int(revision))
        if str(data.get("kind", "")) == "resync":
            counts["resyncs"] += 1

    def perform(self, when, client, action, argument):
        try:
            if action == "connect":
                connection = dbus.bus.BusConnection(self.address, mainloop=self.loop)
                connection.add_signal_receiver(lambda r, d, path=None, c=client: self.heard_update(r, d, path, c),
                                               signal_name="Updated", dbus_interface="org.almanac.View1", path_keyword="path")
                self.connections[client] = connection
            elif action == "add":
                options = dict(argument)
                document, number = options.pop("document"), options.pop("id")
                path = str(self.connections[client].call_blocking(SERVICE, ROOT + document, DOC, "AddView", "a{sv}",
                                                                  (dbus.Dictionary(options, signature="sv"),), timeout=60))
                self.views[number] = (client, path)
                self.by_path[(client, path)] = number
                self.heard[number] = {"client": client, "document": document, "updates": 0, "newest": 0, "resyncs": 0, "at": when}
            elif action == "remove":
                if argument not in self.views:
                    return  # its client left first (a session cut short by the month's end)
                owner, path = self.views.pop(argument)
                self.connections[owner].call_blocking(SERVICE, path, "org.almanac.View1", "Remove", "", (), timeout=60)
                self.heard[argument]["removed"] = when
            elif action == "leave":
                connection = self.connections.pop(client)
                for number, (owner, _) in list(self.views.items()):
                    if owner == client:
                        del self.views[number]
                        self.heard[number]["left"] = when
                connection.close()
        except dbus.DBusException as error:
            self.failures.append([when, client, action, str(error)[:300]])

    def tick(self):
        moment = now()
        while self.next < len(self.actions) and self.actions[self.next][0] <= moment:
            self.perform(*self.actions[self.next])
            self.next += 1
        if moment != self.reported:
            with open(self.done + ".new", "w") as f:
                f.write("%f\n" % moment)
            os.rename(self.done + ".new", self.done)
            self.reported = moment
        return True

    def write_stats(self):
        with open(self.stats, "w") as f:
            json.dump({"views": self.heard, "failures": self.failures, "open": len(self.views),
                       "connections": len(self.connections)}, f)


def main():
    address, plan_path, done, stats = sys.argv[1:5]
    with open(plan_path) as f:
        plan = json.load(f)
    clients = Clients(address, plan, done, stats)
    main_loop = GLib.MainLoop()

    def stop(*_):
        clients.write_stats()
        main_loop.quit()

    GLib.unix_signal_add(GLib.PRIORITY_HIGH, signal.SIGTERM, stop)
    GLib.timeout_add(5, clients.tick)
    print("ready", flush=True)
    main_loop.run()


if __name__ == "__main__":
    main()
