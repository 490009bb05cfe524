#!/usr/bin/python3
"""make stress: fault, load and bad-input runs against the real almanacd and almanac.

Everything runs on this machine: private dbus-daemons (with the session bus's limits),
the fixture HTTP server on 127.0.0.1, state in temporary folders. Every section is
bounded in time and in count; each prints what it measured and whether it held, and the
whole run ends with a table (the one in docs/reliability.md) and a non-zero status when
any bound was not met.

    scripts/stress.py                       # every section
    scripts/stress.py vanish crash          # some of them
    STRESS_BIN=.build/debug scripts/stress.py

Knobs (environment): STRESS_BIN (folder of almanacd/almanac, default .build/release),
STRESS_CYCLES (register/vanish cycles, 10000), STRESS_WRITES (acknowledged writes, 1000),
STRESS_LOAD_SECONDS (60), STRESS_FLOOD (calls in flight, 10000), STRESS_SEED.

Uses Debian's python3-dbus (and GLib through python3-gi for the load section and the fuzz
section's media player), and python3-jeepney for the fuzz section, which belong to
/usr/bin/python3.

Each section is a file of its own, scripts/stress_<section>.py, with a run(); what they
share (results, log, D-Bus calls, a section's processes) is scripts/stress_common.py, the
bus, almanacd and the fixture servers scripts/almanac_harness.py.
"""
import json
import os
import sys
import time
import traceback

import stress_badinput
import stress_bombs
import stress_busloss
import stress_crash
import stress_cycles
import stress_disk
import stress_flood
import stress_fuzz
import stress_heavy
import stress_load
import stress_network
import stress_sandbox
import stress_search
import stress_slowviews
import stress_syscalls
import stress_vanish
from stress_common import BIN, REPO, RESULTS, SEED, log, record

# In the order they run.
SECTIONS = {"vanish": stress_vanish, "cycles": stress_cycles, "crash": stress_crash, "busloss": stress_busloss,
            "network": stress_network, "disk": stress_disk, "sandbox": stress_sandbox, "syscalls": stress_syscalls,
            "badinput": stress_badinput, "bombs": stress_bombs, "fuzz": stress_fuzz, "flood": stress_flood, "heavy": stress_heavy, "search": stress_search, "load": stress_load, "slowviews": stress_slowviews}


def main():
    chosen = sys.argv[1:] or list(SECTIONS)
    for name in chosen:
        if name not in SECTIONS:
            sys.exit("unknown section %s; choose from %s" % (name, ", ".join(SECTIONS)))
    for program in ["almanacd", "almanac"]:
        if not os.access(os.path.join(BIN, program), os.X_OK):
            sys.exit("%s/%s is not built (make stress builds it; or set STRESS_BIN)" % (BIN, program))
    log("stress: binaries from %s, seed %d" % (BIN, SEED))
    began = time.monotonic()
    for name in chosen:
        try:
            SECTIONS[name].run()
        except Exception as error:  # noqa: BLE001 - a section that breaks is a failure, the others still run
            traceback.print_exc()
            record(name, "the section itself", "runs to the end", False, "raised %s: %s" % (type(error).__name__, error))
    log("== summary (%.0f s)" % (time.monotonic() - began))
    print("| section | what was tried | bound | held | measured |")
    print("|---|---|---|---|---|")
    for r in RESULTS:
        held = "skipped" if r.get("skipped") else "yes" if r["held"] else ("no (known)" if r["known"] else "**no**")
        print("| %s | %s | %s | %s | %s |" % (r["section"], r["what"], r["bound"], held, r["measured"]))
    out = os.path.join(REPO, ".build", "stress-results.json")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "w") as f:
        json.dump({"seed": SEED, "bin": BIN, "results": RESULTS}, f, indent=1)
    sys.exit(0 if all(r["held"] or r["known"] for r in RESULTS) else 1)


if __name__ == "__main__":
    main()
