#!/usr/bin/env bash
# `make demo`: almanacd on the offline demo provider and `almanac watch weather`, updating
# live. Uses the session bus when there is one, otherwise starts a private bus. Needs no
# network. DEMO_SECONDS (default 15) sets how long the watch runs.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(swift build --show-bin-path)
seconds=${DEMO_SECONDS:-15}
source scripts/private-bus.sh

work=$(mktemp -d)
cleanup() {
  [ -n "${daemon:-}" ] && kill -TERM "$daemon" 2>/dev/null && wait "$daemon" 2>/dev/null
  private_bus_stop
  rm -rf "$work"
}
trap cleanup EXIT

if [ -z "${DBUS_SESSION_BUS_ADDRESS:-}" ] || ! dbus-send --session --dest=org.freedesktop.DBus / org.freedesktop.DBus.Peer.Ping 2>/dev/null; then
  private_bus_start
  echo "== no session bus: started a private one at $DBUS_SESSION_BUS_ADDRESS"
fi

if "$bin/almanac" status >/dev/null 2>&1; then
  echo "== an almanacd is already running on this bus; using it"
else
  "$bin/almanacd" --provider demo --state-dir "$work/state" --weather-interval 2 --podcast-interval 3 2>"$work/almanacd.log" &
  daemon=$!
  for _ in $(seq 100); do "$bin/almanac" status >/dev/null 2>&1 && break; sleep 0.05; done
fi

echo "== almanac status"
"$bin/almanac" status
echo
echo "== almanac weather Paris"
"$bin/almanac" weather Paris
echo
echo "== almanac forecast Tokyo --days 4"
"$bin/almanac" forecast Tokyo --days 4
echo
echo "== almanac episodes"
"$bin/almanac" episodes --limit 5
echo
echo "== almanac watch weather --location Berlin   (for ${seconds}s; Ctrl-C stops it)"
echo "   watch the bus too: dbus-monitor --session \"type='signal',interface='org.almanac.Document1'\""
timeout -s INT "$seconds" "$bin/almanac" watch weather --location Berlin || true
echo
echo "== stopping almanacd"
