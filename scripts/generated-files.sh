#!/usr/bin/env bash
# Writes what `make install` generates from the built binaries into OUT: man pages
# (OUT/man1: almanac(1), one per subcommand, almanacd(1)) and the CLI's completions for bash,
# zsh and fish (ArgumentParser's --generate-completion-script).
#   generated-files.sh BIN OUT    (BIN: the folder almanac and almanacd are in)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$1 out=$2
mkdir -p "$out/man1"
# The pages' date: the last commit's, so that a build of the same commit writes the same pages.
export SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}"
# The CLI answers --help and friends without asking the daemon; keep the bus out of it anyway.
export DBUS_SESSION_BUS_ADDRESS=unix:path=/nonexistent
scripts/man-pages.py "$bin/almanac" "$out/man1" --extra packaging/man/almanac.extra.roff --see-also almanacd >/dev/null
scripts/man-pages.py "$bin/almanacd" "$out/man1" --extra packaging/man/almanacd.extra.roff --see-also almanac >/dev/null
# Sourced, not run: no "#!" line (lintian: bash-completion-with-hashbang).
"$bin/almanac" --generate-completion-script bash | sed "1{/^#!/d}" > "$out/almanac.bash"
"$bin/almanac" --generate-completion-script zsh > "$out/_almanac"
"$bin/almanac" --generate-completion-script fish > "$out/almanac.fish"
