#!/usr/bin/env python3
"""`make bench`: every figure as a ratio against a peer measured in the same run.

Runs almanacd (release build) and its peers side by side on private dbus-daemons, prints a
table, writes bench/results.json and the generated part of docs/performance.md. A peer that
cannot run or a result that is missing fails the run (exit 1); a missed target does not
(the table says MISS). QUICK=1 (--quick) runs fewer and shorter rounds and a smaller
library for the memory figure.

usage: run.py --bin DIR --installed DIR --peers DIR --python PYTHON [--quick] [--only NAME,…]

--installed: almanacd and almanac stripped as `make install` ships them (scripts/bench.sh
makes the copy); their sizes are measured and the daemon's memory is measured on it.
"""
import argparse
import datetime
import json
import os
import platform
import re
import shutil
import signal
import random
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import almanac_harness as harness  # noqa: E402 - the private bus and almanacd, shared with make stress

DAEMON = "org.almanac.Almanac1"
PEER = "org.almanac.BenchPeer1"
STUB = "org.almanac.BenchStub1"
WEATHER = "/org/almanac/Almanac1/weather"
# How long the daemon is left after a step before its memory is read: its idle pool threads
# end 5 s after their last work.
SETTLE_SECONDS = 7
# Issue 27's targets: installed (stripped) sizes in MB (10^6 bytes), RSS in MiB.
SIZE_TARGETS_MB = {"almanacd": 20, "almanac": 14}
IDLE_RSS_TARGET_MIB = 14
FETCHED_RSS_TARGET_MIB = 18


class BenchFailure(Exception):
    """A peer could not run or a result is missing: the run fails."""


def log(message):
    print(f"== {message}", file=sys.stderr, flush=True)


def run(command, env=None, timeout=600, input=None):
    """Runs a command to the end; its standard output, or BenchFailure with its error."""
    try:
        result = subprocess.run(command, env=env, timeout=timeout, input=input, capture_output=True, text=True)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise BenchFailure(f"{command[0]}: {error}")
    if result.returncode != 0:
        raise BenchFailure(f"{' '.join(command)} exited {result.returncode}: {result.stderr.strip()[-800:]}")
    return result.stdout


def fields(line, *names):
    """Reads "name value name value …" lines the drivers print."""
    values = {}
    for name in names:
        match = re.search(rf"\b{name} ([0-9.eE+-]+)", line)
        if not match:
            raise BenchFailure(f"no '{name}' in output: {line.strip()[:300]!r}")
        values[name] = float(match.group(1))
    return values


