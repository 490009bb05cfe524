"""What make soak moves from outside almanacd: the simulated clock it runs on, and the machine
around it — logind and NetworkManager (python-dbusmock's own templates on a private system
bus), and the network itself (the soak runs in a network namespace of its own, where a drop
rejects every TCP packet: new connections find no network, open ones are reset).
"""
import json
import math
import os
import shutil
import subprocess
import sys
import time

import almanac_harness as harness


class SoakError(RuntimeError):
    """The run cannot go on (a process died, the daemon never caught up)."""


class SimulatedClock:
    """The file almanacd, the CLI and the fixtures read the time from, and the daemon's report
    beside it: "NOW NEXT SLEEPS BUSY LATE" (SimulatedTime.Report)."""

    def __init__(self, path, start):
        self.path = path
        self.report_path = path + ".reached"
        self.now = start
        self.write(start)
        self.moves = 0
        self.waited = 0.0
        # The report caught_up returned last: the daemon at rest (read afresh, the report may
        # show it busy again, with a sleep off the clock while it is between two).
        self.rested = None

    def write(self, moment):
        with open(self.path + ".new", "w") as f:
            f.write("%.6f\n" % moment)
        os.rename(self.path + ".new", self.path)

    def set(self, moment):
        """Moves the clock to `moment` (never back)."""
        moment = max(moment, self.now)
        self.write(moment)
        self.now = moment
        self.moves += 1

    def report(self):
        try:
            with open(self.report_path) as f:
                parts = f.read().split()
        except OSError:
            return None
        if len(parts) != 5:
            return None
        return {"now": float(parts[0]), "next": None if parts[1] == "-" else float(parts[1]),
                "sleepers": int(parts[2]), "busy": int(parts[3]), "late": int(parts[4])}

    @staticmethod
    def after(deadline):
        """The time to write to wake a sleep due at `deadline`: at or just past it, in the six
        decimals the file holds."""
        return math.ceil(deadline * 1e6 + 1) / 1e6

    # How far `settled` moves the clock: more than `caught_up`'s tolerance (10 µs), so that
    # only a report taken after the move matches, and far less than any deadline the daemon
    # sets itself (its shortest, a retry's, is seconds away).
    NUDGE = 0.001

    def settled(self, daemon, also=lambda: True):
        """Waits for the daemon to have caught up with something the driver did that does not
        move the clock (a logind or NetworkManager signal, a bus call, the player): the daemon
        writes its report only when it changes and reads the clock's file every 1 to 10 ms, so
        the report read just after such an event may have been taken before it (busy 0 while
        a wake's catch-up is starting). Moving the clock by `NUDGE` makes the daemon take and
        write a new report, after the event; that one, at rest, is the one waited for."""
        self.set(self.now + self.NUDGE)
        return self.caught_up(daemon, also)

    def caught_up(self, daemon, also=lambda: True, timeout=180):
        """Waits until the daemon's clock reads `now` and no work is under way (twice in a row,
        a millisecond apart), and `also()` holds; returns the report."""
        began = time.monotonic()
        quiet = 0
        while True:
            report = self.report()
            if report and abs(report["now"] - self.now) < 1e-5 and report["busy"] == 0 and also():
                quiet += 1
                if quiet >= 2:
                    self.waited += time.monotonic() - began
                    self.rested = report
                    return report
            else:
                quiet = 0
            if not daemon.alive():
                raise SoakError("almanacd exited (status %s) at %.0f" % (daemon.process.returncode, self.now))
            if time.monotonic() - began > timeout:
                raise SoakError("almanacd did not catch up with %.3f in %d s: %s" % (self.now, timeout, report))
            time.sleep(0.001)


class Machine:
    """logind and NetworkManager on a private system bus (python-dbusmock's templates), and the
    network of the namespace the soak runs in."""

    def __init__(self, section, netns):
        self.section = section
        self.netns = netns
        self.bus = section.bus()
        env = dict(os.environ, DBUS_SYSTEM_BUS_ADDRESS=self.bus.address)
        self.mocks = []
        for template, name in [("logind", "org.freedesktop.login1"), ("networkmanager", "org.freedesktop.NetworkManager")]:
            process = section.spawn(["/usr/bin/python3", "-m", "dbusmock",
                                     "--system", "--template", template], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            self.bus.wait_for(name, process, seconds=60)
            self.mocks.append(process)
        self.mock("org.freedesktop.NetworkManager", "/org/freedesktop/NetworkManager", "AddProperty",
                  "org.freedesktop.NetworkManager", "Metered", "<uint32 2>")
        self.online = True

    def mock(self, name, path, method, *arguments):
        result = subprocess.run(["gdbus", "call", "--address", self.bus.address, "--dest", name, "--object-path", path,
                                 "--method", "org.freedesktop.DBus.Mock." + method, *arguments], capture_output=True, text=True, timeout=60)
        if result.returncode != 0:
            raise SoakError("%s on %s: %s" % (method, name, result.stderr.strip()))

    def prepare_for_sleep(self, sleeping):
        self.mock("org.freedesktop.login1", "/org/freedesktop/login1", "EmitSignal", "org.freedesktop.login1.Manager",
                  "PrepareForSleep", "b", "[<%s>]" % ("true" if sleeping else "false"))

    def network(self, online):
        """Drops the network (every TCP packet rejected) and says so as NetworkManager does
        (`State` 20, disconnected), or brings it back (70, connected global)."""
        if not online:
            self.firewall(True)
            self.mock("org.freedesktop.NetworkManager", "/org/freedesktop/NetworkManager", "SetGlobalConnectionState", "20")
        else:
            self.firewall(False)
            self.mock("org.freedesktop.NetworkManager", "/org/freedesktop/NetworkManager", "SetGlobalConnectionState", "70")
        self.online = online

    def firewall(self, dropping):
        if not self.netns:
            return
        rules = [["OUTPUT", "-p", "tcp", "--syn", "-j", "REJECT", "--reject-with", "icmp-net-unreachable"],
                 ["OUTPUT", "-p", "tcp", "!", "--tcp-flags", "RST", "RST", "-j", "REJECT", "--reject-with", "tcp-reset"]]
        for rule in rules:
            subprocess.run(["iptables", "-A" if dropping else "-D", *rule], check=True, capture_output=True)


def in_own_network():
    """Runs this script again in a network namespace of its own (root, or a user namespace
    where the kernel allows one) with iptables at hand; returns whether it runs in one."""
    if os.environ.get("SOAK_NETNS") == "1":
        subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
        return True
    if os.environ.get("SOAK_NETNS") == "0" or not shutil.which("iptables") or not shutil.which("unshare"):
        return False
    prefix = ["unshare", "--net"] if os.geteuid() == 0 else ["unshare", "--map-root-user", "--net"]
    probe = subprocess.run(prefix + ["true"], capture_output=True)
    if probe.returncode != 0:
        return False
    env = dict(os.environ, SOAK_NETNS="1")
    os.execvpe(prefix[0], prefix + [sys.executable] + sys.argv, env)
    return True


def dump(path, value):
    with open(path, "w") as f:
        json.dump(value, f, indent=1)


__all__ = ["SimulatedClock", "Machine", "SoakError", "in_own_network", "dump", "harness"]
