#!/usr/bin/env bash
# CPU time and context switches of almanacd per event on the change path, for comparing two
# builds of the daemon on a machine too busy for fair rates (docs/performance.md, "What the
# hop costs"). Run after `make bench` has built the C peers:
#
#   Benchmarks/cpu-per-event.sh PATH/TO/almanacd LABEL [ROUNDS] [SECONDS]
#
# Starts the daemon (demo provider) on a private bus, then ROUNDS times keeps 16 Submits in
# flight with one view for SECONDS (bench-driver change) and prints the driver's figures
# with the daemon's CPU ticks (utime+stime, 1/100 s) and voluntary/involuntary context
# switches, summed over its threads, for that round. Alternate two daemons' runs.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/private-bus.sh
bin=$1; label=$2; rounds=${3:-3}; seconds=${4:-5}
peers=.build-release/bench-peers
[ -x "$peers/bench-driver" ] || { echo "cpu-per-event: $peers/bench-driver is missing (make bench builds it)" >&2; exit 1; }
work=$(mktemp -d)
daemon=""
cleanup() { [ -n "$daemon" ] && kill "$daemon" 2>/dev/null || true; private_bus_stop; rm -rf "$work"; }
trap cleanup EXIT
private_bus_start
"$bin" --address "$PRIVATE_BUS_ADDRESS" --provider demo --weather-interval 3600 --podcast-interval 3600 \
  --state-dir "$work/state" --data-dir "$work/data" 2>"$work/log" &
daemon=$!
for _ in $(seq 200); do
  dbus-send --session --print-reply --dest=org.freedesktop.DBus / org.freedesktop.DBus.NameHasOwner \
    string:org.almanac.Almanac1 2>/dev/null | grep -q 'boolean true' && break
  sleep 0.05
done
usage() {
  local ticks=0 voluntary=0 involuntary=0 fields
  for task in /proc/"$daemon"/task/*; do
    read -ra fields < <(sed 's/.*) //' "$task/stat")
    ticks=$((ticks + fields[11] + fields[12]))
    voluntary=$((voluntary + $(awk '/^voluntary_ctxt/ {print $2}' "$task/status")))
    involuntary=$((involuntary + $(awk '/^nonvoluntary_ctxt/ {print $2}' "$task/status")))
  done
  echo "$ticks $voluntary $involuntary"
}
for round in $(seq "$rounds"); do
  read -r t0 v0 n0 < <(usage)
  out=$("$peers/bench-driver" change "$PRIVATE_BUS_ADDRESS" org.almanac.Almanac1 1 16 "$seconds")
  read -r t1 v1 n1 < <(usage)
  echo "$label round $round: $out | cpu_ticks $((t1 - t0)) voluntary_cs $((v1 - v0)) involuntary_cs $((n1 - n0))"
done
