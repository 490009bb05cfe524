#!/usr/bin/env bash
# `make demo`: almanacd on the offline demo provider, two `almanac watch` views rendering
# the same changes live, a third client changing the document, and a line per signal of
# what dbus-monitor sees — until Ctrl-C, which stops the views (each removes its view from
# the daemon), then the daemon, the monitor and the bus, and exits 0.
#
# Uses the session bus when there is one, otherwise a private bus. Needs no network.
#   DEMO_SECONDS=N   end by itself after N seconds (for runs nobody watches)
#   DEMO_BIN=DIR     the folder of the built almanac and almanacd (default: swift build's)
#   DEMO_CLIENT_EVERY=N  seconds between the third client's changes (default 4)
#
# Ctrl-C: under make, the terminal's SIGINT goes to the whole foreground process group —
# make, this script and everything it started. So on a terminal the script turns on job
# control: what it starts in the background (daemon, bus, monitor) gets a process group of
# its own, out of Ctrl-C's reach, and the live part runs as a foreground job, in a process
# group the terminal is handed to. Ctrl-C then reaches only that job: the views (which
# remove their views and exit 0) and the job's shell, which ends the third client. The
# script, and make, see a job that exited 0, stop the rest and exit 0.
set -uo pipefail
cd "$(dirname "$0")/.."
bin=${DEMO_BIN:-$(swift build --show-bin-path)} || exit 1
seconds=${DEMO_SECONDS:-}
every=${DEMO_CLIENT_EVERY:-4}
[ -t 0 ] && set -m
source scripts/private-bus.sh

