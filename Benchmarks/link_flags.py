#!/usr/bin/env python3
"""The start-up rows of `make bench`, side by side in one run, for builds of the same source
linked differently (docs/performance.md, "Position-independent binaries"):

    Benchmarks/link_flags.py NAME=DIR NAME=DIR … PEERS [quick]

each DIR holding `almanacd` and `almanac` stripped as `make install` ships them, PEERS the
C peers `scripts/bench.sh` builds (bench-driver). The CLI one-shot (`almanac get weather`
against one daemon with three places, the first build's; `almanac --version`): one run of
each build in turn, wall time and CPU time (user + system, from wait4), medians. Daemon
start by D-Bus activation (`bench-driver start`), rounds alternating the builds. Idle RSS of
each daemon 7 s after start, alternating. Prints JSON."""
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
import almanac_harness as harness

# NAME=DIR … PEERS [quick]: the first build serves the CLI runs.
QUICK = sys.argv[-1] == "quick"
args_ = sys.argv[1:-1] if QUICK else sys.argv[1:]
PEERS = args_[-1]
SIDES = dict(a.split("=", 1) for a in args_[:-1])
A = next(iter(SIDES.values()))
work = tempfile.mkdtemp(prefix="pie-bench-")
DAEMON = "org.almanac.Almanac1"
WEATHER = "/org/almanac/Almanac1/weather"
results = {}

# CLI: one daemon (A's), three places, both CLIs.
bus = harness.Bus(os.path.join(work, "cli"))
daemon = harness.Daemon(A, bus, os.path.join(work, "cli-state"), os.path.join(work, "cli.log"),
                        arguments=("--provider", "demo", "--demo-seed", "7"), timeout=60)
for place in ["Berlin", "Paris", "Tokyo"]:
    subprocess.run([f"{A}/almanac", "locations", "add", place], env=bus.env(), check=True, capture_output=True)
subprocess.run([f"{A}/almanac", "get", "weather"], env=bus.env(), check=True, capture_output=True)
# Interleaved, one run of each side in turn (A B C D A B C D …), so that the machine's load
# falls on every side alike; wall time and the CPU time the process used (user + system, from
# wait4), which a loaded machine disturbs far less.
def once(command):
    started = time.perf_counter()
    process = subprocess.Popen(command, env=bus.env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    if status != 0:
        raise RuntimeError(f"{command} exited {status}")
    return wall * 1000, (usage.ru_utime + usage.ru_stime) * 1000

runs = 60 if QUICK else 200
cli = {}
for what, argv in [("get weather", ["get", "weather"]), ("--version", ["--version"])]:
    for name, folder in SIDES.items():
        for _ in range(5):
            once([f"{folder}/almanac", *argv])
    samples = {name: [] for name in SIDES}
    for i in range(runs):
        order = list(SIDES.items()) if i % 2 == 0 else list(reversed(SIDES.items()))
        for name, folder in order:
            samples[name].append(once([f"{folder}/almanac", *argv]))
    for name, values in samples.items():
        cli[f"{name} {what}"] = {"wall_ms": round(statistics.median(v[0] for v in values), 2),
                                 "cpu_ms": round(statistics.median(v[1] for v in values), 2)}
results["cli_median"] = cli
results["cli_runs"] = runs
daemon.stop()
bus.stop()

# Daemon start by activation, and idle RSS: a bus per build.
buses = {}
for side, folder in SIDES.items():
    services = os.path.join(work, f"services-{side}")
    os.makedirs(services)
    with open(os.path.join(services, f"{DAEMON}.service"), "w") as out:
        out.write(f"[D-BUS Service]\nName={DAEMON}\nExec={folder}/almanacd --state-dir {work}/start-state-{side}\n")
    buses[side] = harness.Bus(os.path.join(work, f"start-{side}"), service_dir=services)
starts = {side: [] for side in SIDES}
count = 5 if QUICK else 10
for _ in range(3 if QUICK else 5):
    for side in SIDES:
        out = subprocess.run([f"{PEERS}/bench-driver", "start", buses[side].address, DAEMON, str(count)], capture_output=True, text=True, check=True).stdout
        starts[side] += [float(line) / 1000 for line in out.splitlines() if not line.startswith("stuck")]
results["start_median_ms"] = {side: statistics.median(samples) for side, samples in starts.items()}
results["start_samples"] = {side: len(samples) for side, samples in starts.items()}

def status(pid):
    values = {}
    for line in open(f"/proc/{pid}/status"):
        key, _, value = line.partition(":")
        if key in ("VmRSS", "RssAnon", "RssFile"):
            values[key] = int(value.split()[0])
    return values

rss = {side: [] for side in SIDES}
for round_ in range(2 if QUICK else 3):
    for side, folder in SIDES.items():
        d = harness.Daemon(folder, buses[side], os.path.join(work, f"rss-{side}-{round_}"), os.path.join(work, f"rss-{side}.log"),
                           arguments=("--provider", "real", "--weather-url", "http://127.0.0.1:9"), timeout=60)
        time.sleep(7)
        rss[side].append(status(d.pid))
        d.stop()
results["idle_kib_median"] = {side: {key: statistics.median(v[key] for v in values) for key in values[0]} for side, values in rss.items()}
for b in buses.values():
    b.stop()
results["load_average"] = os.getloadavg()
shutil.rmtree(work, ignore_errors=True)
print(json.dumps(results, indent=1))
