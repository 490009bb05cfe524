#!/usr/bin/env bash
# Fails when a binary looks for libraries where nothing of ours is: a RUNPATH or RPATH naming
# `$ORIGIN` (SwiftPM adds it to every binary unless told `--disable-local-rpath`; Almanac ships
# no library beside its binaries, so it only widened where the loader looks). With --none, any
# RUNPATH or RPATH at all fails: what `make install` ships links the Swift runtime in and needs
# none (a dynamically linked build keeps the toolchain's own).
#   check-runpath.sh [--none] BINARY...
set -euo pipefail
none=false
if [ "${1:-}" = --none ]; then none=true; shift; fi
status=0
for binary in "$@"; do
  paths=$(readelf -d "$binary" | sed -n 's/.*(\(RUNPATH\|RPATH\)).*\[\(.*\)\]$/\2/p')
  if [ -n "$paths" ] && $none; then
    echo "check-runpath.sh: $binary has a RUNPATH or RPATH ($paths) but ships with the Swift runtime linked in" >&2
    status=1
  elif [[ $paths == *'$ORIGIN'* ]]; then
    echo "check-runpath.sh: $binary looks for libraries beside itself (\$ORIGIN in $paths); build with --disable-local-rpath" >&2
    status=1
  fi
done
exit $status
