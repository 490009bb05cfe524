#!/usr/bin/env bash
# Counts how often almanacd and `almanac watch playing` wake up while mpv (headless, with
# mpv-mpris) plays a long episode without chapters: context switches (voluntary and not, all
# threads: /proc/PID/task/*/status) over SECONDS of playback, after a settling pause, on a
# private bus, with a local HTTP server. mpv's own count, and playerctl --follow's when it is
# installed, are the peers. docs/performance.md ("Wakeups while a player plays") has the numbers.
#
#   scripts/wakeups.sh [SECONDS]     (default 60; BIN=.build/debug)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
bin=${BIN:-.build/debug}
plugin=/usr/lib/mpv-mpris/mpris.so
source scripts/private-bus.sh

pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  private_bus_stop
  [ -n "${work:-}" ] && rm -rf "$work"
}
trap cleanup EXIT

work=$(mktemp -d "${TMPDIR:-/tmp}/almanac-wakeups-XXXXXXXX")
private_bus_start
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
base="http://127.0.0.1:$port"
# An hour of silence (8 kHz mono 8-bit WAV), one episode, no chapters.
python3 - "$work/long.wav" <<'EOF'
import struct, sys
samples = 8000 * 3600
with open(sys.argv[1], "wb") as f:
    f.write(b"RIFF" + struct.pack("<I", 36 + samples) + b"WAVEfmt " + struct.pack("<IHHIIHH", 16, 1, 1, 8000, 8000, 1, 8))
    f.write(b"data" + struct.pack("<I", samples) + b"\x80" * samples)
EOF
cat >"$work/show.xml" <<EOF
<?xml version="1.0"?><rss version="2.0"><channel><title>The Long Show</title>
<item><title>An Hour</title><guid>hour</guid><pubDate>Sun, 01 Nov 2026 06:00:00 GMT</pubDate>
<enclosure url="$base/long.wav" type="audio/wav" length="28800044"/></item></channel></rss>
EOF
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$work" >/dev/null 2>&1 &
pids+=($!)
for _ in $(seq 100); do (echo >/dev/tcp/127.0.0.1/"$port") 2>/dev/null && break; sleep 0.1; done

"$bin/almanacd" --address "$PRIVATE_BUS_ADDRESS" --state-dir "$work/state" --data-dir "$work/data" --provider real \
  --weather-url http://127.0.0.1:9 --geocoding-url http://127.0.0.1:9 --air-quality-url http://127.0.0.1:9 \
  --met-norway-url http://127.0.0.1:9 --nws-url http://127.0.0.1:9 --metalerts-url http://127.0.0.1:9 \
  --weather-interval 3600 --podcast-interval 3600 2>"$work/almanacd.log" &
daemon=$!
pids+=("$daemon")
for _ in $(seq 200); do "$bin/almanac" status >/dev/null 2>&1 && break; sleep 0.1; done
"$bin/almanac" podcasts subscribe "$base/show.xml" >/dev/null

"$bin/almanac" watch playing --format '{{state}}|{{title}}|{{chapter}}' >"$work/watch.out" 2>&1 &
watch=$!
pids+=("$watch")
mpv --no-config --no-video --ao=null --no-terminal --script="$plugin" "$base/long.wav" &
mpv=$!
pids+=("$mpv")
peer=
if command -v playerctl >/dev/null; then
  playerctl --follow metadata >/dev/null 2>&1 &
  peer=$!
  pids+=("$peer")
fi
for _ in $(seq 300); do grep -q '^playing|An Hour' "$work/watch.out" && break; sleep 0.1; done
grep -q '^playing|An Hour' "$work/watch.out" || { echo "wakeups.sh: watch never saw the episode play" >&2; cat "$work/watch.out" "$work/almanacd.log" >&2; exit 1; }
sleep 5  # settled: the daemon's first reads of the player are done

# Context switches of every thread of PID (voluntary + nonvoluntary).
switches() {
  cat /proc/"$1"/task/*/status 2>/dev/null | awk '/ctxt_switches/ { n += $2 } END { print n + 0 }'
}
threads() { ls /proc/"$1"/task | wc -l; }
# Per thread: "TID NAME SWITCHES" lines.
per_thread() {
  for task in /proc/"$1"/task/*; do
    printf '%s %s %s\n' "${task##*/}" "$(tr ' ' _ <"$task/comm")" "$(awk '/ctxt_switches/ { n += $2 } END { print n + 0 }' "$task/status")"
  done 2>/dev/null
}
declare -A before
per_thread "$daemon" >"$work/daemon.before"
per_thread "$watch" >"$work/watch.before"
for name in almanacd watch mpv ${peer:+playerctl}; do
  case $name in almanacd) pid=$daemon ;; watch) pid=$watch ;; mpv) pid=$mpv ;; playerctl) pid=$peer ;; esac
  before[$name]=$(switches "$pid")
done
lines=$(wc -l <"$work/watch.out")
sleep "$seconds"
echo "over $seconds s of playback (context switches, all threads; threads now):"
for name in almanacd watch mpv ${peer:+playerctl}; do
  case $name in almanacd) pid=$daemon ;; watch) pid=$watch ;; mpv) pid=$mpv ;; playerctl) pid=$peer ;; esac
  after=$(switches "$pid")
  printf '  %-9s %6d  (%.2f/s, %d threads)\n' "$name" $((after - before[$name])) "$(echo "($after - ${before[$name]}) / $seconds" | bc -l)" "$(threads "$pid")"
done
echo "  lines watch printed meanwhile: $(($(wc -l <"$work/watch.out") - lines))"
for name in daemon watch; do
  case $name in daemon) pid=$daemon ;; watch) pid=$watch ;; esac
  echo "  $name by thread (name: switches; a thread that ended or began counts as one):"
  per_thread "$pid" | awk -v before="$work/$name.before" '
    BEGIN { while ((getline line < before) > 0) { split(line, f, " "); old[f[1]] = f[3]; seen[f[1]] = f[2] } }
    { n = ($1 in old) ? $3 - old[$1] : 1; delete seen[$1]; printf "    %s %s: %d\n", $1, $2, n }
    END { for (t in seen) printf "    %s %s: ended\n", t, seen[t] }'
done
