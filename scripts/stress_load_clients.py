#!/usr/bin/python3
"""The load section's clients (scripts/stress_load.py runs them; each its own process, so none
slows another's timing):

  receive ADDRESS PLAN OUT SECONDS  50 connections, 20 podcasts views each (1,000 in all,
                                    10 per podcast); records every Updated until SECONDS + 10
  send ADDRESS PLAN OUT SECONDS     100 play-state changes a second, round the podcasts
  stall ADDRESS PLAN - 0            plan["stallViews"] unfiltered views, read until the process is stopped
"""
import json
import sys
import time

import dbus
import dbus.mainloop.glib

SERVICE = "org.almanac.Almanac1"
PODCASTS = "/org/almanac/Almanac1/podcasts"
DOC = "org.almanac.Document1"


def add_view(connection, options):
    return str(connection.call_blocking(SERVICE, PODCASTS, DOC, "AddView", "a{sv}", (dbus.Dictionary(options, signature="sv"),)))


def receive(address, plan, out, seconds):
    from gi.repository import GLib
    loop = dbus.mainloop.glib.DBusGMainLoop()
    views = {}

    def handler(revision, data, path=None):
        info = views.get(str(path))
        if info is None or data.get("kind") != "playState" or "position" not in data:
            return
        info["updates"].append((int(revision), int(float(data["position"])), time.time()))

    connections = []
    for c in range(50):
        connection = dbus.bus.BusConnection(address, mainloop=loop)
        connection.add_signal_receiver(handler, signal_name="Updated", dbus_interface="org.almanac.View1", path_keyword="path")
        connections.append(connection)
        for i in range(20):
            podcast = plan["podcasts"][(c * 20 + i) % len(plan["podcasts"])]
            views[add_view(connection, {"podcast": podcast})] = {"podcast": podcast, "updates": []}
    print("ready", flush=True)
    main = GLib.MainLoop()
    GLib.timeout_add(int((seconds + 10) * 1000), main.quit)
    main.run()
    with open(out, "w") as f:
        json.dump({"views": views}, f)


def send(address, plan, out, seconds):
    connection = dbus.bus.BusConnection(address)
    podcasts, episodes = plan["podcasts"], plan["episodes"]
    acked, failed = [], []
    start = time.time()
    seq = 0
    while time.time() - start < seconds:
        seq += 1
        podcast = podcasts[seq % len(podcasts)]
        sent = time.time()
        try:
            revision = connection.call_blocking(SERVICE, PODCASTS, DOC, "Submit", "a{sv}", (dbus.Dictionary(
                {"episode": episodes[podcast], "position": float(seq)}, signature="sv"),))
            acked.append((seq, podcast, int(revision), sent))
        except dbus.DBusException as error:
            failed.append(str(error))
        pause = start + seq * 0.01 - time.time()
        if pause > 0:
            time.sleep(pause)
    with open(out, "w") as f:
        json.dump({"acked": acked, "failed": failed}, f)


def stall(address, plan):
    from gi.repository import GLib
    connection = dbus.bus.BusConnection(address, mainloop=dbus.mainloop.glib.DBusGMainLoop())
    heard = [0]

    def handler(*args):
        heard[0] += 1

    connection.add_signal_receiver(handler, signal_name="Updated", dbus_interface="org.almanac.View1")
    for _ in range(int(plan.get("stallViews", 1))):
        add_view(connection, {})
    print("ready", flush=True)
    # Reads like any client until stopped (SIGSTOP): then its socket fills and stays full.
    GLib.MainLoop().run()


def main():
    mode, address, plan_path, out, seconds = sys.argv[1:6]
    with open(plan_path) as f:
        plan = json.load(f)
    if mode == "receive":
        receive(address, plan, out, float(seconds))
    elif mode == "send":
        send(address, plan, out, float(seconds))
    else:
        stall(address, plan)


if __name__ == "__main__":
    main()
