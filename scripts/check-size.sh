#!/usr/bin/env bash
# Fails when a binary, stripped as `make install` strips it (the Makefile's STRIP and
# STRIP_FLAGS), is larger than its bound in bytes (issue 27: almanacd ≤ 20 MB, 10^6 bytes).
# Give it what `make install` builds (RELEASE_FLAGS): a debug or dynamically linked build
# weighs something else. Where the bytes come from: docs/performance.md, "Where the size
# comes from".
#   check-size.sh BINARY MAX_BYTES [BINARY MAX_BYTES]...
set -euo pipefail
if [ $# -eq 0 ] || [ $(($# % 2)) -ne 0 ]; then
  echo "usage: check-size.sh BINARY MAX_BYTES [BINARY MAX_BYTES]..." >&2
  exit 64
fi
strip=${STRIP:-strip}
strip_flags=${STRIP_FLAGS-"--strip-unneeded --remove-section=.comment --remove-section=.note"}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
while [ $# -gt 0 ]; do
  binary=$1 bound=$2
  shift 2
  case "$bound" in "" | *[!0-9]*) echo "check-size.sh: the bound for $binary must be a number of bytes, not '$bound'" >&2; exit 64 ;; esac
  copy="$work/$(basename "$binary")"
  cp "$binary" "$copy"
  # shellcheck disable=SC2086
  $strip $strip_flags "$copy"
  if readelf -S "$copy" | grep -q '\.symtab'; then
    echo "check-size.sh: $binary still has a symbol table after '$strip $strip_flags': its size is not what is installed" >&2
    exit 1
  fi
  bytes=$(stat -c %s "$copy")
  if [ "$bytes" -gt "$bound" ]; then
    echo "check-size.sh: $(basename "$binary") is $bytes bytes stripped, over its bound of $bound (docs/performance.md, \"Where the size comes from\", says how to find what grew)" >&2
    status=1
  else
    echo "check-size.sh: $(basename "$binary") is $bytes bytes stripped (bound $bound)"
  fi
done
exit $status
