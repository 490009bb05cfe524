"""What the opt-in sync checks share (scripts/check_mygpoclient.py, check_fastapi_router.py):
their lines of results, and the desktop — one almanacd on a private bus with no weather and
no timers of its own, driven through the `almanac` CLI.

    checks = Checks()
    desktop = Desktop(bin_dir, folder)             # the bus, then almanacd on it
    checks.check("a subscription reaches almanacd", url in desktop.podcasts(), desktop.sync())
    desktop.stop()
    checks.exit()                                  # "N passed, N failed", exit 1 when one failed
"""
import json
import os
import subprocess
import time

import almanac_harness as harness


class Checks:
    """A line per check ("ok  NAME", or "FAIL NAME: DETAIL", the detail cut at `detail_limit`)."""

    def __init__(self, detail_limit=500):
        self.results = []
        self.detail_limit = detail_limit

    def check(self, name, ok, detail=""):
        self.results.append(ok)
        print("%s %s%s" % ("ok  " if ok else "FAIL", name, "" if ok or not detail else ": " + str(detail)[:self.detail_limit]), flush=True)

    def exit(self):
        """Prints "N passed, N failed" and exits, 1 when a check failed."""
        passed = sum(1 for ok in self.results if ok)
        print("%d passed, %d failed" % (passed, len(self.results) - passed))
        raise SystemExit(0 if passed == len(self.results) else 1)


class Desktop:
    """almanacd with its state and data in `folder` (log: almanacd.log), on a bus of its own:
    real providers pointed at nothing (port 9), refreshes and syncs only when asked."""

    def __init__(self, bin_dir, folder):
        self.bin_dir = bin_dir
        self.folder = folder
        self.daemon = None
        self.bus = harness.Bus()
        self.bus.start()
        self.daemon = harness.Daemon(bin_dir, self.bus, state=os.path.join(folder, "state"), data=os.path.join(folder, "data"),
                                     log_path=os.path.join(folder, "almanacd.log"),
                                     arguments=["--provider", "real", "--weather-url", "http://127.0.0.1:9", "--geocoding-url", "http://127.0.0.1:9",
                                                "--air-quality-url", "http://127.0.0.1:9", "--met-norway-url", "http://127.0.0.1:9",
                                                "--weather-interval", "3600", "--podcast-interval", "3600",
                                                "--sync-debounce", "3600", "--sync-interval", "86400"])

    def almanac(self, *arguments, stdin=None):
        """`almanac ARGUMENTS`: its exit status, standard output and error."""
        done = subprocess.run([os.path.join(self.bin_dir, "almanac"), *arguments], input=stdin, capture_output=True, text=True,
                              env=self.bus.env(NO_COLOR="1"), timeout=120)
        return done.returncode, done.stdout, done.stderr

    def sync(self):
        """`almanac sync now --json`'s report, or what failed."""
        status, out, err = self.almanac("sync", "now", "--json")
        try:
            return json.loads(out)
        except ValueError:
            return {"failed": status, "error": err.strip()}

    def podcasts(self):
        """The podcasts subscribed to: id by feed URL."""
        lines = self.almanac("podcasts", "list", "--format", "{{id}} {{feedURL}}")[1].split("\n")
        return {line.split(" ", 1)[1]: line.split(" ", 1)[0] for line in lines if " " in line}

    def wait_for_first_sync(self, tries):
        """Waits (`tries` tenths of a second at most) for the sync a login starts."""
        for _ in range(tries):
            _, out, _ = self.almanac("sync", "status", "--json")
            if out.strip() and json.loads(out).get("lastSync"):
                return
            time.sleep(0.1)

    def stop(self):
        if self.daemon:
            self.daemon.stop()
        self.bus.stop()
