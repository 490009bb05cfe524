#!/usr/bin/env bash
# Builds what `make install` ships with the flags given (the Makefile's RELEASE_FLAGS) and
# prints the folder the binaries are in. SwiftPM does not know that release/hot-functions.txt
# is an input of the link, so binaries older than it are deleted first and linked again.
set -euo pipefail
cd "$(dirname "$0")/.."
swift=${SWIFT:-swift}
bin=$($swift build "$@" --show-bin-path)
for binary in almanacd almanac; do
  if [ -e "$bin/$binary" ] && [ "$bin/$binary" -ot release/hot-functions.txt ]; then rm -f "$bin/$binary"; fi
done
# The products it is for, one by one: `swift build` alone would build every target, and
# TestHarness (Swift Testing) does not build with --static-swift-stdlib (no static Testing).
for product in almanacd almanac almanac-bench; do
  $swift build "$@" --product "$product" >&2
done
echo "$bin"
