#!/usr/bin/env bash
# `make hot-functions`: rewrites release/hot-functions.txt, the order the release link lays
# functions out in (lld --symbol-ordering-file; see docs/performance.md, "Memory").
#
# Runs the release binaries under callgrind on a private bus, against the test fixtures
# (Open-Meteo stand-in, feed server), and lists the functions each phase ran, by phase:
#   1. almanacd starting and sitting idle (nothing to fetch);
#   2. `almanac get weather` and `almanac get podcasts`;
#   3. a day's work: a place watched, a feed subscribed, an episode downloaded, views coming
#      and going, settings changed, SIGTERM.
# Only names the binaries define are kept. A stale list is harmless (unknown names are
# skipped); it only lays out less well.
set -euo pipefail
cd "$(dirname "$0")/.."
swift=${SWIFT:-swift}
source scripts/private-bus.sh
# The order file itself is not needed to learn the names: build without it.
flags=(${HOT_FLAGS:?run this through make hot-functions, which passes HOT_FLAGS})
# Product by product: TestHarness (Swift Testing) does not build with --static-swift-stdlib.
for product in almanacd almanac; do $swift build "${flags[@]}" --product "$product"; done
built=$($swift build "${flags[@]}" --show-bin-path)

work=$(mktemp -d)
# Run copies without debug information (the symbol table stays): valgrind 3.19 cannot read
# the DWARF 5 that clang writes for the C targets, and gives up on the whole binary.
bin="$work/bin"
mkdir "$bin"
for binary in almanacd almanac; do objcopy --strip-debug "$built/$binary" "$bin/$binary"; done
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; private_bus_stop; rm -rf "$work"; }
trap cleanup EXIT

