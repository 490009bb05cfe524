#!/usr/bin/python3
"""`make stress`, section fuzz (scripts/stress.py runs it): the contract fuzzer
(scripts/fuzz_contract.py) over every method of every object of a daemon that has a
library, a queue, a download, a transcript, views, a sync account and a player, with the
whole set of boundary values (1 MiB strings, 10,000-element arrays and `a{sv}`s included).
Bound: 0 deaths, 0 hangs, 0 changes on errors, 0 errors without a proper name.

Run alone, it fuzzes a daemon of its own (`--bin`, default .build/release), or attaches to
one already running (`--address`, and `--pid` to watch it), which is how
IntegrationTests' ContractFuzzerTests runs its quick form in `make test`:

    scripts/stress_fuzz.py [--quick] [--bin .build/debug]
    scripts/stress_fuzz.py --quick --address unix:path=/tmp/…/bus --pid 1234

`--quick`: fewer values per type, no 1 MiB or 10,000-element values (about a minute).
Prints what it did (calls, per object, deaths, hangs, changes on error) and exits 1 when
any bound failed, 2 when the stage could not be set up."""
import argparse
import json
import os
import sys
import traceback

import fuzz_contract
from fuzz_stage import Stage


def attach(address, alive=lambda: True, quick=False, restart=None, log=print):
    """Sets the stage on the daemon at `address`, fuzzes it, and returns the report; `alive`
    says whether the daemon's process still runs, `restart` starts it again after a death
    (without one, the run ends at the first death)."""
    stage = Stage(address, log)
    try:
        stage.start()
        log("fuzz: stage set (podcast %s, episodes %s, job %s, views %s)" % (stage.podcast, stage.episodes, stage.job, sorted(stage.views)))
        return fuzz_contract.Fuzzer(stage, quick=quick, alive=alive, restart=restart, log=log).run()
    finally:
        stage.stop()


def running(pid):
    """Whether process `pid` runs (not a zombie)."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except OSError:
        return False


def daemon_arguments(weather, directory):
    """almanacd's options for the real provider whose network is the local fixture servers."""
    arguments = ["--provider", "real", "--weather-interval", "3600", "--podcast-interval", "3600", "--podcast-search-url", directory]
    for option in ["--weather-url", "--geocoding-url", "--air-quality-url", "--met-norway-url", "--nws-url", "--metalerts-url", "--meteoalarm-url"]:
        arguments += [option, weather]
    return arguments


def run(quick=False):
    """The stress section: a bus, the fixture servers and almanacd of its own; rows in the results."""
    from stress_common import Section, log, record
    with Section("fuzz") as s:
        bus = s.bus()
        weather, directory = s.server("open_meteo_server.py"), s.server("directory_server.py")
        daemon = s.daemon(bus, arguments=daemon_arguments(weather.base, directory.base))

        def restart():
            daemon.stop()
            log("  almanacd ended with %s; started again" % daemon.process.returncode)
            daemon.start()
        report = attach(bus.address, daemon.alive, quick=quick, restart=restart, log=log)
        for line in fuzz_contract.summary(report):
            log(line)
        named = sorted(role for role in report["per_object"] if not role.startswith("/"))
        record("fuzz", "the contract fuzzer: %d calls on every method (%d) of every object (%s, and %d nodes between them)"
               % (report["calls"], len(report["methods"]), ", ".join(named), len(report["per_object"]) - len(named)),
               "0 deaths, 0 hangs, 0 changes on errors, only named errors",
               fuzz_contract.held(report),
               "%d deaths, %d hangs, %d changes on error, %d improper errors; %d returns, %d errors; %.0f s; slowest %.1f s"
               % (len(report["deaths"]), len(report["hangs"]), len(report["changes"]), len(report["improper"]), report["returns"],
                  report["errors"], report["seconds"], report["slowest"][0][0] if report["slowest"] else 0))
        return report


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer values per type, no 1 MiB or 10,000-element ones")
    parser.add_argument("--address", help="the bus of an almanacd already running (else one of its own is started)")
    parser.add_argument("--pid", type=int, help="the process id of that almanacd, to see it die")
    parser.add_argument("--bin", help="the folder of almanacd, when it starts its own (default .build/release)")
    parser.add_argument("--json", help="also write the report to this file")
    options = parser.parse_args()
    try:
        if options.address:
            alive = (lambda: running(options.pid)) if options.pid else (lambda: True)
            report = attach(options.address, alive, quick=options.quick, log=lambda line: print(line, flush=True))
            for line in fuzz_contract.summary(report):
                print(line, flush=True)
        else:
            if options.bin:
                os.environ["STRESS_BIN"] = options.bin
            report = run(quick=options.quick)
    except Exception:  # noqa: BLE001 - a stage that cannot be set is its own exit status
        traceback.print_exc()
        sys.exit(2)
    if options.json:
        with open(options.json, "w") as f:
            json.dump(report, f, indent=1)
    sys.exit(0 if fuzz_contract.held(report) else 1)


if __name__ == "__main__":
    main()
