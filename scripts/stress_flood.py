"""`make stress`, section flood (scripts/stress.py runs it).

10,000 calls in flight from one client while another measures how soon its own calls are
answered: once with GetState (answered in a task of its own) and once with
Properties.GetAll (answered on the connection's thread). The daemon serves callers in turn
(dbus-layer.md, "Calls in turn"), so the other client waits for one of the flood's calls,
not for the flood."""
import os
import subprocess
import sys
import time

from stress_common import answer_times, connect, record_answer_times, Section


def run():
    count = int(os.environ.get("STRESS_FLOOD", "10000"))
    with Section("flood") as s:
        bus = s.bus()
        s.daemon(bus)
        client = connect(bus)
        answer_times(client, 25)
        baseline = answer_times(client, 150)
        script = r"""
import dbus, dbus.lowlevel, sys, time
c = dbus.bus.BusConnection(sys.argv[1])
for i in range(int(sys.argv[2])):
    if sys.argv[3] == "GetState":
        m = dbus.lowlevel.MethodCallMessage("org.almanac.Almanac1", "/org/almanac/Almanac1/podcasts", "org.almanac.Document1", "GetState")
    else:
        m = dbus.lowlevel.MethodCallMessage("org.almanac.Almanac1", "/org/almanac/Almanac1/podcasts", "org.freedesktop.DBus.Properties", "GetAll")
        m.append("org.almanac.Podcasts1", signature="s")
    c.send_message(m)
print("sent", flush=True)
c.call_blocking("org.almanac.Almanac1", "/org/almanac/Almanac1/podcasts", "org.freedesktop.DBus.Properties", "Get", "ss", ("org.almanac.Document1", "Revision"), timeout=300)
print("done", flush=True)
"""
        for method in ["GetState", "GetAll"]:
            # The flood's own last call is a Get behind all the others: the script ends once
            # the daemon has served the whole flood.
            flooder = s.spawn([sys.executable, "-c", script, bus.address, str(count), method], stdout=subprocess.PIPE, text=True)
            start = time.monotonic()
            during = []
            while flooder.poll() is None and time.monotonic() - start < 300:
                during += answer_times(client, 5)
            flooder.wait()
            record_answer_times("flood", "%d %s calls in flight from one client" % (count, method), during, baseline,
                                time.monotonic() - start)
