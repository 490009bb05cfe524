#!/usr/bin/env bash
# `make bench`: release builds of everything measured (static Swift runtime, as `make
# install` ships), the C peers, the Python parsers in a venv, then Benchmarks/run.py.
# QUICK=1 runs fewer, shorter rounds. Fails when a peer cannot be built or run.
set -euo pipefail
cd "$(dirname "$0")/.."
swift=${SWIFT:-swift}
# make bench passes the Makefile's RELEASE_FLAGS (what `make install` ships) and a scratch path.
release_flags=(${RELEASE_FLAGS:--c release --static-swift-stdlib -Xlinker --no-pie --scratch-path .build-release})

# SwiftPM does not know the order file (release/hot-functions.txt) is an input of the link:
# relink when it changed.
bin=$($swift build "${release_flags[@]}" --show-bin-path)
for binary in almanacd almanac; do
  if [ -e "$bin/$binary" ] && [ "$bin/$binary" -ot release/hot-functions.txt ]; then rm -f "$bin/$binary"; fi
done
$swift build "${release_flags[@]}"

peers=.build-release/bench-peers
mkdir -p "$peers"
for peer in bench-driver bench-server bench-stub; do
  # shellcheck disable=SC2046
  gcc -O2 -Wall -Wextra -Werror -o "$peers/$peer" "Benchmarks/peers/$peer.c" $(pkg-config --cflags --libs dbus-1)
done

# The Python peers, pinned, in a venv of their own (never the system's Python).
if [ ! -x bench/.venv/bin/python ] || ! bench/.venv/bin/python -c 'import podcastparser, feedparser, feedparser_rs' 2>/dev/null; then
  python3 -m venv bench/.venv
  bench/.venv/bin/pip install --quiet -r Benchmarks/feeds/requirements.txt
fi

quick=()
if [ -n "${QUICK:-}" ] && [ "${QUICK}" != 0 ]; then quick=(--quick); fi
# Bounded: a run that hangs fails instead of holding the machine.
exec timeout --kill-after=30 "${BENCH_TIMEOUT:-1500}" python3 Benchmarks/run.py --bin "$bin" --peers "$peers" \
  --python bench/.venv/bin/python --cache .build-release/bench-cache "${quick[@]}" ${BENCH_ARGS:-}
