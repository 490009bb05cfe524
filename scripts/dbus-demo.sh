#!/usr/bin/env bash
# `make dbus-demo`: the DBus module alone on a private bus (no session bus, no network needed),
# watched by tools nobody on the team wrote: busctl introspects the demo object while it
# runs and dbus-monitor prints every signal it emits.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(swift build --show-bin-path)
source scripts/private-bus.sh

work=$(mktemp -d)
cleanup() { kill "${monitor:-}" 2>/dev/null || true; private_bus_stop; rm -rf "$work"; }
trap cleanup EXIT

private_bus_start
echo "== private bus at $DBUS_SESSION_BUS_ADDRESS"

dbus-monitor --session "type='signal',interface='org.almanac.Demo1'" > "$work/monitor" 2>&1 &
monitor=$!

"$bin/dbus-demo" 3 &
demo=$!
sleep 1
echo "== busctl introspect org.almanac.Demo /org/almanac/Demo"
busctl --address="$DBUS_SESSION_BUS_ADDRESS" introspect org.almanac.Demo /org/almanac/Demo
echo "== gdbus call ... org.almanac.Demo1.Greet 'gdbus'"
gdbus call --session --dest org.almanac.Demo --object-path /org/almanac/Demo --method org.almanac.Demo1.Greet gdbus
wait "$demo"
sleep 0.2
echo "== what dbus-monitor saw"
grep -A1 "member=Tick" "$work/monitor" | grep -v "^--" || true
