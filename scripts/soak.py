#!/usr/bin/python3
"""make soak: a month of a user's life in minutes (issue 41).

almanacd (the release build, as `make install` builds it) runs on a simulated clock
(`ALMANAC_SIMULATED_CLOCK`) with everything else real: a private session bus and a private
system bus (python-dbusmock's logind and NetworkManager), SQLite, the HTTP fixtures on 20
loopback hosts, the CLI. This script moves the clock event by event — to the scenario's next
event, or to the daemon's own next deadline (its report, `.reached`) — and waits for the
daemon to have caught up (its clock there, no work under way) before moving it again, so
that what happens does not depend on how loaded the machine is. The month
(scripts/soak_world.py, from SOAK_SEED):

- 200 podcasts on 20 hosts (scripts/soak_feeds.py), their episodes out on schedules from
  every 6 hours to weekly; 24 download new episodes by themselves, keep 2 to 5, 8 of them
  delete what was played after 6 hours to 2 days; 5 join the Up Next queue; 20 have their own
  refresh interval, a quarter of the servers give a <ttl>
- 5 saved places, their weather hourly-changing (Tests/Fixtures/open_meteo_server.py), official
  alerts (NWS, MET Norway land and marine, MeteoAlarm) in force in windows of 2 to 18 hours
- 50 view clients coming and going (scripts/soak_views.py) and three `almanac watch`
- the laptop sleeping each night and once or twice a day, the network dropping two or three
  times a day (a network namespace of the soak's own whose packets are rejected meanwhile,
  and NetworkManager saying so)
- an hourly sync with Tests/Fixtures/gpodder_server.py, where a phone plays episodes each evening
- a media player (scripts/soak_player.py) playing the queue through in the listening hours

Each simulated day (at noon) it measures almanacd and checks the library; at the end it
compares day 1 with the last day and checks every refresh, alert, cleanup and log line
(scripts/soak_checks.py). Exits non-zero when a check fails.

    scripts/soak.py                 # SOAK_DAYS=30, SOAK_SEED=41, SOAK_BIN=.build-release/release
    SOAK_DAYS=3 scripts/soak.py     # the quick form

Results: a table on standard output, .build/soak-results.json, the per-day figures.
"""
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import soak_machine  # noqa: E402 (re-executes itself in a network namespace first)

NETNS = soak_machine.in_own_network()

import dbus  # noqa: E402

import soak_checks  # noqa: E402
from soak_machine import Machine, SimulatedClock, SoakError, dump  # noqa: E402
from soak_world import DAY, HOUR, PLACES, World  # noqa: E402
from stress_common import REPO, Section, all_episodes, call, connect, log  # noqa: E402

BIN = os.path.abspath(os.path.join(REPO, os.environ.get("SOAK_BIN", ".build-release/release")))
DAYS = int(os.environ.get("SOAK_DAYS", "30"))
SEED = int(os.environ.get("SOAK_SEED", "41"))
SCRIPTS = os.path.dirname(os.path.abspath(__file__))
PODCASTS = "/org/almanac/Almanac1/podcasts"
# The daemon's cadences: the shipped defaults, and the hourly sync the issue asks for.
WEATHER_INTERVAL, ALERTS_INTERVAL, PODCAST_INTERVAL, SYNC_INTERVAL = 900, 600, 3600, 3600


