#!/usr/bin/env bash
# Runs a command with busy loops beside it, as on a distribution's build machine or a laptop
# compiling something else: `scripts/under-load.sh make test`. LOAD_PROCESSES (2) loops, each
# keeping a core busy at normal priority, ended with the command whatever way it ends.
set -euo pipefail
count="${LOAD_PROCESSES:-2}"
loops=()
stop() {
  if ((${#loops[@]})); then kill "${loops[@]}" 2>/dev/null || true; fi
  wait 2>/dev/null || true
  loops=()
}
trap stop EXIT
trap 'stop; exit 130' INT
trap 'stop; exit 143' TERM
for ((i = 0; i < count; i++)); do
  bash -c 'while :; do :; done' &
  loops+=("$!")
done
echo "under-load: ${count} busy loops beside: $*"
start=$(date +%s)
status=0
"$@" || status=$?
echo "under-load: '$*' exited ${status} after $(($(date +%s) - start)) s beside ${count} busy loops"
exit "$status"
