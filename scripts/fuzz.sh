#!/usr/bin/env bash
# make fuzz: libFuzzer (with AddressSanitizer) over what Almanac reads from outside.
#   feed       FeedParser.parse (RSS, Atom, RDF; any encoding)
#   opml       OPML.parse, and export reading back the same
#   openmeteo  the forecast and geocoding JSON
#   json       JSONReader, and the transcript, chapters, alert, directory and sync readers over it
#   dbus       Message(marshalled:) (libdbus's demarshal, then our reader), Signature
# FUZZ_RUNS executions each (default 1,000,000); FUZZ_TARGETS to choose some.
# A crasher is saved under Tests/Fixtures/fuzz/<target>/ (crash-<sha1>), where the
# regression tests of `make test` (FuzzRegressionTests, DBusFuzzRegressionTests) run it
# through the same code; fix the cause, keep the file.
set -euo pipefail
cd "$(dirname "$0")/.."

runs=${FUZZ_RUNS:-1000000}
targets=${FUZZ_TARGETS:-feed opml openmeteo json dbus}
scratch=.build-fuzz
binary=$scratch/release/almanac-fuzz
corpus=$scratch/corpus

# Seeds: the fixtures, the saved inputs, and real D-Bus messages captured from the daemon.
for target in $targets; do mkdir -p "$corpus/$target"; cp -n Tests/Fixtures/fuzz/$target/* "$corpus/$target/" 2>/dev/null || true; done
cp -n Tests/Fixtures/feeds/* "$corpus/feed/" 2>/dev/null || true
if [[ " $targets " == *" dbus "* ]] && [ -z "$(ls -A "$corpus/dbus" | grep captured || true)" ]; then
  swift build --product almanacd >/dev/null
  /usr/bin/python3 scripts/fuzz_dbus_seeds.py "$corpus/dbus" .build/debug
fi

status=0
for target in $targets; do
  case $target in
    dbus) max_len=65536 ;;
    *) max_len=16384 ;;
  esac
  echo "== $target: $runs runs"
  log=$scratch/fuzz-$target.log
  if ALMANAC_FUZZ=$target "$binary" "$corpus/$target" -runs="$runs" -max_len=$max_len -timeout=20 -rss_limit_mb=4096 \
      -artifact_prefix="Tests/Fixtures/fuzz/$target/" -print_final_stats=1 >"$log" 2>&1; then
    grep -E "stat::number_of_executed_units|stat::average_exec_per_sec|stat::peak_rss_mb" "$log" | tr '\n' ' '; echo
    grep -E "^#[0-9]+.*(DONE|pulse)" "$log" | tail -1 || true
  else
    status=1
    echo "FAILED: see $log; the input is saved under Tests/Fixtures/fuzz/$target/"
    grep -E "ERROR|SUMMARY|Fatal error|==ERROR" "$log" | head -5
  fi
done
exit $status