class Bench:
    def __init__(self, options):
        self.options = options
        self.quick = options.quick
        self.bin = os.path.abspath(options.bin)
        self.installed = os.path.abspath(options.installed)
        self.peers = os.path.abspath(options.peers)
        self.python = options.python
        self.work = tempfile.mkdtemp(prefix="almanac-bench-")
        self.children = []
        self.buses = []
        self.results = {}
        # Five rounds a side: with three, one unlucky round moved the change path's median by
        # ±10% on this shared machine (performance.md).
        self.rounds = 1 if self.quick else 5
        self.seconds = 1.0 if self.quick else 2.0

    # Processes

    def spawn(self, command, env=None, **extra):
        process = subprocess.Popen(command, env=env, **extra)
        self.children.append(process)
        return process

    def stop(self, process):
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if process in self.children:
            self.children.remove(process)

    def cleanup(self):
        for process in list(self.children):
            self.stop(process)
        for bus in self.buses:
            bus.stop()
        shutil.rmtree(self.work, ignore_errors=True)

    def bus(self, name, service_dir=None, log=None):
        """A private bus in the folder `name`; services in `service_dir` may be D-Bus
        activated, and write to `log` (the bus's standard error)."""
        bus = harness.Bus(os.path.join(self.work, name), service_dir=service_dir, log=log)
        self.buses.append(bus)
        return bus

    def daemon(self, bus, state, *arguments, installed=False):
        """almanacd on `bus` with its state in `state`, once it owns its name; its process.
        `installed`: the stripped copy `make install` would ship, not the build's."""
        daemon = harness.Daemon(self.installed if installed else self.bin, bus, state, os.path.join(self.work, os.path.basename(state) + ".log"),
                                arguments=arguments, timeout=60)
        self.children.append(daemon.process)
        return daemon.process

    def serve(self, folder):
        """The test suite's feed server for `folder`; (process, base URL of the folder's files)."""
        server = harness.FixtureServer("feed_server.py", folder, stderr=subprocess.DEVNULL)
        self.children.append(server.process)
        return server.process, f"{server.base}/feeds"

    def almanac(self, bus, *arguments, timeout=600):
        return run([f"{self.bin}/almanac", *arguments], env=bus.env(), timeout=timeout)

    # Checks

    def preflight(self):
        needed = [f"{self.bin}/almanacd", f"{self.bin}/almanac", f"{self.bin}/almanac-bench",
                  f"{self.installed}/almanacd", f"{self.installed}/almanac",
                  f"{self.peers}/bench-driver", f"{self.peers}/bench-server", f"{self.peers}/bench-stub"]
        for path in needed:
            if not os.access(path, os.X_OK):
                raise BenchFailure(f"{path} is missing (make bench builds it)")
        for tool in ["dbus-daemon", "dbus-send", "gdbus", "busctl", "hyperfine", "newsboat", "curl"]:
            if not shutil.which(tool):
                raise BenchFailure(f"{tool} is not installed (make bench installs it through apt-get)")
        run([self.python, "-c", "import podcastparser, feedparser, feedparser_rs"])

    # Figures

    def alternate(self, rounds, sides):
        """Runs each side's measurement `rounds` times, interleaved (A B A B …): drifting load
        hits both sides alike. Returns each side's list of results."""
        results = {name: [] for name in sides}
        for _ in range(rounds):
            for name, measure in sides.items():
                results[name].append(measure())
        return results

    def change_figures(self):
        bus = self.bus("change")
        daemon = self.daemon(bus, os.path.join(self.work, "change-state"), "--provider", "demo",
                             "--weather-interval", "3600", "--podcast-interval", "3600")
        server = self.spawn([f"{self.peers}/bench-server", bus.address, PEER, DAEMON])
        bus.wait_for(PEER, server)
        driver = f"{self.peers}/bench-driver"

        def change(destination, views, inflight):
            out = run([driver, "change", bus.address, destination, str(views), str(inflight), str(self.seconds)], timeout=300)
            return fields(out, "events", "rate", "p50_us", "p99_us")

        for views in [0, 1, 10, 100]:
            for inflight in [16, 1]:
                log(f"change path: {views} views, {inflight} in flight")
                sides = self.alternate(self.rounds, {
                    "almanacd": lambda: change(DAEMON, views, inflight),
                    "c": lambda: change(PEER, views, inflight),
                })
                key = f"change_{views}views_{'burst' if inflight > 1 else 'serial'}"
                self.results[key] = {
                    side: {
                        "rate": statistics.median(r["rate"] for r in runs),
                        "p50_ms": statistics.median(r["p50_us"] for r in runs) / 1000,
                        "p99_ms": statistics.median(r["p99_us"] for r in runs) / 1000,
                        "events": sum(r["events"] for r in runs),
                        "rounds": len(runs),
                    } for side, runs in sides.items()
                }
                self.results[key]["views"] = views
                self.results[key]["inflight"] = inflight

        # GetState, with saved places so the state is what a user's would be.
        self.almanac(bus, "locations", "add", "Berlin", "Paris", "Tokyo")
        for place in ["Berlin", "Paris", "Tokyo"]:  # each waits for its reading
            self.almanac(bus, "get", "weather", "--location", place)
        log("GetState: Swift client against C client, from almanacd and from the C server")

        def swift_getstate(destination):
            return fields(run([f"{self.bin}/almanac-bench", "getstate", bus.address, destination, str(self.seconds)]), "calls", "rate")

        def c_getstate(destination):
            return fields(run([driver, "getstate", bus.address, destination, str(self.seconds)]), "calls", "rate", "values")

        sides = self.alternate(self.rounds, {
            "swift_from_almanacd": lambda: swift_getstate(DAEMON), "c_from_almanacd": lambda: c_getstate(DAEMON),
            "swift_from_c_server": lambda: swift_getstate(PEER), "c_from_c_server": lambda: c_getstate(PEER),
        })
        self.results["getstate"] = {side: {"rate": statistics.median(r["rate"] for r in runs),
                                           "calls": sum(r["calls"] for r in runs)} for side, runs in sides.items()}
        if sides["c_from_almanacd"][0]["values"] != sides["c_from_c_server"][0]["values"]:
            raise BenchFailure("the C server's GetState differs from almanacd's")
        self.results["getstate"]["state_values"] = sides["c_from_almanacd"][0]["values"]

        # The CLI, whole process, against gdbus and busctl fetching the same state.
        log("CLI one-shot: hyperfine")
        export = os.path.join(self.work, "hyperfine.json")
        commands = {
            "almanac get weather": f"{self.bin}/almanac get weather",
            "gdbus call GetState": f"gdbus call --session --dest {DAEMON} --object-path {WEATHER} --method org.almanac.Document1.GetState",
            "busctl --user call GetState": f"busctl --user call {DAEMON} {WEATHER} org.almanac.Document1 GetState",
            "dbus-send --print-reply GetState": f"dbus-send --session --print-reply --dest={DAEMON} {WEATHER} org.almanac.Document1.GetState",
            "almanac --version": f"{self.bin}/almanac --version",
        }
        arguments = ["hyperfine", "-N", "--style", "none", "--warmup", "5", "--runs", "30" if self.quick else "100",
                     "--export-json", export]
        for name, command in commands.items():
            arguments += ["-n", name, command]
        run(arguments, env=bus.env(), timeout=900)
        with open(export) as source:
            measured = {entry["command"]: entry for entry in json.load(source)["results"]}
        self.results["cli"] = {name: {"median_ms": measured[name]["median"] * 1000,
                                      "mean_ms": measured[name]["mean"] * 1000,
                                      "stddev_ms": measured[name]["stddev"] * 1000} for name in commands}
        self.stop(server)
        self.stop(daemon)

    def parse_figures(self):
        corpus = os.path.join(self.options.cache, "corpus")
        stamp = os.path.join(corpus, ".complete")
        if not os.path.exists(stamp):
            log("generating the feed corpus")
            shutil.rmtree(corpus, ignore_errors=True)
            run([sys.executable, os.path.join(ROOT, "Benchmarks/feeds/generate.py"), "corpus", corpus, "--megabytes", "50"])
            open(stamp, "w").close()
        size = sum(os.path.getsize(os.path.join(corpus, f)) for f in os.listdir(corpus) if f.endswith(".xml"))
        files = len([f for f in os.listdir(corpus) if f.endswith(".xml")])
        # The Python parsers take minutes over 50 MB: they (and almanac-bench again, for the
        # ratio) parse every EVERY-th file, the same files for all.
        every = 10 if self.quick else 4
        seconds = str(1 if self.quick else 3)
        log(f"feed parsing: {files} feeds, {size / 1e6:.1f} MB (peers: every {every}th file)")
        swift_all = fields(run([f"{self.bin}/almanac-bench", "parse", corpus, seconds]), "rate", "bytes", "episodes")
        results = {"corpus_mb": size / 1e6, "corpus_files": files, "sample_every": every,
                   "almanac_full_corpus": swift_all}
        sides = {"almanac": lambda: fields(run([f"{self.bin}/almanac-bench", "parse", corpus, seconds, str(every)]),
                                           "rate", "bytes", "episodes")}
        for peer in ["podcastparser", "feedparser", "feedparser-rs"]:
            sides[peer] = (lambda peer=peer: fields(run([self.python, os.path.join(ROOT, "Benchmarks/feeds/parse_peers.py"),
                                                          peer, corpus, "--seconds", seconds, "--every", str(every)], timeout=900),
                                                     "rate", "bytes", "episodes"))
        measured = self.alternate(1 if self.quick else 2, sides)
        for side, runs in measured.items():
            results[side] = {"rate": statistics.median(r["rate"] for r in runs), "episodes": runs[0]["episodes"]}
        # Same files, same feeds: a parser that finds far fewer episodes is not doing the same work.
        found = {side: results[side]["episodes"] for side in measured}
        if max(found.values()) > 1.01 * min(found.values()):
            raise BenchFailure(f"the parsers found different numbers of episodes: {found}")
        self.results["parse"] = results

    def title_figures(self):
        """Title patterns (issue 39): TitlePattern's time per title for the worst pattern it
        takes, and for a usual one beside Python's re, Swift's Regex and NSRegularExpression."""
        rng = random.Random(39)
        topics = ["the garden in winter", "compost heaps", "an interview with Ada Lovelace", "Q&A with listeners", "live from Berlin",
                  "the news this week", "behind the scenes", "rivers, lakes and the sea, and what they mean to us (rerun)"]
        titles = []
        for n in range(2000):
            kind = rng.random()
            topic = rng.choice(topics)
            titles.append(f"Episode {n}: {topic}" if kind < 0.6 else f"Bonus: {topic}" if kind < 0.8 else f"{topic.capitalize()} — part {n % 7}")
        file = os.path.join(self.work, "titles.txt")
        with open(file, "w", encoding="utf-8") as out:
            out.write("\n".join(titles) + "\n")
        seconds = "0.5" if self.quick else "2"
        log("title patterns: TitlePattern (worst and usual) against Python re, Swift Regex, NSRegularExpression")
        ours = fields(run([f"{self.bin}/almanac-bench", "titles", file, seconds]), "worst_ns", "usual_ns", "regex_ns", "nsregex_ns", "matched")
        usual = "^episode \\d+:.*\\b(interview|q&a)\\b"
        peer = fields(run([self.python, os.path.join(ROOT, "Benchmarks/peers/titles_re.py"), file, usual, seconds]), "usual_ns", "matched")
        if peer["matched"] != ours["matched"]:
            raise BenchFailure(f"Python re matched {peer['matched']:.0f} titles, TitlePattern {ours['matched']:.0f}")
        self.results["titles"] = {"titles": len(titles), "matched": ours["matched"], "worst_pattern": "(?:\\w?){499}x",
                                  "usual_pattern": usual, "almanac": ours, "python_re_ns": peer["usual_ns"]}

    def inspect_figures(self):
        """`almanac podcasts inspect … --json`, whole process, as a user types it, on one big
        feed (24 MB, 20,000 episodes): from the file (parsed by the CLI itself) and from a
        URL (fetched by almanacd from a local server, handed over by descriptor, parsed by the
        CLI), against podcastparser + json.dump and feedparser-rs parsing alone, all whole
        processes timed by hyperfine in one run, output to /dev/null."""
        folder = os.path.join(self.options.cache, "big")
        feed = os.path.join(folder, "big.xml")
        if not os.path.exists(feed):
            log("generating the big feed")
            os.makedirs(folder, exist_ok=True)
            run([sys.executable, os.path.join(ROOT, "Benchmarks/feeds/generate.py"), "big", feed, "--episodes", "20000"])
        size = os.path.getsize(feed)
        bus = self.bus("inspect")
        daemon = self.daemon(bus, os.path.join(self.work, "inspect-state"), "--provider", "real",
                             "--weather-url", "http://127.0.0.1:9", "--geocoding-url", "http://127.0.0.1:9")
        server, base = self.serve(folder)
        url = f"{base}/big.xml"
        # The same feed either way: the URL's JSON is the file's.
        if self.almanac(bus, "podcasts", "inspect", feed, "--json") != self.almanac(bus, "podcasts", "inspect", url, "--json"):
            raise BenchFailure("inspect FILE and inspect URL printed different JSON for the same feed")
        log(f"inspect: {size / 1e6:.1f} MB, whole process, hyperfine")
        peers = os.path.join(ROOT, "Benchmarks/feeds/inspect_peers.py")
        commands = {
            "almanac podcasts inspect FILE --json": f"{self.bin}/almanac podcasts inspect {feed} --json",
            "almanac podcasts inspect URL --json": f"{self.bin}/almanac podcasts inspect {url} --json",
            "podcastparser + json.dump": f"{self.python} {peers} podcastparser-json {feed}",
            "feedparser-rs (parse only)": f"{self.python} {peers} feedparser-rs {feed}",
        }
        export = os.path.join(self.work, "inspect.json")
        arguments = ["hyperfine", "-N", "--style", "none", "--warmup", "1", "--runs", "3" if self.quick else "10", "--export-json", export]
        for name, command in commands.items():
            arguments += ["-n", name, command]
        run(arguments, env=bus.env(), timeout=1800)
        with open(export) as source:
            measured = {entry["command"]: entry for entry in json.load(source)["results"]}
        self.results["inspect"] = {"feed_mb": size / 1e6, "episodes": 20000,
                                   **{name: {"median_ms": measured[name]["median"] * 1000,
                                             "stddev_ms": measured[name]["stddev"] * 1000} for name in commands}}
        self.stop(server)
        self.stop(daemon)

    def refresh_figures(self):
        """`almanac podcasts refresh` of 200 subscriptions against newsboat's `-x reload`
        (`reload-threads 4`), the same feeds from the same local server, spread over 20
        loopback addresses as real subscriptions come from many servers: the first read
        (almanac: `podcasts import` of the OPML into a new daemon; newsboat: an empty cache),
        every feed changed, nothing changed (both ask conditionally), and every feed changed
        with 100 ms per answer. Whole commands, wall time, rounds interleaved."""
        count, hosts = 200, 20
        folder = os.path.join(self.options.cache, "refresh-feeds")
        if not os.path.exists(os.path.join(folder, "show%03d.xml" % (count - 1))):
            log("generating 200 feeds")
            run([sys.executable, os.path.join(ROOT, "Benchmarks/feeds/generate.py"), "library", folder,
                 "--feeds", str(count), "--episodes", "100"])
        server = self.spawn([sys.executable, os.path.join(ROOT, "Benchmarks/feeds/refresh_server.py"), folder, str(hosts)],
                            stdout=subprocess.PIPE, text=True)
        port = int(server.stdout.readline())
        control = f"http://127.0.0.2:{port}"
        urls = [f"http://127.0.0.{2 + n % hosts}:{port}/feed/{n}.xml" for n in range(count)]
        opml = os.path.join(self.work, "refresh.opml")
        with open(opml, "w") as out:
            out.write('<?xml version="1.0"?><opml version="2.0"><body>\n')
            out.writelines(f'<outline type="rss" text="Show {n}" xmlUrl="{url}"/>\n' for n, url in enumerate(urls))
            out.write("</body></opml>\n")
        newsboat = os.path.join(self.work, "newsboat")
        os.makedirs(newsboat, exist_ok=True)
        with open(os.path.join(newsboat, "urls"), "w") as out:
            out.writelines(url + "\n" for url in urls)
        with open(os.path.join(newsboat, "config"), "w") as out:
            out.write("reload-threads 4\n")
        # A home of its own: nothing read from or left in the user's ~/.newsboat or XDG folders.
        newsboat_env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": newsboat, "LANG": "C.UTF-8",
                        "XDG_CONFIG_HOME": os.path.join(newsboat, "xdg-config"),
                        "XDG_DATA_HOME": os.path.join(newsboat, "xdg-data"), "TERM": "dumb"}

        def mode(changed, delay=0.0):
            run(["curl", "-s", f"{control}/mode?changed={int(changed)}&delay={delay}"])

        def stats():
            return json.loads(run(["curl", "-s", f"{control}/stats?reset=1"]))

        def timed(command, env=None):
            began = time.perf_counter()
            subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=600)
            return time.perf_counter() - began

        # newsboat's peak RSS in each reload (its VmHWM, KiB), by phase: `-x reload` exits
        # when done, so its peak is what there is to compare; almanacd's is its VmHWM over
        # the same phase (reset before it).
        newsboat_peaks = {}
        phase = ["first"]

        def newsboat_reload(cache):
            began = time.perf_counter()
            usage = self.peak_of([
                "newsboat", "-q", "-u", os.path.join(newsboat, "urls"), "-c", cache,
                "-C", os.path.join(newsboat, "config"), "-x", "reload"], env=newsboat_env)
            newsboat_peaks.setdefault(phase[0], []).append(usage / 1024)
            return time.perf_counter() - began

        bus = self.bus("refresh")
        rounds = 2 if self.quick else 3
        results = {}

        # The first read: every feed unknown.
        mode(False)
        first = {"almanac": [], "newsboat": []}
        daemon = None
        almanac_peaks = {"first": []}
        for round in range(rounds):
            if daemon:
                self.stop(daemon)
            daemon = self.daemon(bus, os.path.join(self.work, f"refresh-state-{round}"), "--provider", "real",
                                 "--weather-url", "http://127.0.0.1:9", "--geocoding-url", "http://127.0.0.1:9",
                                 "--podcast-interval", "86400", installed=True)
            stats()
            first["almanac"].append(timed([f"{self.bin}/almanac", "podcasts", "import", opml], env=bus.env()))
            almanac_peaks["first"].append(self.memory(daemon.pid)["hwm_mib"])
            almanac_requests = stats()
            first["newsboat"].append(newsboat_reload(os.path.join(newsboat, f"cache-{round}.db")))
            newsboat_requests = stats()
        subscribed = len(json.loads(self.almanac(bus, "podcasts", "list", "--json"))["podcasts"])
        if subscribed != count:
            raise BenchFailure(f"almanac subscribed to {subscribed} feeds of {count}")
        results["first"] = {side: {"median_s": statistics.median(v)} for side, v in first.items()}
        results["first"]["requests"] = {"almanac": almanac_requests, "newsboat": newsboat_requests}
        log(f"refresh: first read's requests: {results['first']['requests']}")
        cache = os.path.join(newsboat, f"cache-{rounds - 1}.db")

        def refresh_almanac():
            return timed([f"{self.bin}/almanac", "podcasts", "refresh"], env=bus.env())

        for name, changed, delay in [("changed", True, 0.0), ("unchanged", False, 0.0), ("changed_latency", True, 0.1)]:
            log(f"refresh: {name.replace('_', ' with ')} (200 feeds, {hosts} hosts)")
            mode(changed, delay)
            phase[0] = "warm-up"
            if not changed:
                # Both have read the feeds' current version once, so both can ask conditionally.
                refresh_almanac()
                newsboat_reload(cache)
                stats()
            phase[0] = name
            self.reset_peak(daemon.pid)
            sides = self.alternate(rounds, {"almanac": refresh_almanac, "newsboat": lambda: newsboat_reload(cache)})
            almanac_peaks[name] = [self.memory(daemon.pid)["hwm_mib"]]
            results[name] = {side: {"median_s": statistics.median(v)} for side, v in sides.items()}
            results[name]["requests_both_sides"] = stats()
            log(f"refresh: {name}: requests in its rounds, both sides: {results[name]['requests_both_sides']}")
        mode(False)
        time.sleep(SETTLE_SECONDS)
        settled = self.memory(daemon.pid)
        self.stop(daemon)
        self.stop(server)
        results["memory"] = {
            "almanacd_peak_mib": {name: max(peaks) for name, peaks in almanac_peaks.items()},
            "newsboat_peak_mib": {name: max(peaks) for name, peaks in newsboat_peaks.items() if name != "warm-up"},
            "almanacd_settled": settled,
        }
        results["feeds"] = count
        results["hosts"] = hosts
        self.results["refresh"] = results

    def memory_figures(self):
        """The installed (stripped) daemon, real provider pointed at nothing, on a private
        bus, SETTLE_SECONDS after each step: idle (it has fetched nothing, so libcurl is not
        started), beside a C stub that only holds a name; with 1,000 views; a fresh daemon
        after its first fetch of a few small feeds from a local server; a fresh daemon after
        subscribing a library of generated feeds (100 × 5,000 episodes; QUICK 100 × 500)."""
        bus = self.bus("memory")
        offline = ["--provider", "real", "--weather-url", "http://127.0.0.1:9", "--geocoding-url", "http://127.0.0.1:9"]
        log(f"memory: idle, {SETTLE_SECONDS} s after start (installed daemon; a C stub beside it)")
        self.as_after_boot()
        daemon = self.daemon(bus, os.path.join(self.work, "memory-state"), *offline, installed=True)
        stub = self.spawn([f"{self.peers}/bench-stub", STUB],
                          env={**os.environ, "DBUS_STARTER_ADDRESS": bus.address, "DBUS_STARTER_BUS_TYPE": "session"})
        bus.wait_for(STUB, stub)
        time.sleep(SETTLE_SECONDS)
        idle = self.memory(daemon.pid)
        stub_idle = self.memory(stub.pid)
        self.stop(stub)
        log("memory: 1,000 views")
        holder = self.spawn([f"{self.peers}/bench-driver", "hold-views", bus.address, DAEMON, "1000"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        line = holder.stdout.readline()
        if not line.startswith("ready"):
            raise BenchFailure(f"bench-driver hold-views: {line!r}")
        time.sleep(1)
        views = self.memory(daemon.pid)
        holder.stdin.close()
        holder.wait()
        self.children.remove(holder)
        self.stop(daemon)
        # The idle daemon has fetched nothing, so it has not loaded libcurl (it does at the
        # first request). A fresh daemon after its first fetch, for comparison.
        fixtures = ["atom.xml", "rss2-itunes.xml", "podcasting20.xml"]
        log(f"memory: after a first fetch ({len(fixtures)} small feeds from a local server)")
        small = os.path.join(self.work, "small-feeds")
        os.makedirs(small, exist_ok=True)
        for name in fixtures:
            shutil.copy(os.path.join(ROOT, "Tests/Fixtures/feeds", name), small)
        server, base = self.serve(small)
        self.as_after_boot()
        daemon = self.daemon(bus, os.path.join(self.work, "fetch-state"), *offline, installed=True)
        self.almanac(bus, "podcasts", "subscribe", *[f"{base}/{name}" for name in fixtures])
        time.sleep(SETTLE_SECONDS)
        fetched = self.memory(daemon.pid)
        self.stop(server)
        self.stop(daemon)

        feeds, episodes = (100, 500) if self.quick else (100, 5000)
        log(f"memory: generating {feeds} feeds x {episodes} episodes")
        library = os.path.join(self.work, f"library-{feeds}x{episodes}")
        run([sys.executable, os.path.join(ROOT, "Benchmarks/feeds/generate.py"), "library", library,
             "--feeds", str(feeds), "--episodes", str(episodes)])
        log(f"memory: {feeds} feeds x {episodes} episodes")
        server, base = self.serve(library)
        daemon = self.daemon(bus, os.path.join(self.work, "library-state"), *offline, installed=True)
        urls = [f"{base}/{name}" for name in sorted(os.listdir(library)) if name.endswith(".xml")]
        started = time.time()
        for first in range(0, len(urls), 10):
            self.almanac(bus, "podcasts", "subscribe", *urls[first:first + 10], timeout=900)
        subscribing = time.time() - started
        # Feed URLs by template: the table drops that column on a narrow terminal.
        listed = self.almanac(bus, "podcasts", "list", "--format", "{{feedURL}}")
        if len([line for line in listed.splitlines() if base in line]) < feeds:
            raise BenchFailure(f"after subscribing {feeds} feeds, `almanac podcasts list` shows fewer:\n{listed[:500]}")
        time.sleep(SETTLE_SECONDS)
        loaded = self.memory(daemon.pid)
        self.stop(daemon)
        self.stop(server)
        shutil.rmtree(library, ignore_errors=True)
        self.results["memory"] = {"idle": idle, "stub_idle": stub_idle, "views_1000": views, "after_first_fetch": fetched,
                                  "first_fetch_feeds": len(fixtures), "library": loaded,
                                  "library_feeds": feeds, "library_episodes": episodes,
                                  "library_subscribe_seconds": subscribing, "settle_seconds": SETTLE_SECONDS}

    def as_after_boot(self):
        """Drops the installed daemon's and the stub's pages from the page cache, as after a
        boot, so that a start reads them from disk. A binary just written (the bench strips
        its copy) is in the page cache whole, and the kernel then maps up to 64 KiB around
        every page touched: the same start shows ~2 MiB more RSS than at a login."""
        for path in (os.path.join(self.installed, "almanacd"), f"{self.peers}/bench-stub"):
            fd = os.open(path, os.O_RDONLY)
            try:
                os.fsync(fd)
                os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
            finally:
                os.close(fd)

    def size_figures(self):
        """The installed binaries' sizes (stripped as `make install` strips them), and
        newsboat's as Debian ships it (stripped by dh_strip)."""
        sizes = {name: os.path.getsize(os.path.join(self.installed, name)) for name in ["almanacd", "almanac"]}
        unstripped = {name: os.path.getsize(os.path.join(self.bin, name)) for name in ["almanacd", "almanac"]}
        newsboat = os.path.realpath(shutil.which("newsboat"))
        for path in [*(os.path.join(self.installed, name) for name in sizes), newsboat]:
            if "not stripped" in run(["file", "-b", path]):
                raise BenchFailure(f"{path} is not stripped: its size is not what is installed")
        self.results["size"] = {"installed_bytes": sizes, "unstripped_bytes": unstripped,
                                "newsboat_bytes": os.path.getsize(newsboat),
                                "newsboat_version": run(["newsboat", "-v"]).split(" - ")[0].strip()}

    def idle_figures(self):
        """Context switches of almanacd (voluntary + involuntary, over all its threads) while
        nothing is due: no views, nothing saved or subscribed; then with one live view of a
        place (15-minute cadence) after its first fetch. No tick: both should be ~0."""
        seconds = 10 if self.quick else 60
        bus = self.bus("idle")
        log(f"idle: {seconds} s, no views, nothing due")
        daemon = self.daemon(bus, os.path.join(self.work, "idle-state"), "--provider", "real",
                             "--weather-url", "http://127.0.0.1:9", "--geocoding-url", "http://127.0.0.1:9")
        # Idle pool threads end 5 s after their last work: let them, before counting.
        time.sleep(7)
        idle = self.switches_over(daemon.pid, seconds)
        self.stop(daemon)
        log(f"idle: {seconds} s, one live view of a place")
        weather = harness.FixtureServer("open_meteo_server.py", stderr=subprocess.DEVNULL)
        self.children.append(weather.process)
        daemon = self.daemon(bus, os.path.join(self.work, "view-state"), "--provider", "real",
                             "--weather-url", weather.base, "--geocoding-url", weather.base, "--meteoalarm-url", weather.base,
                             "--weather-interval", "900")
        viewer = self.spawn([f"{self.bin}/almanac", "watch", "weather", "--location", "Berlin"], env=bus.env(),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(7)
        view = self.switches_over(daemon.pid, seconds)
        self.stop(viewer)
        self.stop(daemon)
        self.stop(weather.process)
        self.results["idle"] = {"seconds": seconds, "idle_switches": idle, "view_switches": view}

    @staticmethod
    def switches(pid):
        """Each thread's context switches (voluntary + involuntary), by thread id."""
        counts = {}
        for task in os.listdir(f"/proc/{pid}/task"):
            try:
                with open(f"/proc/{pid}/task/{task}/status") as status:
                    counts[task] = sum(int(line.split()[1]) for line in status
                                       if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")))
            except FileNotFoundError:
                pass
        return counts

    def switches_over(self, pid, seconds):
        """Wake-ups over `seconds`: each thread's new switches, a new thread's all, and one
        per thread that ended (its count goes with it)."""
        before = self.switches(pid)
        time.sleep(seconds)
        after = self.switches(pid)
        ended = sum(1 for task in before if task not in after)
        return ended + sum(count - before.get(task, 0) for task, count in after.items())

    @staticmethod
    def memory(pid):
        """RSS and its high-water mark, and how the RSS splits (anonymous, file-backed), MiB."""
        values = {}
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                key, _, rest = line.partition(":")
                if key in ("VmRSS", "VmHWM", "RssAnon", "RssFile", "Threads"):
                    values[key] = int(rest.split()[0])
        if "VmRSS" not in values:
            raise BenchFailure(f"no VmRSS for {pid}")
        # Pss: each shared page divided among the processes that map it (libc's, libdbus's…).
        with open(f"/proc/{pid}/smaps_rollup") as rollup:
            for line in rollup:
                key, _, rest = line.partition(":")
                if key in ("Pss", "Pss_Anon", "Pss_File"):
                    values[key] = int(rest.split()[0])
        if "Pss" not in values:
            raise BenchFailure(f"no Pss for {pid}")
        return {"rss_mib": values["VmRSS"] / 1024, "hwm_mib": values["VmHWM"] / 1024,
                "anon_mib": values["RssAnon"] / 1024, "file_mib": values["RssFile"] / 1024,
                "pss_mib": values["Pss"] / 1024, "pss_anon_mib": values.get("Pss_Anon", 0) / 1024,
                "pss_file_mib": values.get("Pss_File", 0) / 1024, "threads": values["Threads"]}

    @staticmethod
    def reset_peak(pid):
        """Starts VmHWM afresh at the current RSS (proc(5): clear_refs, 5)."""
        with open(f"/proc/{pid}/clear_refs", "w") as out:
            out.write("5")

    def peak_of(self, command, env=None, timeout=600):
        """Runs `command` to the end; its peak RSS, KiB: its VmHWM, read every 10 ms until it
        exits. Not wait4's ru_maxrss: Linux carries the maximum over exec, so a child of this
        Python process would report this process's RSS (300 MiB after the inspect figures)
        whenever that is larger. What rises in the last 10 ms before exit is missed."""
        process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.children.append(process)
        deadline = time.monotonic() + timeout
        peak = 0
        while True:
            try:
                with open(f"/proc/{process.pid}/status") as status:
                    for line in status:
                        if line.startswith("VmHWM:"):
                            peak = max(peak, int(line.split()[1]))
            except OSError:
                pass
            if process.poll() is not None:
                break
            if time.monotonic() > deadline:
                process.kill()
                process.wait()
                raise BenchFailure(f"{command[0]} did not finish within {timeout} s")
            time.sleep(0.01)
        self.children.remove(process)
        if process.returncode != 0:
            raise BenchFailure(f"{' '.join(command)} exited {process.returncode}")
        if peak == 0:
            raise BenchFailure(f"no VmHWM read for {command[0]}")
        return peak

    def start_figures(self):
        services = os.path.join(self.work, "services")
        os.makedirs(services, exist_ok=True)
        state = os.path.join(self.work, "start-state")
        with open(os.path.join(services, f"{DAEMON}.service"), "w") as out:
            out.write(f"[D-BUS Service]\nName={DAEMON}\nExec={self.bin}/almanacd --state-dir {state}\n")
        with open(os.path.join(services, f"{STUB}.service"), "w") as out:
            out.write(f"[D-BUS Service]\nName={STUB}\nExec={self.peers}/bench-stub {STUB}\n")
        bus = self.bus("start", services, log=os.path.join(self.options.cache, "start-bus.log"))
        count = 5 if self.quick else 10
        log("daemon start: D-Bus activation, almanacd against a C stub")

        stuck = {DAEMON: 0, STUB: 0}

        def starts(name):
            out = run([f"{self.peers}/bench-driver", "start", bus.address, name, str(count)], timeout=600)
            lines = out.splitlines()
            stuck[name] += sum(1 for line in lines if line.startswith("stuck"))
            samples = [float(line) / 1000 for line in lines if not line.startswith("stuck")]
            if len(samples) != count:
                raise BenchFailure(f"start of {name}: {out!r}")
            return samples

        sides = self.alternate(2 if self.quick else 3, {"almanacd": lambda: starts(DAEMON), "stub": lambda: starts(STUB)})
        self.results["start"] = {side: {"median_ms": statistics.median(x for r in runs for x in r),
                                        "samples": len(runs) * count} for side, runs in sides.items()}
        self.results["start"]["almanacd"]["ignored_sigterm"] = stuck[DAEMON]
        self.results["start"]["stub"]["ignored_sigterm"] = stuck[STUB]

    # Report

    def machine(self):
        model = "unknown"
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
        with open("/proc/meminfo") as info:
            memory = int(info.readline().split()[1]) // 1024
        swift = subprocess.run(["swift", "--version"], capture_output=True, text=True).stdout.splitlines()
        return {
            "cpu": model, "cores": os.cpu_count(), "memory_mib": memory, "kernel": platform.release(),
            "swift": next((line for line in swift if "Swift version" in line), "unknown").strip(),
            "libdbus": run(["pkg-config", "--modversion", "dbus-1"]).strip(),
            "load_average": os.getloadavg(),
        }

    def table(self):
        rows = []
        r = self.results

        def row(figure, ours, peer, ratio, target, met):
            rows.append({"figure": figure, "almanac": ours, "peer": peer, "ratio": ratio, "target": target,
                         "status": "ok" if met else "MISS"})

        if "change_1views_burst" in r:
            base = r["change_1views_burst"]
            base_ratio = base["almanacd"]["rate"] / base["c"]["rate"]
            for views in [1, 10, 100]:
                burst = r[f"change_{views}views_burst"]
                ratio = burst["almanacd"]["rate"] / burst["c"]["rate"]
                target, met = ("≥ 0.8× C", ratio >= 0.8) if views == 1 else ("ratio ≥ 1-view ratio (scales like C)", ratio >= base_ratio)
                row(f"change → {views} view{'s' if views > 1 else ''}, events/s (16 in flight)",
                    f"{burst['almanacd']['rate']:.0f}/s", f"C {burst['c']['rate']:.0f}/s", ratio, target, met)
            for views in [1, 10, 100]:
                serial = r[f"change_{views}views_serial"]
                for p in ["p50", "p99"]:
                    ours, theirs = serial["almanacd"][f"{p}_ms"], serial["c"][f"{p}_ms"]
                    if p == "p50":
                        row(f"Submit → Updated at {views} view{'s' if views > 1 else ''}, p50", f"{ours:.2f} ms",
                            f"C {theirs:.2f} ms", ours / theirs, "(reported)", True)
                    else:
                        met = ours / theirs <= 2 and (views != 100 or ours <= 5)
                        row(f"Submit → Updated at {views} view{'s' if views > 1 else ''}, p99", f"{ours:.2f} ms",
                            f"C {theirs:.2f} ms", ours / theirs, "≤ 2× C" + (", ≤ 5 ms" if views == 100 else ""), met)
            burst, serial = r["change_0views_burst"], r["change_0views_serial"]
            ratio = burst["almanacd"]["rate"] / burst["c"]["rate"]
            row("Submit → Changed + reply, calls/s (16 in flight)", f"{burst['almanacd']['rate']:.0f}/s",
                f"C server {burst['c']['rate']:.0f}/s", ratio, "≥ 0.8× C", ratio >= 0.8)
            ours, theirs = serial["almanacd"]["p99_ms"], serial["c"]["p99_ms"]
            row("Submit → Changed + reply, p99 one at a time", f"{ours:.2f} ms", f"C server {theirs:.2f} ms",
                ours / theirs, "≤ 2× C", ours / theirs <= 2)
        if "getstate" in r:
            g = r["getstate"]
            values = g["state_values"]
            ratio = g["swift_from_c_server"]["rate"] / g["c_from_c_server"]["rate"]
            row(f"GetState calls/s, Swift client vs C client (C server, {values} values)", f"{g['swift_from_c_server']['rate']:.0f}/s",
                f"C {g['c_from_c_server']['rate']:.0f}/s", ratio, "≥ 0.8× C", ratio >= 0.8)
            ratio = g["swift_from_almanacd"]["rate"] / g["c_from_almanacd"]["rate"]
            row("GetState calls/s, Swift client vs C client (from almanacd)", f"{g['swift_from_almanacd']['rate']:.0f}/s",
                f"C {g['c_from_almanacd']['rate']:.0f}/s", ratio, "≥ 0.8× C", ratio >= 0.8)
            ratio = g["c_from_almanacd"]["rate"] / g["c_from_c_server"]["rate"]
            row("GetState calls/s served, almanacd vs C server (C client)", f"{g['c_from_almanacd']['rate']:.0f}/s",
                f"C server {g['c_from_c_server']['rate']:.0f}/s", ratio, "(reported)", True)
        if "cli" in r:
            c = r["cli"]
            ours = c["almanac get weather"]["median_ms"]
            for peer, target in [("gdbus call GetState", 1.0), ("busctl --user call GetState", None),
                                 ("dbus-send --print-reply GetState", None)]:
                theirs = c[peer]["median_ms"]
                row(f"`almanac get weather` median (vs {peer.split()[0]})", f"{ours:.2f} ms", f"{theirs:.2f} ms",
                    ours / theirs, "≤ 1.0×" if target else "(reported)", ours / theirs <= target if target else True)
            row("`almanac --version` median (vs gdbus)", f"{c['almanac --version']['median_ms']:.2f} ms",
                f"{c['gdbus call GetState']['median_ms']:.2f} ms",
                c["almanac --version"]["median_ms"] / c["gdbus call GetState"]["median_ms"], "(reported)", True)
        if "inspect" in r:
            i = r["inspect"]
            for ours in ["almanac podcasts inspect FILE --json", "almanac podcasts inspect URL --json"]:
                for peer, target in [("podcastparser + json.dump", 5.0), ("feedparser-rs (parse only)", 1.0)]:
                    speedup = i[peer]["median_ms"] / i[ours]["median_ms"]
                    row(f"`{ours.removeprefix('almanac ')}`, {i['feed_mb']:.0f} MB / {i['episodes']:,} episodes, whole process (vs {peer})",
                        f"{i[ours]['median_ms']:.0f} ms", f"{i[peer]['median_ms']:.0f} ms", speedup, f"≥ {target:g}× faster", speedup >= target)
        if "refresh" in r:
            f = r["refresh"]
            for name, label, target in [("first", "first read (almanac: import)", 1.0), ("changed", "every feed changed", 1.0),
                                        ("unchanged", "nothing changed", 1.0), ("changed_latency", "every feed changed, 100 ms an answer", 0.3)]:
                ours, theirs = f[name]["almanac"]["median_s"], f[name]["newsboat"]["median_s"]
                row(f"refresh {f['feeds']} feeds on {f['hosts']} hosts, {label} (vs newsboat, 4 reload threads)",
                    f"{ours:.2f} s", f"{theirs:.2f} s", ours / theirs, f"≤ {target:g}×", ours / theirs <= target)
        if "parse" in r:
            p = r["parse"]
            ours = p["almanac"]["rate"]
            for peer, target in [("podcastparser", 5.0), ("feedparser-rs", 1.0), ("feedparser", None)]:
                theirs = p[peer]["rate"]
                row(f"feed parsing MB/s, the parser alone in memory (vs {peer})", f"{ours:.1f} MB/s", f"{theirs:.2f} MB/s", ours / theirs,
                    f"≥ {target:g}×" if target else "(reported)", ours / theirs >= target if target else True)
            row("feed parsing MB/s, whole corpus", f"{p['almanac_full_corpus']['rate']:.1f} MB/s",
                f"{p['corpus_mb']:.0f} MB, {p['corpus_files']} feeds", None, "(reported)", True)
        if "titles" in r:
            t = r["titles"]
            ours, peer = t["almanac"], t["python_re_ns"]
            row(f"title pattern, µs per title: the worst TitlePattern takes (`{t['worst_pattern']}`, 1,000 steps) on 150 `a`s "
                f"(vs Python re, usual pattern)", f"{ours['worst_ns'] / 1000:.0f} µs", f"{peer / 1000:.1f} µs", ours["worst_ns"] / peer,
                "≤ 10 ms (bounded)", ours["worst_ns"] <= 10_000_000)
            for name, theirs in [("Python re", peer), ("Swift Regex", ours["regex_ns"]), ("NSRegularExpression", ours["nsregex_ns"])]:
                shown = t["usual_pattern"].replace("|", "\\|")  # in a table
                row(f"title pattern, µs per title: usual pattern `{shown}` over {t['titles']:,} titles (vs {name})",
                    f"{ours['usual_ns'] / 1000:.2f} µs", f"{theirs / 1000:.2f} µs", ours["usual_ns"] / theirs, "(reported)", True)
        if "size" in r:
            z = r["size"]
            theirs = z["newsboat_bytes"] / 1e6
            for name, target in SIZE_TARGETS_MB.items():
                ours = z["installed_bytes"][name] / 1e6
                row(f"installed size of `{name}`, stripped as `make install` ships it (vs {z['newsboat_version']}, Debian's)",
                    f"{ours:.1f} MB", f"{theirs:.1f} MB", ours / theirs, f"≤ {target} MB (issue 27)", ours <= target)
        def split(x):
            return f"{x['rss_mib']:.1f} MiB (anon {x['anon_mib']:.1f} + file {x['file_mib']:.1f}; Pss {x['pss_mib']:.1f})"

        if "memory" in r:
            m = r["memory"]
            stub = m["stub_idle"]
            row(f"daemon RSS idle, {m['settle_seconds']} s after start, nothing fetched (vs a C libdbus stub holding a name)",
                split(m["idle"]), split(stub), m["idle"]["rss_mib"] / stub["rss_mib"],
                f"≤ {IDLE_RSS_TARGET_MIB} MiB (issue 27)", m["idle"]["rss_mib"] <= IDLE_RSS_TARGET_MIB)
            row(f"daemon RSS after its first fetch ({m['first_fetch_feeds']} small feeds, local server)",
                split(m["after_first_fetch"]), f"itself idle: {m['idle']['rss_mib']:.1f} MiB",
                m["after_first_fetch"]["rss_mib"] / m["idle"]["rss_mib"], f"≤ {FETCHED_RSS_TARGET_MIB} MiB (issue 27)",
                m["after_first_fetch"]["rss_mib"] <= FETCHED_RSS_TARGET_MIB)
            row(f"daemon RSS, {m['library_feeds']} feeds × {m['library_episodes']:,} episodes (local server)",
                split(m["library"]), f"peak {m['library']['hwm_mib']:.1f} MiB", None,
                "≤ 60 MiB", m["library"]["rss_mib"] <= 60)
            row("daemon RSS, 1,000 views", split(m["views_1000"]), "—", None, "(reported)", True)
        if "refresh" in r and "memory" in r["refresh"]:
            f = r["refresh"]["memory"]
            for name, label in [("first", "first read (almanac: import; newsboat: empty cache)"),
                                ("changed", "every feed changed")]:
                ours, theirs = f["almanacd_peak_mib"][name], f["newsboat_peak_mib"][name]
                row(f"peak RSS refreshing {r['refresh']['feeds']} feeds, {label}: almanacd's VmHWM (vs newsboat `-x reload`'s)",
                    f"{ours:.1f} MiB", f"{theirs:.1f} MiB", ours / theirs, "(reported)", True)
            row(f"daemon RSS after all four refresh phases of {r['refresh']['feeds']} feeds above, settled", split(f["almanacd_settled"]),
                "newsboat: exits after `-x reload`", None, "(reported)", True)
        if "idle" in r:
            i = r["idle"]
            # The floor: libdispatch's Linux worker-pool monitor wakes its manager thread once a second.
            floor = i["seconds"] + 5
            row(f"daemon wakeups (context switches) in {i['seconds']} s, nothing due", f"{i['idle_switches']}",
                "libdispatch pool monitor: 1/s", None, f"≤ {floor} (no tick)", i["idle_switches"] <= floor)
            row(f"daemon wakeups in {i['seconds']} s, one live view (15-min cadence, fetched)", f"{i['view_switches']}",
                "libdispatch pool monitor: 1/s", None, f"≤ {floor} (no fetch due)", i["view_switches"] <= floor)
        if "start" in r:
            s = r["start"]
            ours, theirs = s["almanacd"]["median_ms"], s["stub"]["median_ms"]
            row("start: exec → name owned (D-Bus activation), median", f"{ours:.1f} ms", f"C stub {theirs:.1f} ms",
                ours / theirs, "≤ 50 ms", ours <= 50)
            ignored, samples = s["almanacd"]["ignored_sigterm"], s["almanacd"]["samples"]
            row("stop: SIGTERM just after the name appears", f"{samples - ignored} of {samples} stopped",
                f"C stub {s['stub']['samples'] - s['stub']['ignored_sigterm']} of {s['stub']['samples']}", None,
                "every one", ignored == 0)
        return rows

    @staticmethod
    def markdown(rows):
        lines = ["| figure | Almanac | peer | ratio | target | |", "|---|---|---|---|---|---|"]
        for row in rows:
            ratio = "—" if row["ratio"] is None else f"{row['ratio']:.2f}×"
            lines.append(f"| {row['figure']} | {row['almanac']} | {row['peer']} | {ratio} | {row['target']} | {row['status']} |")
        return "\n".join(lines)

    def write(self, rows, machine, started, elapsed):
        report = {"date": started, "quick": self.quick, "seconds": round(elapsed, 1), "machine": machine,
                  "table": rows, "results": self.results}
        os.makedirs(os.path.join(ROOT, "bench"), exist_ok=True)
        with open(os.path.join(ROOT, "bench/results.json"), "w") as out:
            json.dump(report, out, indent=2, ensure_ascii=False)
            out.write("\n")
        page = os.path.join(ROOT, "docs/performance.md")
        with open(page) as source:
            text = source.read()
        begin, end = "<!-- bench:begin -->", "<!-- bench:end -->"
        if begin not in text or end not in text:
            raise BenchFailure(f"{page} lacks the {begin} … {end} markers")
        load = ", ".join(f"{x:.1f}" for x in machine["load_average"])
        block = (f"{begin}\nLatest run: {started}{' (QUICK=1: fewer, shorter rounds)' if self.quick else ''}, "
                 f"{elapsed / 60:.1f} min. Machine: {machine['cpu']}, {machine['cores']} cores, "
                 f"{machine['memory_mib']} MiB, Linux {machine['kernel']}, {machine['swift']}, libdbus "
                 f"{machine['libdbus']}; load average at the end {load} (the machine is shared).\n\n"
                 f"{self.markdown(rows)}\n{end}")
        text = text[:text.index(begin)] + block + text[text.index(end) + len(end):]
        with open(page, "w") as out:
            out.write(text)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--installed", required=True, help="almanacd and almanac stripped as make install ships them")
    parser.add_argument("--peers", required=True)
    parser.add_argument("--python", required=True)
    parser.add_argument("--cache", required=True, help="where generated feeds are kept between runs")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--only", default="change,inspect,refresh,parse,titles,size,memory,start,idle")
    options = parser.parse_args()
    bench = Bench(options)
    started = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    began = time.time()
    try:
        bench.preflight()
        figures = {"change": bench.change_figures, "inspect": bench.inspect_figures, "refresh": bench.refresh_figures, "parse": bench.parse_figures,
                   "titles": bench.title_figures,
                   "size": bench.size_figures, "memory": bench.memory_figures, "start": bench.start_figures,
                   "idle": bench.idle_figures}
        for name in options.only.split(","):
            figures[name]()
        rows = bench.table()
        print(bench.markdown(rows))
        if options.only == parser.get_default("only"):
            bench.write(rows, bench.machine(), started, time.time() - began)
            print("\nwrote bench/results.json and docs/performance.md")
        else:
            print("\n(--only: bench/results.json and docs/performance.md left as they were)")
    except (BenchFailure, harness.HarnessError) as failure:
        print(f"make bench: FAILED: {failure}", file=sys.stderr)
        return 1
    finally:
        bench.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
