#!/usr/bin/env bash
# Runs 10,000 calls and 10,000 signals through the DBus module under valgrind on a private
# bus; a definite leak or any memory error fails. Its time limit (LEAKCHECK_TIMEOUT, 1800 s)
# is for hangs: under valgrind beside other work it took 10 minutes here.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(swift build --show-bin-path)
source scripts/private-bus.sh
work=$(mktemp -d)
cleanup() { private_bus_stop; rm -rf "$work"; }
trap cleanup EXIT

private_bus_start

if timeout --kill-after=10 "${LEAKCHECK_TIMEOUT:-1800}" valgrind --quiet --leak-check=full --errors-for-leak-kinds=definite --show-leak-kinds=definite \
     --error-exitcode=99 "$bin/dbus-soak" "$PRIVATE_BUS_ADDRESS" > "$work/log" 2>&1; then
  tail -1 "$work/log"
  echo "leakcheck: no definite leaks and no memory errors under valgrind"
else
  cat "$work/log"
  echo "leakcheck: valgrind found leaks or memory errors (above)" >&2
  exit 1
fi
