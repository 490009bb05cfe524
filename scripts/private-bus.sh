# A private dbus-daemon for the shell scripts; source it, then:
#
#   private_bus_start [EXTRA]   starts a bus from scripts/private-bus.conf.in on a socket in a
#                               folder of its own (EXTRA: lines for the end of <busconfig>, such
#                               as <servicedir> elements) and returns once it listens; sets
#                               PRIVATE_BUS_ADDRESS and PRIVATE_BUS_PID and exports
#                               DBUS_SESSION_BUS_ADDRESS. Fails (status 1) when it does not start.
#   private_bus_stop            stops it and removes its folder; does nothing when no bus runs.
#                               Call it from the script's own cleanup, e.g.
#                               cleanup() { …; private_bus_stop; }; trap cleanup EXIT
#
# The Python harness (scripts/almanac_harness.py) and the Swift tests fill in the same
# configuration.

private_bus_template="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/private-bus.conf.in"

private_bus_start() {
  local extra=${1:-} config
  PRIVATE_BUS_DIR=$(mktemp -d "${TMPDIR:-/tmp}/almanac-bus-XXXXXXXX")
  config=$(<"$private_bus_template")
  # Quoted replacements: taken literally (no & or \ expansion, whatever the bash version).
  config=${config//@SOCKET@/"$PRIVATE_BUS_DIR/bus"}
  config=${config//@EXTRA@/"$extra"}
  printf '%s\n' "$config" >"$PRIVATE_BUS_DIR/bus.conf"
  dbus-daemon --config-file="$PRIVATE_BUS_DIR/bus.conf" --nofork --print-address=3 \
    3>"$PRIVATE_BUS_DIR/address" 2>"$PRIVATE_BUS_DIR/log" &
  PRIVATE_BUS_PID=$!
  for _ in $(seq 100); do
    [ -s "$PRIVATE_BUS_DIR/address" ] && break
    kill -0 "$PRIVATE_BUS_PID" 2>/dev/null || break
    sleep 0.05
  done
  if [ ! -s "$PRIVATE_BUS_DIR/address" ]; then
    echo "private-bus.sh: dbus-daemon did not start: $(cat "$PRIVATE_BUS_DIR/log")" >&2
    private_bus_stop
    return 1
  fi
  PRIVATE_BUS_ADDRESS=$(head -1 "$PRIVATE_BUS_DIR/address")
  export DBUS_SESSION_BUS_ADDRESS=$PRIVATE_BUS_ADDRESS
}

private_bus_stop() {
  if [ -n "${PRIVATE_BUS_PID:-}" ]; then
    kill "$PRIVATE_BUS_PID" 2>/dev/null || true
    wait "$PRIVATE_BUS_PID" 2>/dev/null || true
  fi
  if [ -n "${PRIVATE_BUS_DIR:-}" ]; then rm -rf "$PRIVATE_BUS_DIR"; fi
  PRIVATE_BUS_PID=
  PRIVATE_BUS_DIR=
  return 0
}