class Soak:
    def __init__(self, section):
        self.section = section
        self.world = World(SEED, DAYS)
        self.folder = section.folder
        self.seed = SEED
        self.intervals = {"weather": WEATHER_INTERVAL, "alerts": ALERTS_INTERVAL, "podcast": PODCAST_INTERVAL, "sync": SYNC_INTERVAL}
        self.events = []
        self.results = []
        self.days = []
        self.cleanup_checks = []
        self.kept = []
        self.phone_plays = []
        self.phone_waiting = []    # the phone's actions posted while the soak's network was down
        self.seconds = 0
        self.began = time.monotonic()
        # Real seconds spent, by event kind and in moves of the clock: [count, seconds].
        self.spent = {}
        # SOAK_TRACE=1: each move of the clock and the daemon's report after it, in trace.log.
        self.trace = open(os.path.join(self.folder, "trace.log"), "w") if os.environ.get("SOAK_TRACE") else None
        self.podcast_ids = {}      # feed id -> podcast id
        self.feed_urls = {}        # feed id -> URL
        self.logs = {name: os.path.join(self.folder, name + ".log") for name in ["almanacd", "feeds", "weather", "player", "gpodder"]}

    # ---- processes

    def start(self):
        world, folder = self.world, self.folder
        self.clock = SimulatedClock(os.path.join(folder, "simulated-clock"), world.start)
        os.environ["ALMANAC_SIMULATED_CLOCK"] = self.clock.path
        os.environ["XDG_CONFIG_HOME"] = os.path.join(folder, "config")
        self.plan_path = os.path.join(folder, "plan.json")
        dump(self.plan_path, world.plan())
        schedule = os.path.join(folder, "alerts.json")
        dump(schedule, world.alert_schedule())
        self.bus = self.section.bus()
        self.machine = Machine(self.section, NETNS)
        self.feeds = self.section.spawn(["/usr/bin/python3", os.path.join(SCRIPTS, "soak_feeds.py"), self.plan_path, self.logs["feeds"]],
                                        stdout=subprocess.PIPE, text=True)
        self.ports = json.loads(self.feeds.stdout.readline())
        for feed in world.feeds:
            self.feed_urls[feed["id"]] = "http://%s:%d/feed/%s.xml" % (feed["host"], self.ports[feed["host"]], feed["id"])
        self.weather = self.section.server("open_meteo_server.py", "--alert-schedule", schedule, "--request-log", self.logs["weather"])
        self.weather.get("/control?hours=now&dst=on")
        self.gpodder = self.section.server("gpodder_server.py")
        base = self.weather.base
        arguments = ["--weather-url", base, "--geocoding-url", base, "--air-quality-url", base, "--met-norway-url", base,
                     "--nws-url", base, "--metalerts-url", base, "--meteoalarm-url", base,
                     "--system-bus-address", self.machine.bus.address, "--mpris-poll", "0.5",
                     "--weather-interval", str(WEATHER_INTERVAL), "--alerts-interval", str(ALERTS_INTERVAL),
                     "--podcast-interval", str(PODCAST_INTERVAL), "--sync-interval", str(SYNC_INTERVAL)]
        self.daemon = soak_machine.harness.Daemon(BIN, self.bus, os.path.join(folder, "state"), self.logs["almanacd"],
                                                  data=os.path.join(folder, "data"), arguments=arguments)
        self.section.cleanups.append(lambda: self.daemon.alive() and self.daemon.stop())
        self.player = self.section.spawn(["/usr/bin/python3", os.path.join(SCRIPTS, "soak_player.py"), self.bus.address, self.plan_path,
                                          self.logs["player"]], stdout=subprocess.PIPE, text=True)
        assert self.player.stdout.readline().strip() == "ready"
        self.views_done = os.path.join(folder, "views.done")
        self.views_stats = os.path.join(folder, "views.json")
        self.views = self.section.spawn(["/usr/bin/python3", os.path.join(SCRIPTS, "soak_views.py"), self.bus.address, self.plan_path,
                                         self.views_done, self.views_stats], stdout=subprocess.PIPE, text=True)
        assert self.views.stdout.readline().strip() == "ready"
        self.view_times = sorted({action[0] for action in world.views})
        self.connection = connect(self.bus)

    def watchers(self):
        """Three `almanac watch`, the month long: the weather of every saved place (as a status
        bar would), its alerts as JSON lines, and the podcasts."""
        self.watches = {}
        for name, arguments in [("weather", ["watch", "weather"]), ("weather-json", ["watch", "weather", "--json"]),
                                ("podcasts", ["watch", "podcasts"])]:
            out = open(os.path.join(self.folder, "watch-%s.out" % name), "w")
            self.watches[name] = (self.section.spawn([os.path.join(BIN, "almanac"), *arguments], env=self.bus.env(), stdout=out,
                                                     stderr=subprocess.STDOUT), out.name)

    def pids(self):
        """The processes of the soak whose time is counted: almanacd and what it talks to."""
        return {"almanacd": self.daemon.pid, "dbus-daemon": self.bus.process.pid, "feeds": self.feeds.pid,
                "weather": self.weather.process.pid, "views": self.views.pid, "player": self.player.pid, "driver": os.getpid()}

    def cli(self, *arguments, stdin=None, check=True):
        result = subprocess.run([os.path.join(BIN, "almanac"), *arguments], env=self.bus.env(), input=stdin, capture_output=True,
                                text=True, timeout=120)
        if check and result.returncode != 0:
            raise SoakError("almanac %s exited %d: %s" % (" ".join(arguments), result.returncode, result.stderr.strip()[-500:]))
        return result

    # ---- the library

    def setup(self):
        """Subscribes the 200 podcasts (an OPML import), sets their own settings, saves the
        places, logs in to the sync server and chooses the player; then the clock runs."""
        world = self.world
        opml = os.path.join(self.folder, "podcasts.opml")
        with open(opml, "w") as f:
            f.write('<?xml version="1.0"?>\n<opml version="2.0"><head><title>Soak</title></head><body>\n')
            for feed in world.feeds:
                f.write('<outline type="rss" text="%s" xmlUrl="%s"/>\n' % (feed["title"], self.feed_urls[feed["id"]]))
            f.write("</body></opml>\n")
        imported = json.loads(self.cli("podcasts", "import", opml, "--json").stdout)
        if imported.get("failed"):
            raise SoakError("podcasts failed to subscribe: %s" % imported["failed"])
        listed = json.loads(self.cli("podcasts", "list", "--json").stdout)
        by_url = {p["feedURL"]: p["id"] for p in listed["podcasts"]}
        self.podcast_ids = {feed: by_url[url] for feed, url in self.feed_urls.items()}
        for feed, settings in world.settings.items():
            for name, value in settings.items():
                self.cli("podcasts", "settings", self.podcast_ids[feed], name, value)
        self.cli("locations", "add", *PLACES)
        self.cli("settings", "set", "player", "%s %s {media}" % (os.path.join(SCRIPTS, "soak_open.sh"), self.bus.address))
        self.cli("sync", "login", self.gpodder.base, "alice", "--device", "laptop", stdin="s3cret\n")
        self.watchers()

    # ---- the month

    def plan_events(self):
        world, events = self.world, []
        for begin, end in world.sleeps:
            events.append((begin, 0, "sleep", end))
        for begin, end in world.drops:
            events.append((begin, 1, "drop", None))
            events.append((end, 1, "return", None))
        for begin, end in world.listening:
            events.append((begin, 2, "listen", True))
            events.append((end, 2, "listen", False))
        for moment, feeds in world.phone:
            events.append((moment, 3, "phone", feeds))
        for moment, feed in world.keeps:
            events.append((moment, 3, "keep", feed))
        for window in world.alerts:
            for moment, present in [(window["onset"], True), (window["expires"], False)]:
                check = soak_checks.alert_check_time(world, moment, ALERTS_INTERVAL)
                # Looked at while the alert is (still, or no longer) in force, before the month ends.
                if check < world.end and (not present or check < window["expires"]):
                    events.append((check, 4, "alerts", (window, present)))
        # Each evening at 22:30, once the day's listening, downloads and syncs are done (day 1:
        # the first evening, with every part of the daemon at work since the morning).
        for day in range(DAYS):
            events.append((world.start + 14 * HOUR + 30 * 60 + day * DAY, 5, "measure", day + 1))
        for moment in range(world.start + 3 * HOUR, world.end, 3 * HOUR):
            events.append((moment, 5, "downloads", None))
        events.append((world.end, 6, "end", None))
        self.events = sorted(events, key=lambda e: (e[0], e[1]))

    def run(self):
        self.plan_events()
        self.began = began = time.monotonic()
        self.clock.caught_up(self.daemon)
        views_next = 0
        for moment, _, kind, argument in self.events:
            while self.clock.now < moment:
                report = self.clock.rested
                target = moment
                if report and report["next"] is not None and report["next"] < target:
                    target = SimulatedClock.after(report["next"])
                while views_next < len(self.view_times) and self.view_times[views_next] <= self.clock.now:
                    views_next += 1
                if views_next < len(self.view_times) and self.view_times[views_next] < target:
                    target = self.view_times[views_next]
                self.move(target)
            started = time.monotonic()
            getattr(self, "on_" + kind)(argument)
            self.clock.settled(self.daemon)
            spent = self.spent.setdefault(kind, [0, 0.0])
            spent[0] += 1
            spent[1] += time.monotonic() - started
            if kind == "measure":
                log("day %d: %.0f s so far, %d moves, %s; cpu %s" % (argument, time.monotonic() - began, self.clock.moves, self.days[-1]["line"],
                                                                    self.days[-1]["cpu"]))
        self.seconds = time.monotonic() - began
        log("real time spent: %s" % ", ".join("%s %d×, %.1f s" % (k, n, t) for k, (n, t) in sorted(self.spent.items(), key=lambda kv: -kv[1][1])))

    def move(self, target):
        started = time.monotonic()
        self.clock.set(target)
        report = self.clock.caught_up(self.daemon, also=self.views_caught_up)
        if self.trace:
            self.trace.write("%.6f %s\n" % (target, report))
        spent = self.spent.setdefault("moves", [0, 0.0])
        spent[0] += 1
        spent[1] += time.monotonic() - started

    def views_caught_up(self):
        try:
            with open(self.views_done) as f:
                return float(f.read().strip() or 0) >= self.clock.now - 1e-5
        except (OSError, ValueError):
            return False
        finally:
            if self.views.poll() is not None:
                raise SoakError("the view clients exited (status %s)" % self.views.returncode)

    def await_log(self, text, since, **metadata):
        """Waits until almanacd's log has a line with `text` and each of `metadata` (as the
        journal writes it, ` key=value`) after offset `since` (the daemon heard a signal)."""
        wanted = [" %s=%s" % item for item in metadata.items()]
        give_up = time.monotonic() + 60
        while time.monotonic() < give_up:
            with open(self.logs["almanacd"], errors="replace") as f:
                f.seek(since)
                if any(text in line and all(w in line for w in wanted) for line in f.read().splitlines()):
                    return
            time.sleep(0.002)
        raise SoakError("almanacd did not log %r %s within 60 s" % (text, " ".join(wanted)))

    def log_size(self):
        return os.path.getsize(self.logs["almanacd"])

    # ---- events

    def on_sleep(self, end):
        """The laptop sleeps: logind says so, the player pauses, and nothing runs until it
        wakes (the clock jumps); then logind says it woke and the daemon catches up."""
        self.machine.prepare_for_sleep(True)
        self.player_call("Hold", True)
        self.move(end)
        since = self.log_size()
        self.machine.prepare_for_sleep(False)
        self.await_log("the machine woke from sleep", since)
        self.clock.settled(self.daemon)
        if any(begin <= end < stop for begin, stop in self.world.listening):
            self.on_listen(True)

    def when(self):
        return time.strftime("%d %b %H:%M", time.gmtime(self.clock.now))

    def on_drop(self, _):
        since = self.log_size()
        self.machine.network(False)
        self.await_log("the network changed", since, network="offline")

    def on_return(self, _):
        since = self.log_size()
        self.machine.network(True)
        if self.phone_waiting:
            soak_checks.post_json(self.gpodder.base + "/api/2/episodes/alice.json", self.phone_waiting, ("alice", "s3cret"))
            self.phone_waiting = []
        self.await_log("the network changed", since, network="online")

    def player_call(self, method, *arguments):
        player = dbus.Interface(self.connection.get_object("org.mpris.MediaPlayer2.soak", "/org/mpris/MediaPlayer2"), "org.almanac.Soak1")
        return getattr(player, method)(*arguments)

    def on_listen(self, listening):
        """The listening hours: the player plays on where it was; when it has nothing open (or
        stopped at the end of the last), `almanac episode play --next` starts the queue's head."""
        self.player_call("Hold", not listening)
        if not listening:
            return
        state = json.loads(self.player_call("History"))
        queue = call(self.connection, PODCASTS, "org.almanac.Podcasts1", "GetQueue")
        log("  %s: listening; the player %s, %d queued" % (self.when(), state["status"], len(queue)))
        if (state["url"] is None or state["status"] == "Stopped") and len(queue) > 0:
            played = self.cli("episode", "play", "--next")
            log("  %s: the queue's head plays (%d queued): %s" % (self.when(), len(queue), played.stdout.strip()[:200]))

    def on_phone(self, feeds):
        """The phone plays the newest episode of each podcast to its end: its actions go to the
        sync server, and the daemon's next hourly sync brings them here."""
        actions = []
        for feed_id in feeds:
            feed = next(f for f in self.world.feeds if f["id"] == feed_id)
            n = self.world.newest_episode(feed, self.clock.now)
            audio = "http://%s:%d/audio/%s/%d.mp3" % (feed["host"], self.ports[feed["host"]], feed_id, n)
            stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(self.clock.now - 60))
            actions.append({"podcast": self.feed_urls[feed_id], "episode": audio, "action": "play", "device": "phone",
                            "timestamp": stamp, "started": 0, "position": feed["length"], "total": feed["length"]})
        # The soak's network drop rejects every TCP packet in its namespace, the driver's too:
        # the phone (a device of its own) sends what it played once the network is back.
        if self.machine.online:
            soak_checks.post_json(self.gpodder.base + "/api/2/episodes/alice.json", actions, ("alice", "s3cret"))
        else:
            self.phone_waiting += actions
        self.phone_plays += [(self.clock.now, a["episode"]) for a in actions]

    def on_keep(self, feed_id):
        """The user keeps the newest downloaded episode of a podcast: no cleanup may delete it."""
        episodes = [e for e in all_episodes(self.connection, self.podcast_ids[feed_id]) if e.get("file")]
        if episodes:
            newest = max(episodes, key=lambda e: int(e["published"]))
            self.cli("episode", "keep", str(newest["id"]))
            self.kept.append((str(newest["id"]), str(newest["file"])))

    def on_alerts(self, argument):
        window, present = argument
        self.results.append(soak_checks.check_alert(self, window, present))

    def on_downloads(self, _):
        problems = soak_checks.check_downloads(self, all_episodes(self.connection))
        self.cleanup_checks.append({"at": self.clock.now, "problems": problems})
        if problems:
            log("  downloads at %s: %s" % (time.strftime("%d %b %H:%M", time.gmtime(self.clock.now)), problems[:3]))

    def on_measure(self, day):
        self.days.append(soak_checks.measure(self, day))

    def on_end(self, _):
        pass


def main():
    for program in ["almanacd", "almanac"]:
        if not os.access(os.path.join(BIN, program), os.X_OK):
            sys.exit("%s/%s is not built (make soak builds it; or set SOAK_BIN)" % (BIN, program))
    log("soak: %d simulated days, seed %d, binaries from %s, %s" % (DAYS, SEED, BIN, "in a network namespace of its own"
                                                                     if NETNS else "network drops told by NetworkManager alone"))
    with Section("soak") as section:
        soak = Soak(section)
        try:
            soak.start()
            soak.setup()
            soak.run()
            results = soak_checks.final(soak)
        except SoakError as error:
            log("soak: %s" % error)
            results = soak.results + [{"what": "the month itself", "bound": "runs to the end", "held": False, "measured": str(error)}]
            soak.seconds = 0
        finally:
            soak_checks.keep_logs(soak)
        soak_checks.report(soak, results)
    sys.exit(0 if all(r["held"] for r in results) else 1)


if __name__ == "__main__":
    main()
