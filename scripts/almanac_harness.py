"""The processes the scripts run Almanac among: a private bus, almanacd, a fixture HTTP server.

scripts/stress.py and Benchmarks/run.py use it (the latter puts scripts/ on sys.path). Plain
standard-library Python 3.11, so any python3 can import it; it talks to the bus through
dbus-send. The bus's configuration is scripts/private-bus.conf.in, which the shell scripts
(scripts/private-bus.sh) and the Swift tests fill in too.

    bus = Bus()                                   # a private dbus-daemon in a folder of its own
    daemon = Daemon(bin_dir, bus, state="/tmp/…/state", log_path="/tmp/…/almanacd.log")
    feeds = FixtureServer("feed_server.py")        # Tests/Fixtures/feed_server.py on 127.0.0.1
    subprocess.run([…, "almanac", "status"], env=bus.env())
    daemon.stop(); feeds.stop(); bus.stop()
"""
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

SCRIPTS = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(SCRIPTS)
FIXTURES = os.path.join(REPO, "Tests", "Fixtures")
BUS_CONFIG_TEMPLATE = os.path.join(SCRIPTS, "private-bus.conf.in")
SERVICE = "org.almanac.Almanac1"


class HarnessError(RuntimeError):
    """A bus, the daemon or a fixture server did not start or answer."""


def bus_config(socket, extra=""):
    """scripts/private-bus.conf.in for a bus listening on `socket`; `extra` (whole lines,
    such as `<servicedir>` elements) goes at the end of <busconfig>."""
    with open(BUS_CONFIG_TEMPLATE) as template:
        return template.read().replace("@SOCKET@", socket).replace("@EXTRA@", extra)


def rss_kib(pid):
    """The resident set of process `pid`, KiB (0 when /proc does not say)."""
    with open("/proc/%d/status" % pid) as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


class Bus:
    """A private dbus-daemon listening on `<directory>/bus`; restartable on the same address
    (`kill()`, then `start()` or `restart()`), as a session bus that goes away and comes back.

    `directory`: where the socket and configuration go; by default a temporary folder, which
    `stop()` removes. `service_dir`: a folder of D-Bus activation files (`*.service`) the bus
    may start services from. `log`: a file that receives the bus's standard error, where the
    services it activates write theirs (by default it is discarded)."""

    def __init__(self, directory=None, service_dir=None, log=None, prefix="almanac-bus-"):
        self.owns_directory = directory is None
        self.directory = tempfile.mkdtemp(prefix=prefix) if directory is None else directory
        os.makedirs(self.directory, exist_ok=True)
        self.socket = os.path.join(self.directory, "bus")
        # Without the guid the server prints, which changes when the bus restarts.
        self.address = "unix:path=" + self.socket
        self.config = os.path.join(self.directory, "bus.conf")
        extra = "  <servicedir>%s</servicedir>\n" % service_dir if service_dir else ""
        with open(self.config, "w") as out:
            out.write(bus_config(self.socket, extra))
        self.log_path = log
        self.log = None
        self.process = None
        self.start()

    def start(self):
        """Starts dbus-daemon (again, after `kill()`) and returns once it listens."""
        env = dict(os.environ)
        env.pop("DBUS_SESSION_BUS_ADDRESS", None)
        if self.log_path and self.log is None:
            self.log = open(self.log_path, "w")
        self.process = subprocess.Popen(["dbus-daemon", "--config-file=" + self.config, "--nofork", "--print-address=1"],
                                        stdout=subprocess.PIPE, text=True, env=env,
                                        stderr=self.log if self.log else subprocess.DEVNULL)
        # The first line is the address, printed once the bus listens.
        if not self.process.stdout.readline().strip():
            self.process.wait()
            raise HarnessError("dbus-daemon did not start (configuration %s, exit status %s)" % (self.config, self.process.returncode))

    def restart(self):
        """Kills the bus (if it runs) and starts a new one at the same address."""
        self.kill()
        self.start()

    def kill(self):
        """SIGKILL, as when the bus dies: its clients see their connections drop."""
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    def stop(self):
        """Stops the bus and removes its folder if it made it."""
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()
        if self.log:
            self.log.close()
            self.log = None
        if self.owns_directory:
            shutil.rmtree(self.directory, ignore_errors=True)

    def env(self, **extra):
        """This process's environment with DBUS_SESSION_BUS_ADDRESS naming this bus, and `extra`."""
        return dict(os.environ, DBUS_SESSION_BUS_ADDRESS=self.address, **extra)

    def has_owner(self, name):
        """Whether someone owns `name` on this bus (asked with dbus-send)."""
        try:
            result = subprocess.run(["dbus-send", "--bus=" + self.address, "--print-reply", "--dest=org.freedesktop.DBus", "/",
                                     "org.freedesktop.DBus.NameHasOwner", "string:" + name],
                                    capture_output=True, text=True, timeout=60)
        except (OSError, subprocess.TimeoutExpired) as error:
            raise HarnessError("dbus-send NameHasOwner %s: %s" % (name, error)) from None
        if result.returncode != 0:
            raise HarnessError("dbus-send NameHasOwner %s exited %d: %s" % (name, result.returncode, result.stderr.strip()[-300:]))
        return "boolean true" in result.stdout

    def wait_for(self, name, process=None, seconds=60, interval=0.05):
        """Returns once `name` has an owner; fails when `process` (meant to own it) exits first
        or after `seconds`."""
        give_up = time.monotonic() + seconds
        while not self.has_owner(name):
            if process is not None and process.poll() is not None:
                raise HarnessError("the process meant to own %s exited %s" % (name, process.returncode))
            if time.monotonic() > give_up:
                raise HarnessError("%s did not appear on the bus in %g s" % (name, seconds))
            time.sleep(interval)