private_bus_start
python3 Tests/Fixtures/open_meteo_server.py >"$work/meteo.port" 2>/dev/null &
pids+=($!)
mkdir "$work/feeds"
cp Tests/Fixtures/feeds/*.xml "$work/feeds/"
python3 Tests/Fixtures/feed_server.py "$work/feeds" >"$work/feeds.port" 2>/dev/null &
pids+=($!)
for _ in $(seq 100); do
  [ -s "$work/meteo.port" ] && [ -s "$work/feeds.port" ] && break
  sleep 0.05
done
for ready in meteo.port feeds.port; do
  [ -s "$work/$ready" ] || { echo "hot-functions: a fixture server did not start ($ready)" >&2; exit 1; }
done
meteo="http://127.0.0.1:$(head -1 "$work/meteo.port")"
feeds="http://127.0.0.1:$(head -1 "$work/feeds.port")"
# A feed whose episode can be downloaded from the feed server.
cat >"$work/feeds/downloadable.xml" <<EOF
<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>Downloadable</title><link>$feeds/</link>
<item><title>One</title><guid>one</guid><pubDate>Sun, 22 Nov 2026 10:00:00 +0000</pubDate>
<enclosure url="$feeds/audio/one.mp3?size=300000" length="300000" type="audio/mpeg"/></item>
</channel></rss>
EOF

owned() { dbus-send --session --print-reply --dest=org.freedesktop.DBus / org.freedesktop.DBus.NameHasOwner \
            string:org.almanac.Almanac1 2>/dev/null | grep -q 'boolean true'; }

# Phase 1 and 3: the daemon, dumped once idle and again at the end.
valgrind --tool=callgrind --demangle=no --dump-instr=no --callgrind-out-file="$work/daemon.%p" \
  "$bin/almanacd" --weather-url "$meteo" --geocoding-url "$meteo" --meteoalarm-url "$meteo" --state-dir "$work/state" \
  --data-dir "$work/data" 2>"$work/valgrind.log" &
daemon=$!
pids+=($daemon)
for _ in $(seq 600); do owned && break; sleep 0.1; done
owned || { cat "$work/valgrind.log"; echo "hot-functions: almanacd did not start" >&2; exit 1; }
# Under callgrind start-up work in the background (the first scan for media players,
# timers) takes many times longer than it does natively: give it time to finish.
sleep 15
# vgdb interrupts the daemon (via ptrace) to take the dump: bounded, and checked.
timeout 120 callgrind_control --dump=idle "$daemon" >/dev/null
for _ in $(seq 100); do [ -s "$work/daemon.$daemon.1" ] && break; sleep 0.1; done
[ -s "$work/daemon.$daemon.1" ] || { echo "hot-functions: callgrind_control did not dump the idle daemon" >&2; exit 1; }

# Phase 2: the one-shot CLI (a place first, so `get` has something to print).
# watch registers a view, fetches the place, prints; it runs until stopped.
timeout 20 "$bin/almanac" watch weather --location Berlin >/dev/null || true
timeout 60 "$bin/almanac" podcasts subscribe "$feeds/feeds/downloadable.xml" >/dev/null
for what in weather podcasts; do
  valgrind --tool=callgrind --demangle=no --dump-instr=no --callgrind-out-file="$work/cli-$what" \
    "$bin/almanac" get "$what" >/dev/null 2>>"$work/valgrind.log"
done

# Phase 3: the rest of a day's work.
for feed in atom.xml cdata.xml entities.xml; do
  timeout 60 "$bin/almanac" podcasts subscribe "$feeds/feeds/$feed" >/dev/null || true
done
episode=$(timeout 60 "$bin/almanac" episodes --all --json | python3 -c '
import json, sys
text = sys.stdin.read()
try:
    items = json.loads(text)
except ValueError:
    items = [json.loads(line) for line in text.splitlines() if line.strip()]
items = items if isinstance(items, list) else items.get("episodes", [])
print([item["id"] for item in items if item.get("podcast") == "Downloadable"][0])')
timeout 120 "$bin/almanac" episode download "$episode" >/dev/null
timeout 60 "$bin/almanac" settings set units imperial >/dev/null
timeout 60 "$bin/almanac" get weather --json >/dev/null
timeout 60 "$bin/almanac" podcasts refresh >/dev/null || true
timeout 10 "$bin/almanac" watch podcasts >/dev/null || true
kill -TERM "$daemon"
# Bounded: callgrind writes its last file on the way out.
for _ in $(seq 600); do kill -0 "$daemon" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$daemon" 2>/dev/null; then kill -KILL "$daemon"; echo "hot-functions: almanacd did not stop" >&2; exit 1; fi
wait "$daemon" || true

# Written aside and moved into place only when whole: the release link reads this file.
python3 - "$work" "$bin" >"$work/hot-functions.txt" <<'EOF'
import glob, os, re, subprocess, sys
work, bin = sys.argv[1], sys.argv[2]
defined = set()
for binary in ("almanacd", "almanac"):
    listing = subprocess.run(["nm", "--defined-only", os.path.join(bin, binary)], capture_output=True, text=True, check=True)
    defined.update(line.split()[-1] for line in listing.stdout.splitlines() if line.split()[-2:-1][0] in "tTwW")

def ran(path):
    """Function names in a callgrind output, in the order callgrind first saw them."""
    names, seen = [], set()
    with open(path) as out:
        for line in out:
            match = re.match(r"c?fn=\(\d+\) (.+)$", line.rstrip("\n"))
            if match and match.group(1) not in seen:
                seen.add(match.group(1))
                names.append(match.group(1))
    return names

daemon = glob.glob(os.path.join(work, "daemon.*"))
idle = [p for p in daemon if p.endswith(".1")]
rest = [p for p in daemon if not p.endswith(".1")]
# callgrind_control's dump is <file>.1, the dump at exit <file> itself.
if len(idle) != 1 or len(rest) != 1:
    sys.exit(f"hot-functions: expected one idle and one final callgrind file, found {sorted(daemon)}")
phases = [idle, [os.path.join(work, "cli-weather"), os.path.join(work, "cli-podcasts")], rest]
listed = set()
for number, phase in enumerate(phases, 1):
    before = len(listed)
    names = set()
    for path in phase:
        names.update(name for name in ran(path) if name in defined and name not in listed)
    # By name within a phase: a module's functions, often from one object file, sit together
    # (measured: 0.5 MiB less of the binary mapped at idle than in the order callgrind met them).
    for name in sorted(names):
        print(name)
    listed |= names
    print(f"hot-functions: phase {number}: {len(listed) - before} functions ({len(phase)} callgrind files)", file=sys.stderr)
EOF
mv "$work/hot-functions.txt" release/hot-functions.txt
echo "hot-functions: $(wc -l <release/hot-functions.txt) functions in release/hot-functions.txt"