work=$(mktemp -d "${TMPDIR:-/tmp}/almanac-demo-XXXXXXXX")
daemon= monitor= condenser=
cleanup() {
  trap - INT TERM
  [ -n "$monitor" ] && kill "$monitor" 2>/dev/null && wait "$monitor" 2>/dev/null
  [ -n "$condenser" ] && wait "$condenser" 2>/dev/null
  if [ -n "$daemon" ]; then kill -TERM "$daemon" 2>/dev/null; wait "$daemon" 2>/dev/null; fi
  private_bus_stop
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

say() { printf '\033[1m%s\033[0m\n' "$*"; }
[ -t 1 ] && [ "${TERM:-dumb}" != dumb ] && [ -z "${NO_COLOR:-}" ] || say() { printf '%s\n' "$*"; }

if [ -z "${DBUS_SESSION_BUS_ADDRESS:-}" ] || ! dbus-send --session --dest=org.freedesktop.DBus / org.freedesktop.DBus.Peer.Ping 2>/dev/null; then
  private_bus_start || exit 1
  say "== no session bus: started a private one"
fi
address=$DBUS_SESSION_BUS_ADDRESS

if "$bin/almanac" status >/dev/null 2>&1; then
  say "== an almanacd is already running on this bus; using it"
else
  "$bin/almanacd" --provider demo --state-dir "$work/state" --data-dir "$work/data" \
    --weather-interval 3 --podcast-interval 10 2>"$work/almanacd.log" &
  daemon=$!
  for _ in $(seq 200); do "$bin/almanac" status >/dev/null 2>&1 && break; sleep 0.05; done
  if ! "$bin/almanac" status >/dev/null 2>&1; then
    echo "demo: almanacd did not start:" >&2; cat "$work/almanacd.log" >&2; exit 1
  fi
fi

say "== almanac status"
"$bin/almanac" status
echo
say "== almanac weather Paris"
"$bin/almanac" weather Paris
echo

# What dbus-monitor sees, a line per signal: Changed goes to everyone, Updated to one view.
mkfifo "$work/bus"
stdbuf -oL dbus-monitor --address "$address" "type='signal',interface='org.almanac.Document1'" \
  "type='signal',interface='org.almanac.View1'" >"$work/bus" 2>/dev/null &
monitor=$!
awk '
  function flush() {
    if (member == "") return
    printf "[bus] %-17s %-9s rev %-4s %-11s %s\n", member, to, revision, kind, path
    fflush(); member = ""
  }
  /^signal / {
    flush()
    if (match($0, /interface=org\.almanac\.[A-Za-z0-9]+; member=[A-Za-z]+/) == 0) next
    split(substr($0, RSTART + 22, RLENGTH - 22), parts, /; member=/)
    member = parts[1] "." parts[2]
    to = ($0 ~ /destination=\(null destination\)/) ? "to all" : "to " gensub_dest($0)
    path = $0; sub(/.* path=\/org\/almanac\/Almanac1\//, "", path); sub(/;.*/, "", path)
    revision = ""; kind = ""; key = ""
    next
  }
  member != "" && revision == "" && /^   uint64 / { revision = $2; next }
  member != "" && /^         string "/ { key = $2; next }
  member != "" && key == "\"kind\"" && /^         variant / { kind = $NF; gsub(/"/, "", kind); flush(); next }
  END { flush() }
  function gensub_dest(line,   d) { d = line; sub(/.*destination=/, "", d); sub(/ .*/, "", d); return d }
' <"$work/bus" &
condenser=$!

cat <<EOF
$(say "== live: a CLI registers as a view and renders the updates it is sent")
  [view 1], [view 2]  two \`almanac watch weather --location Paris\`: each is
                      a view of the daemon's weather (AddView) and prints
                      every update sent to it (View1.Updated), via --format
  [client]            every ${every} s a third client submits a change that both
                      views render: almanac settings set units …
  [bus]               what dbus-monitor sees: Document1.Changed goes to all,
                      View1.Updated only to the view it concerns
$( [ -n "$seconds" ] && echo "  (for ${seconds} s)" || echo "  Ctrl-C stops the views (each removes its view), the daemon and the bus.")

EOF

# The live part: a job of its own (see the top), ended by Ctrl-C or after DEMO_SECONDS.
(
  stop=
  trap 'stop=1' INT TERM
  format='{{place}}  {{symbol}} {{condition}}  {{temperature}}  wind {{wind}}'
  # Through a pipe, as a status bar would read them: lines only, no "Loading…" status
  # redrawn in place between them. The cat ignores Ctrl-C, so that it outlives its view.
  "$bin/almanac" watch weather --location Paris --format "[view 1] $format" > >(trap '' INT; exec cat) &
  view1=$!
  "$bin/almanac" watch weather --location Paris --format "[view 2] $format" > >(trap '' INT; exec cat) &
  view2=$!
  units=(imperial metric)
  turn=0 ticks=0
  while [ -z "$stop" ]; do
    sleep 0.5
    ticks=$((ticks + 1))
    [ -n "$seconds" ] && [ $((ticks / 2)) -ge "$seconds" ] && break
    if [ -z "$stop" ] && [ $((ticks % (every * 2))) -eq 0 ]; then
      echo "[client] \$ almanac settings set units ${units[turn % 2]}"
      "$bin/almanac" settings set units "${units[turn % 2]}" >/dev/null || true
      turn=$((turn + 1))
    fi
  done
  # Ctrl-C reached the views already; after DEMO_SECONDS, stop them the same way.
  kill -INT "$view1" "$view2" 2>/dev/null
  wait "$view1"; status1=$?
  wait "$view2"; status2=$?
  echo
  echo "== the views stopped (exit $status1 and $status2) and removed their views"
  [ "$status1" -eq 0 ] && [ "$status2" -eq 0 ]
)
live=$?

# The monitor first, so that its last lines (the views' removal) come before the goodbye.
sleep 0.3
kill "$monitor" 2>/dev/null && wait "$monitor" 2>/dev/null
wait "$condenser" 2>/dev/null
monitor= condenser=
[ -n "$daemon" ] && say "== stopping almanacd$( [ -n "${PRIVATE_BUS_PID:-}" ] && echo " and the private bus")"
exit "$live"