class Daemon:
    """almanacd on a bus: `--state-dir state`, `--data-dir data` when given, then `arguments`;
    its standard output and error appended to `log_path`. Started (and waited for, until it
    owns org.almanac.Almanac1, at most `timeout` seconds) on creation unless `start=False`."""

    def __init__(self, bin_dir, bus, state, log_path, data=None, arguments=(), start=True, timeout=30):
        self.binary = os.path.join(bin_dir, "almanacd")
        self.bus = bus
        self.state = state
        self.data = data
        self.arguments = list(arguments)
        self.log_path = log_path
        self.timeout = timeout
        self.log = None
        self.process = None
        # kill9 may come from a timer thread while the caller stops or restarts the daemon.
        self.lock = threading.Lock()
        if start:
            self.start()

    def start(self, wait=True):
        """Starts almanacd (again); with `wait`, returns once it owns its name."""
        self.log = open(self.log_path, "a")
        argv = [self.binary, "--address", self.bus.address, "--state-dir", self.state]
        if self.data:
            argv += ["--data-dir", self.data]
        self.process = subprocess.Popen(argv + self.arguments, stdout=self.log, stderr=self.log)
        if wait:
            self.wait_for_name()

    def wait_for_name(self, timeout=None):
        seconds = self.timeout if timeout is None else timeout
        try:
            self.bus.wait_for(SERVICE, self.process, seconds, interval=0.02)
        except HarnessError as error:
            raise HarnessError("almanacd: %s; log: %s" % (error, self.log_path)) from None

    @property
    def pid(self):
        return self.process.pid

    def alive(self):
        return self.process.poll() is None

    def kill9(self):
        with self.lock:
            try:
                self.process.kill()
            except ProcessLookupError:
                pass
            self.process.wait()
            self.log.close()

    def stop(self, timeout=10):
        """SIGTERM, and SIGKILL if it has not exited within `timeout` seconds."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.kill9()
        self.log.close()

    def rss_kib(self):
        return rss_kib(self.pid)

    def fds(self):
        return len(os.listdir("/proc/%d/fd" % self.pid))

    def threads(self):
        return len(os.listdir("/proc/%d/task" % self.pid))

    def log_text(self):
        with open(self.log_path, errors="replace") as f:
            return f.read()


class FixtureServer:
    """A server of Tests/Fixtures (`feed_server.py`, `open_meteo_server.py`) on 127.0.0.1,
    with `arguments` (feed_server.py: the folder to serve instead of Tests/Fixtures/feeds).
    The servers print their port on their first line. `stderr`: where the server's errors go
    (by default this process's)."""

    def __init__(self, script="feed_server.py", *arguments, stderr=None, python=sys.executable):
        self.process = subprocess.Popen([python, os.path.join(FIXTURES, script), *arguments],
                                        stdout=subprocess.PIPE, stderr=stderr, text=True)
        line = self.process.stdout.readline()
        if not line.strip().isdigit():
            self.stop()
            raise HarnessError("%s %s did not start: %r" % (script, " ".join(arguments), line))
        self.port = int(line)
        self.base = "http://127.0.0.1:%d" % self.port

    def get(self, path):
        with urllib.request.urlopen(self.base + path, timeout=10) as answer:
            return answer.read().decode()

    def stop(self):
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
