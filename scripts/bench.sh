#!/usr/bin/env bash
# `make bench`: release builds of everything measured (static Swift runtime, as `make
# install` ships), the C peers, the Python parsers in a venv, then Benchmarks/run.py.
# QUICK=1 runs fewer, shorter rounds. Fails when a peer cannot be built or run.
set -euo pipefail
cd "$(dirname "$0")/.."
# make bench passes the Makefile's RELEASE_FLAGS (what `make install` ships) and a scratch path.
release_flags=(${RELEASE_FLAGS:?run this through make bench, which passes RELEASE_FLAGS})
bin=$(scripts/release-build.sh "${release_flags[@]}")

# The binaries as `make install` and `make deb` ship them: stripped with the Makefile's
# STRIP and STRIP_FLAGS. Their sizes are measured, and the daemon's memory on this copy.
installed=.build-release/bench-installed
mkdir -p "$installed"
for binary in almanacd almanac; do
  install -m755 "$bin/$binary" "$installed/$binary"
done
strip_flags=${STRIP_FLAGS-"--strip-unneeded --remove-section=.comment --remove-section=.note"}
# shellcheck disable=SC2086
${STRIP:-strip} $strip_flags "$installed/almanacd" "$installed/almanac"

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
exec timeout --kill-after=30 "${BENCH_TIMEOUT:-1800}" python3 Benchmarks/run.py --bin "$bin" --installed "$installed" --peers "$peers" \
  --python bench/.venv/bin/python --cache .build-release/bench-cache "${quick[@]}" ${BENCH_ARGS:-}
